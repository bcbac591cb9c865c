package auth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"strings"
	"sync"
	"time"

	"github.com/devhub/devhub/pkg/internal/random"
	"github.com/devhub/devhub/pkg/store"
)

// OwnerSetupTTL is how long the first-run link stays valid.
const OwnerSetupTTL = time.Hour

// ErrSetupLinkDead is the answer to a first-run link that was never made,
// is used, has expired, or meets a store that has an admin already.
var ErrSetupLinkDead = store.Refuse(store.KindNotFound, "this setup link is no longer valid; create the owner's account with `devhub user create --admin`")

// OwnerSetup is the first run's one-time link: while the store has no
// admin, serve makes a random token, valid OwnerSetupTTL, whose page
// creates the owner's (admin) account in the browser. Only its hash is
// kept, in memory; it dies when used, when it expires, once any admin
// exists, and when the server stops.
type OwnerSetup struct {
	svc *Service

	mu      sync.Mutex
	hash    [32]byte
	expires time.Time
}

// NewOwnerSetup is the first-run link of the accounts svc keeps.
func NewOwnerSetup(svc *Service) *OwnerSetup { return &OwnerSetup{svc: svc} }

// Begin makes a new link's token when the store has no admin; ok is false
// (and no token made) when it has one.
func (o *OwnerSetup) Begin() (token string, ok bool, err error) {
	n, err := o.svc.CountAdmins()
	if err != nil || n > 0 {
		return "", false, err
	}
	token = random.Token(32)
	o.mu.Lock()
	o.hash, o.expires = sha256.Sum256([]byte(token)), o.svc.now().Add(OwnerSetupTTL)
	o.mu.Unlock()
	return token, true, nil
}

// validLocked reports whether token is the live link's; o.mu is held.
func (o *OwnerSetup) validLocked(token string) bool {
	if o.expires.IsZero() || !o.svc.now().Before(o.expires) || token == "" || len(token) > 128 {
		return false
	}
	h := sha256.Sum256([]byte(token))
	if subtle.ConstantTimeCompare(h[:], o.hash[:]) != 1 {
		return false
	}
	n, err := o.svc.CountAdmins()
	return err == nil && n == 0
}

// Check answers whether token opens the first-run page now.
func (o *OwnerSetup) Check(token string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.validLocked(token) {
		return ErrSetupLinkDead
	}
	return nil
}

// OwnerInput is the first-run form.
type OwnerInput struct {
	Token           string
	Name            string
	Email           string
	Password        string
	ConfirmPassword string
}

// Complete creates the owner's admin account with a live link and signs it
// in; the link is dead from then on. Two forms sent at once make one
// account: the second finds the link spent.
func (o *OwnerSetup) Complete(ctx context.Context, in OwnerInput, c Client) (*AuthResult, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.validLocked(in.Token) {
		return nil, ErrSetupLinkDead
	}
	var v store.Validator
	if in.ConfirmPassword == "" {
		v.Add("confirmPassword", "required", "password confirmation is required")
	} else if in.ConfirmPassword != in.Password {
		v.Add("confirmPassword", "mismatch", "passwords do not match")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	u, err := o.svc.CreateUser(ctx, NewUser{Email: in.Email, Name: strings.TrimSpace(in.Name), Password: in.Password, Role: RoleAdmin})
	if err != nil {
		return nil, err
	}
	o.expires = time.Time{}
	return o.svc.startSession(u.ID, c)
}
