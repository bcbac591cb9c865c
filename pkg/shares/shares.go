// Package shares keeps the file cloud's share links: an unguessable token
// that hands one file to whoever holds the link — also a private file,
// which is the point of a link — until it expires, is used up or is
// revoked. A link may carry a password (hashed and checked through the
// Secrets the CLI wires in: argon2id and sign-in throttling, pkg/auth) and
// a maximum number of downloads.
//
// The package knows files only by id and nothing about HTTP: the server
// decides what counts as a download (not a HEAD request, not a link-preview
// bot, not a second request of the same visit) and calls Use for those.
package shares

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/netip"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/random"
	"github.com/devhub/devhub/pkg/store"
)

const bucketName = "shares"

// tokenBytes is a link token's randomness: 144 bits (at least 128 asked),
// 24 base64url characters.
const tokenBytes = 18

// newToken draws a link token that does not begin with '-'. The token is
// the argument of `devhub file unshare`, where a leading '-' is read as a
// flag ("unknown shorthand flag"): one link in 64 could not be revoked
// without a `--` before it. Redrawing keeps the other 63 first characters
// equally likely (143.9 bits).
func newToken() string {
	for {
		if t := random.Token(tokenBytes); t[0] != '-' {
			return t
		}
	}
}

// Link lifetimes: the default when none is asked, and the longest allowed.
const (
	DefaultTTL = 7 * 24 * time.Hour
	MaxTTL     = 365 * 24 * time.Hour
)

// MaxDownloadsLimit bounds maxDownloads (a typo of many zeros is an error,
// not a link that never runs out).
const MaxDownloadsLimit = 1_000_000

// Errors the HTTP layer and the CLI map to answers.
var (
	// ErrGone means the link expired, was used up or was revoked (410).
	ErrGone = errors.New("this share link has expired, was used up or was revoked")
	// ErrWrongPassword means the password did not match (401).
	ErrWrongPassword = errors.New("wrong password for this share link")
	// ErrLocked means the link has a password and it was not given (401).
	ErrLocked = errors.New("this share link needs its password")
)

// States of a link.
const (
	StateActive  = "active"
	StateExpired = "expired"
	StateUsedUp  = "used_up"
	StateRevoked = "revoked"
)

// Share is one link as stored.
type Share struct {
	Token     string    `json:"token"`
	FileID    uint64    `json:"file_id"`
	CreatedBy uint64    `json:"created_by"` // account id; 0 is the owner on the CLI
	Creator   string    `json:"creator"`    // e-mail or "owner (CLI)", for lists and the audit log
	CreatedAt time.Time `json:"created_at"`
	ExpiresAt time.Time `json:"expires_at"`
	// PasswordHash is empty for a link without a password.
	PasswordHash string `json:"password_hash,omitempty"`
	// MaxDownloads is 0 for no limit.
	MaxDownloads int        `json:"max_downloads,omitempty"`
	Downloads    int        `json:"downloads"`
	RevokedAt    *time.Time `json:"revoked_at,omitempty"`
}

// HasPassword reports whether the link asks for a password.
func (s Share) HasPassword() bool { return s.PasswordHash != "" }

// State is the link's state at now.
func (s Share) State(now time.Time) string {
	switch {
	case s.RevokedAt != nil:
		return StateRevoked
	case !now.Before(s.ExpiresAt):
		return StateExpired
	case s.MaxDownloads > 0 && s.Downloads >= s.MaxDownloads:
		return StateUsedUp
	}
	return StateActive
}

// Secrets hashes and checks link passwords (pkg/auth's Service).
type Secrets interface {
	HashSecret(field, secret string) (string, error)
	// CheckSecret is true for the right secret; an error means it was not
	// checked (throttled) and is passed on.
	CheckSecret(key, secret, encoded string, ip netip.Addr) (bool, error)
}

// Service stores and checks share links.
type Service struct {
	st      *store.Store
	secrets Secrets
	now     func() time.Time
	// key signs the short-lived grants (unlocked, counted) a browser keeps
	// in cookies; a new key on each start only means signing in to a link
	// again after a restart.
	key []byte
}

// New opens the shares bucket. now may be nil (time.Now).
func New(st *store.Store, secrets Secrets, now func() time.Time) (*Service, error) {
	if now == nil {
		now = time.Now
	}
	if err := st.EnsureBuckets(bucketName); err != nil {
		return nil, err
	}
	return &Service{st: st, secrets: secrets, now: now, key: random.Bytes(32)}, nil
}

// Now is the service's clock (tests move it).
func (s *Service) Now() time.Time { return s.now() }

var tokenRE = regexp.MustCompile(`^[A-Za-z0-9_-]{20,64}$`)

// ValidToken reports whether t has a token's shape; anything else is never
// looked up.
func ValidToken(t string) bool { return tokenRE.MatchString(t) }

// NewShare is the input of Create.
type NewShare struct {
	FileID    uint64
	CreatedBy uint64
	Creator   string
	// TTL is the link's lifetime: 0 means DefaultTTL.
	TTL          time.Duration
	Password     string
	MaxDownloads int
}

// Create makes a link. Like every write here it gives up once ctx is done,
// before it hashes a password or opens a transaction.
func (s *Service) Create(ctx context.Context, in NewShare) (*Share, error) {
	var v store.Validator
	switch {
	case in.TTL < 0:
		v.Add("expiresIn", "invalid", "expiresIn must be positive")
	case in.TTL > MaxTTL:
		v.Add("expiresIn", "too_long", "expiresIn must be at most 365 days")
	}
	if in.MaxDownloads < 0 || in.MaxDownloads > MaxDownloadsLimit {
		v.Add("maxDownloads", "invalid", fmt.Sprintf("maxDownloads must be between 1 and %d", MaxDownloadsLimit))
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ttl := in.TTL
	if ttl == 0 {
		ttl = DefaultTTL
	}
	now := s.now().UTC()
	sh := Share{Token: newToken(), FileID: in.FileID, CreatedBy: in.CreatedBy, Creator: in.Creator,
		CreatedAt: now, ExpiresAt: now.Add(ttl), MaxDownloads: in.MaxDownloads}
	if in.Password != "" {
		h, err := s.secrets.HashSecret("password", in.Password)
		if err != nil {
			return nil, err
		}
		sh.PasswordHash = h
	}
	err := s.st.Update(func(tx *bolt.Tx) error {
		return store.PutJSON(tx.Bucket([]byte(bucketName)), []byte(sh.Token), &sh)
	})
	if err != nil {
		return nil, err
	}
	return &sh, nil
}

// Get returns a link in any state, or store.ErrNotFound.
func (s *Service) Get(token string) (*Share, error) {
	if !ValidToken(token) {
		return nil, fmt.Errorf("share link: %w", store.ErrNotFound)
	}
	var sh Share
	err := s.st.View(func(tx *bolt.Tx) error {
		return store.GetJSON(tx.Bucket([]byte(bucketName)), []byte(token), &sh)
	})
	if err != nil {
		return nil, fmt.Errorf("share link: %w", err)
	}
	return &sh, nil
}

// Active returns a link that may be used now, or ErrGone / store.ErrNotFound.
func (s *Service) Active(token string) (*Share, error) {
	sh, err := s.Get(token)
	if err != nil {
		return nil, err
	}
	if sh.State(s.now()) != StateActive {
		return sh, ErrGone
	}
	return sh, nil
}

// Use counts one download of an active link; the link that has just been
// used up is returned too. ErrGone when it was no longer active.
func (s *Service) Use(ctx context.Context, token string) (*Share, error) {
	return s.change(ctx, token, func(sh *Share) error {
		if sh.State(s.now()) != StateActive {
			return ErrGone
		}
		sh.Downloads++
		return nil
	})
}

// Revoke ends a link for good (it stays listed, as revoked).
func (s *Service) Revoke(ctx context.Context, token string) (*Share, error) {
	if !ValidToken(token) {
		return nil, fmt.Errorf("share link: %w", store.ErrNotFound)
	}
	return s.change(ctx, token, func(sh *Share) error {
		if sh.RevokedAt == nil {
			now := s.now().UTC()
			sh.RevokedAt = &now
		}
		return nil
	})
}

// change applies fn to the link of token and stores it, in one write; an
// error of fn leaves the link as it was. A ctx that is done stops it first.
func (s *Service) change(ctx context.Context, token string, fn func(*Share) error) (*Share, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var sh Share
	err := s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketName))
		if err := store.GetJSON(b, []byte(token), &sh); err != nil {
			return fmt.Errorf("share link: %w", err)
		}
		if err := fn(&sh); err != nil {
			return err
		}
		return store.PutJSON(b, []byte(token), &sh)
	})
	if err != nil {
		return nil, err
	}
	return &sh, nil
}

// Filter selects links for List.
type Filter struct {
	FileID    uint64 // 0: any file
	CreatedBy *uint64
}

// List returns the links that match f, newest first.
func (s *Service) List(f Filter) ([]Share, error) {
	out := []Share{}
	err := s.st.View(func(tx *bolt.Tx) error {
		return store.ForEachJSON(tx.Bucket([]byte(bucketName)), func(_ []byte, sh *Share) error {
			if f.FileID != 0 && sh.FileID != f.FileID {
				return nil
			}
			if f.CreatedBy != nil && sh.CreatedBy != *f.CreatedBy {
				return nil
			}
			out = append(out, *sh)
			return nil
		})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].CreatedAt.After(out[j].CreatedAt) })
	return out, err
}

// Unlock checks a link's password for a client at ip: nil when right,
// ErrWrongPassword when wrong, ErrGone for a link no longer active, or the
// throttle's error (pkg/auth's *ThrottledError) after too many wrong
// guesses. A link without a password is always unlocked.
func (s *Service) Unlock(token, password string, ip netip.Addr) (*Share, error) {
	sh, err := s.Active(token)
	if err != nil {
		return sh, err
	}
	if !sh.HasPassword() {
		return sh, nil
	}
	ok, err := s.secrets.CheckSecret("share:"+token, password, sh.PasswordHash, ip)
	if err != nil {
		return sh, err
	}
	if !ok {
		return sh, ErrWrongPassword
	}
	return sh, nil
}

// Grant kinds: what a browser has already done with a link.
const (
	GrantUnlocked = "unlocked" // gave the password
	GrantCounted  = "counted"  // its download was counted (this visit's further requests are not)
)

// Grant is a signed, short-lived proof that the holder did kind with link
// token, valid until exp: "<unix exp>.<mac>".
func (s *Service) Grant(token, kind string, exp time.Time) string {
	e := strconv.FormatInt(exp.Unix(), 10)
	return e + "." + s.mac(token, kind, e)
}

// CheckGrant reports whether g is an unexpired Grant of kind for token.
func (s *Service) CheckGrant(token, kind, g string) bool {
	e, mac, ok := strings.Cut(g, ".")
	if !ok {
		return false
	}
	n, err := strconv.ParseInt(e, 10, 64)
	if err != nil || !s.now().Before(time.Unix(n, 0)) {
		return false
	}
	return hmac.Equal([]byte(mac), []byte(s.mac(token, kind, e)))
}

func (s *Service) mac(token, kind, exp string) string {
	h := hmac.New(sha256.New, s.key)
	h.Write([]byte(token + "\x00" + kind + "\x00" + exp))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}

// Link is a share link as the people who may manage it see it (the API's
// ShareLink, the CLI's --json): one type, so the two cannot drift apart.
type Link struct {
	Token        string     `json:"token"`
	URL          string     `json:"url"`
	FileID       uint64     `json:"fileId"`
	FileName     string     `json:"fileName"`
	Creator      string     `json:"creator"`
	CreatedAt    time.Time  `json:"createdAt"`
	ExpiresAt    time.Time  `json:"expiresAt"`
	MaxDownloads *int       `json:"maxDownloads"` // null: no limit
	Downloads    int        `json:"downloads"`
	HasPassword  bool       `json:"hasPassword"`
	State        string     `json:"state"`
	RevokedAt    *time.Time `json:"revokedAt,omitempty"`
}

// Link is sh as a Link at now, reachable under base (a site's root URL,
// or "" for a path) and naming its file.
func (sh Share) Link(base, fileName string, now time.Time) Link {
	out := Link{Token: sh.Token, URL: strings.TrimRight(base, "/") + "/s/" + sh.Token, FileID: sh.FileID, FileName: fileName,
		Creator: sh.Creator, CreatedAt: sh.CreatedAt, ExpiresAt: sh.ExpiresAt, Downloads: sh.Downloads,
		HasPassword: sh.HasPassword(), State: sh.State(now), RevokedAt: sh.RevokedAt}
	if sh.MaxDownloads > 0 {
		n := sh.MaxDownloads
		out.MaxDownloads = &n
	}
	return out
}
