package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/random"
	"github.com/devhub/devhub/pkg/store"
)

// Registration policies (config auth.registration).
const (
	RegistrationOpen   = "open"
	RegistrationInvite = "invite"
	RegistrationClosed = "closed"
)

// Invitation limits.
const (
	DefaultInviteTTL = 7 * 24 * time.Hour
	MaxInviteTTL     = 365 * 24 * time.Hour
)

// Registration errors.
var (
	ErrRegistrationClosed = store.Refuse(store.KindForbidden, "registration is closed on this site")
	ErrInviteRequired     = errors.New("registration needs an invitation code")
	ErrInviteInvalid      = errors.New("the invitation code is unknown, used or expired")
)

const bucketInvites = "auth_invites" // sha256(code) → Invite

// Invite is a single-use invitation to register. The code itself is shown
// once, when it is made; the store keeps its hash.
type Invite struct {
	ID        string    `json:"id"` // the first characters of the hash: names it in lists
	CreatedBy string    `json:"createdBy"`
	CreatedAt time.Time `json:"createdAt"`
	ExpiresAt time.Time `json:"expiresAt"`
	UsedAt    time.Time `json:"usedAt,omitzero"`
	UsedBy    string    `json:"usedBy,omitempty"`
}

// NewInvite is a freshly made invitation with its code.
type NewInvite struct {
	Invite
	Code string `json:"code"`
}

// Registration is the policy Register follows (config auth.registration).
func (s *Service) Registration() string { return s.registration }

func inviteHash(code string) string {
	sum := sha256.Sum256([]byte("devhub invite v1:" + strings.TrimSpace(code)))
	return hex.EncodeToString(sum[:])
}

// CreateInvite makes an invitation that expires after ttl (0: the default).
func (s *Service) CreateInvite(ctx context.Context, createdBy string, ttl time.Duration) (*NewInvite, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if ttl == 0 {
		ttl = DefaultInviteTTL
	}
	if ttl < time.Minute || ttl > MaxInviteTTL {
		return nil, store.Invalid("expiresIn", "invalid", "an invitation must last from 1 minute to 365 days")
	}
	code := random.Token(18)
	h := inviteHash(code)
	now := s.now().UTC()
	inv := Invite{ID: h[:12], CreatedBy: createdBy, CreatedAt: now, ExpiresAt: now.Add(ttl)}
	err := s.st.Update(func(tx *bolt.Tx) error {
		return store.PutJSON(tx.Bucket([]byte(bucketInvites)), []byte(h), inv)
	})
	if err != nil {
		return nil, err
	}
	return &NewInvite{Invite: inv, Code: code}, nil
}

// Invites lists the invitations, newest first.
func (s *Service) Invites() ([]Invite, error) {
	out := []Invite{}
	err := s.st.View(func(tx *bolt.Tx) error {
		return store.ForEachJSON(tx.Bucket([]byte(bucketInvites)), func(_ []byte, inv *Invite) error {
			out = append(out, *inv)
			return nil
		})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].CreatedAt.After(out[j].CreatedAt) })
	return out, err
}

// DeleteInvite withdraws an invitation by its id.
func (s *Service) DeleteInvite(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketInvites))
		if len(id) == 12 {
			if k, _ := b.Cursor().Seek([]byte(id)); k != nil && strings.HasPrefix(string(k), id) {
				return b.Delete(k)
			}
		}
		return fmt.Errorf("invitation %s: %w", id, store.ErrNotFound)
	})
}

// claimInvite marks an invitation used by email, or says why it cannot be.
// It is undone with releaseInvite when the account then cannot be created.
func (s *Service) claimInvite(code, email string) (string, error) {
	if strings.TrimSpace(code) == "" {
		return "", ErrInviteRequired
	}
	h := inviteHash(code)
	now := s.now().UTC()
	err := s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketInvites))
		var inv Invite
		if err := store.GetJSON(b, []byte(h), &inv); err != nil {
			return ErrInviteInvalid
		}
		if !inv.UsedAt.IsZero() || !now.Before(inv.ExpiresAt) {
			return ErrInviteInvalid
		}
		inv.UsedAt, inv.UsedBy = now, email
		return store.PutJSON(b, []byte(h), inv)
	})
	return h, err
}

func (s *Service) releaseInvite(h string) {
	_ = s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketInvites))
		var inv Invite
		if err := store.GetJSON(b, []byte(h), &inv); err != nil {
			return nil
		}
		inv.UsedAt, inv.UsedBy = time.Time{}, ""
		return store.PutJSON(b, []byte(h), inv)
	})
}

// ParseTTL reads a lifetime as Go writes durations ("36h", "90m") or in
// whole days ("7d").
func ParseTTL(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if d, ok := strings.CutSuffix(v, "d"); ok {
		n, err := strconv.Atoi(d)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%q is not a number of days", v)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration such as 7d or 36h", v)
	}
	return d, nil
}
