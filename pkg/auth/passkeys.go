package auth

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/random"
	"github.com/devhub/devhub/pkg/internal/text"
	"github.com/devhub/devhub/pkg/store"
)

// Passkeys (WebAuthn, through go-webauthn): an account registers one or
// more discoverable credentials, named, listed and removable; a passkey
// signs in on its own (the browser offers the accounts it holds) or stands
// in for the one-time code after a password. Each ceremony's challenge is
// kept server-side, good for one use within CeremonyTTL, so a replayed
// assertion finds nothing to answer; a signature counter that goes
// backwards (a cloned authenticator) is refused.

// CeremonyTTL bounds how long a begun ceremony may be finished.
const CeremonyTTL = 5 * time.Minute

// maxCeremonies bounds the ceremonies waiting at once (anyone may begin a
// passkey sign-in); the oldest give way.
const maxCeremonies = 4096

// MaxPasskeys is how many passkeys one account may hold.
const MaxPasskeys = 20

// Passkey errors the HTTP layer maps to statuses.
var (
	ErrPasskeyFailed   = errors.New("the passkey could not be verified")
	ErrCeremonyUnknown = store.Refuse(store.KindInvalid, "the passkey request expired or was already used; start again")
	ErrPasskeyLimit    = store.Refuse(store.KindConflict, fmt.Sprintf("an account holds at most %d passkeys", MaxPasskeys))
	// ErrPasskeyHost: WebAuthn binds a passkey to a domain, and browsers
	// refuse an IP address in its place.
	ErrPasskeyHost = store.Refuse(store.KindInvalid, "passkeys need the site's name, not an IP address: open the site by its host name (or set server.public_url)")
)

// RelyingParty is who the passkeys belong to: the site's host (RP ID) and
// its origin, from server.public_url (or, without one, the request's host).
type RelyingParty struct {
	ID     string
	Origin string
}

func (rp RelyingParty) webauthn() (*webauthn.WebAuthn, error) {
	if _, err := netip.ParseAddr(strings.Trim(rp.ID, "[]")); err == nil {
		return nil, ErrPasskeyHost
	}
	return webauthn.New(&webauthn.Config{RPID: rp.ID, RPDisplayName: "devhub", RPOrigins: []string{rp.Origin}})
}

// storedPasskey is one credential of an account.
type storedPasskey struct {
	ID         string              `json:"id"` // base64url of the credential id
	Name       string              `json:"name"`
	Credential webauthn.Credential `json:"credential"`
	CreatedAt  time.Time           `json:"createdAt"`
	LastUsedAt time.Time           `json:"lastUsedAt,omitzero"`
}

// Passkey is a passkey as its owner sees it.
type Passkey struct {
	ID         string    `json:"id"`
	Name       string    `json:"name"`
	CreatedAt  time.Time `json:"createdAt"`
	LastUsedAt time.Time `json:"lastUsedAt,omitzero"`
}

// webauthnUser adapts a user record to go-webauthn.
type webauthnUser struct{ rec *userRecord }

func (u webauthnUser) WebAuthnID() []byte          { return u.rec.WebAuthnID }
func (u webauthnUser) WebAuthnName() string        { return u.rec.Email }
func (u webauthnUser) WebAuthnDisplayName() string { return u.rec.Name }
func (u webauthnUser) WebAuthnCredentials() []webauthn.Credential {
	out := make([]webauthn.Credential, 0, len(u.rec.Passkeys))
	for _, p := range u.rec.Passkeys {
		out = append(out, p.Credential)
	}
	return out
}

// ceremony is a begun registration or sign-in waiting for its answer.
type ceremony struct {
	data    webauthn.SessionData
	userID  uint64 // 0 for a discoverable sign-in
	purpose string
	expires time.Time
}

type ceremonies struct {
	mu    sync.Mutex
	byID  map[string]ceremony
	order []string
}

func (c *ceremonies) put(now time.Time, cer ceremony) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byID == nil {
		c.byID = map[string]ceremony{}
	}
	for len(c.order) > 0 && (len(c.order) >= maxCeremonies || now.After(c.byID[c.order[0]].expires)) {
		delete(c.byID, c.order[0])
		c.order = c.order[1:]
	}
	id := random.Token(18)
	c.byID[id] = cer
	c.order = append(c.order, id)
	return id
}

// take removes and returns a ceremony: each is answered once.
func (c *ceremonies) take(now time.Time, id, purpose string) (ceremony, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cer, ok := c.byID[id]
	if ok {
		delete(c.byID, id)
	}
	if !ok || cer.purpose != purpose || now.After(cer.expires) {
		return ceremony{}, false
	}
	return cer, true
}

// Ceremony is what the browser needs to run navigator.credentials.create or
// .get: the options, and the id to send back with the answer.
type Ceremony struct {
	CeremonyID string `json:"ceremonyId"`
	Options    any    `json:"options"`
}

// BeginPasskeyRegistration starts adding a passkey to the caller's account.
func (s *Service) BeginPasskeyRegistration(ctx context.Context, p *Principal, rp RelyingParty) (*Ceremony, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	wa, err := rp.webauthn()
	if err != nil {
		return nil, err
	}
	var creation *protocol.CredentialCreation
	var data *webauthn.SessionData
	err = s.st.Update(func(tx *bolt.Tx) error {
		rec, err := getByID(tx, p.User.ID)
		if err != nil {
			return err
		}
		if len(rec.Passkeys) >= MaxPasskeys {
			return ErrPasskeyLimit
		}
		if len(rec.WebAuthnID) == 0 {
			rec.WebAuthnID = make([]byte, 32)
			if _, err := rand.Read(rec.WebAuthnID); err != nil {
				return err
			}
			if err := putUser(tx, rec); err != nil {
				return err
			}
		}
		u := webauthnUser{rec}
		exclude := make([]protocol.CredentialDescriptor, 0, len(rec.Passkeys))
		for _, c := range u.WebAuthnCredentials() {
			exclude = append(exclude, c.Descriptor())
		}
		creation, data, err = wa.BeginRegistration(u,
			webauthn.WithResidentKeyRequirement(protocol.ResidentKeyRequirementRequired),
			webauthn.WithExclusions(exclude))
		return err
	})
	if err != nil {
		return nil, err
	}
	id := s.ceremonies.put(s.now(), ceremony{data: *data, userID: p.User.ID, purpose: "register", expires: s.now().Add(CeremonyTTL)})
	return &Ceremony{CeremonyID: id, Options: creation}, nil
}

// FinishPasskeyRegistration verifies the browser's answer and keeps the
// passkey under name.
func (s *Service) FinishPasskeyRegistration(ctx context.Context, p *Principal, rp RelyingParty, ceremonyID, name string, response []byte) (*Passkey, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	name = text.Truncate(strings.TrimSpace(oneLineName(name)), 64)
	if name == "" {
		name = "Passkey"
	}
	cer, ok := s.ceremonies.take(s.now(), ceremonyID, "register")
	if !ok || cer.userID != p.User.ID {
		return nil, ErrCeremonyUnknown
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(response)
	if err != nil {
		return nil, fmt.Errorf("%w: %s", ErrPasskeyFailed, protocolDetail(err))
	}
	wa, err := rp.webauthn()
	if err != nil {
		return nil, err
	}
	var out Passkey
	err = s.st.Update(func(tx *bolt.Tx) error {
		rec, err := getByID(tx, p.User.ID)
		if err != nil {
			return err
		}
		cred, err := wa.CreateCredential(webauthnUser{rec}, cer.data, parsed)
		if err != nil {
			return fmt.Errorf("%w: %s", ErrPasskeyFailed, protocolDetail(err))
		}
		if len(rec.Passkeys) >= MaxPasskeys {
			return ErrPasskeyLimit
		}
		now := s.now().UTC()
		sp := storedPasskey{ID: base64.RawURLEncoding.EncodeToString(cred.ID), Name: name, Credential: *cred, CreatedAt: now}
		rec.Passkeys = append(rec.Passkeys, sp)
		out = Passkey{ID: sp.ID, Name: sp.Name, CreatedAt: sp.CreatedAt}
		return putUser(tx, rec)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// Passkeys lists the caller's passkeys.
func (s *Service) Passkeys(userID uint64) ([]Passkey, error) {
	out := []Passkey{}
	err := s.st.View(func(tx *bolt.Tx) error {
		rec, err := getByID(tx, userID)
		if err != nil {
			return err
		}
		for _, p := range rec.Passkeys {
			out = append(out, Passkey{ID: p.ID, Name: p.Name, CreatedAt: p.CreatedAt, LastUsedAt: p.LastUsedAt})
		}
		return nil
	})
	return out, err
}

// DeletePasskey removes one of the caller's passkeys.
func (s *Service) DeletePasskey(ctx context.Context, userID uint64, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.st.Update(func(tx *bolt.Tx) error {
		rec, err := getByID(tx, userID)
		if err != nil {
			return err
		}
		for i, p := range rec.Passkeys {
			if p.ID == id {
				rec.Passkeys = append(rec.Passkeys[:i:i], rec.Passkeys[i+1:]...)
				return putUser(tx, rec)
			}
		}
		return fmt.Errorf("passkey %s: %w", id, store.ErrNotFound)
	})
}

// BeginPasskeyLogin starts a sign-in with a passkey alone: the browser
// offers the accounts it holds passkeys for on this site.
func (s *Service) BeginPasskeyLogin(ctx context.Context, rp RelyingParty) (*Ceremony, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	wa, err := rp.webauthn()
	if err != nil {
		return nil, err
	}
	assertion, data, err := wa.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.VerificationPreferred))
	if err != nil {
		return nil, err
	}
	id := s.ceremonies.put(s.now(), ceremony{data: *data, purpose: "login", expires: s.now().Add(CeremonyTTL)})
	return &Ceremony{CeremonyID: id, Options: assertion}, nil
}

// FinishPasskeyLogin verifies a passkey sign-in and starts a session.
func (s *Service) FinishPasskeyLogin(ctx context.Context, rp RelyingParty, ceremonyID string, response []byte, c Client) (*AuthResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cer, ok := s.ceremonies.take(s.now(), ceremonyID, "login")
	if !ok {
		return nil, ErrCeremonyUnknown
	}
	return s.finishAssertion(rp, cer, nil, response, c)
}

// BeginPasskeySecondFactor starts the passkey step of a password sign-in
// (instead of a one-time code): only the account's own passkeys answer.
func (s *Service) BeginPasskeySecondFactor(ctx context.Context, rp RelyingParty, mfaToken string) (*Ceremony, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	mc, err := s.parseMFAToken(mfaToken)
	if err != nil {
		return nil, ErrInvalidToken
	}
	id := mc.id
	var rec *userRecord
	if err := s.st.View(func(tx *bolt.Tx) error {
		r, err := getByID(tx, id)
		if err != nil || r.TokenVersion != mc.ver || mfaTokenSpent(tx, mc.jti) {
			return ErrInvalidToken
		}
		rec = r
		return nil
	}); err != nil {
		return nil, ErrInvalidToken
	}
	if len(rec.Passkeys) == 0 {
		return nil, ErrPasskeyFailed
	}
	wa, err := rp.webauthn()
	if err != nil {
		return nil, err
	}
	assertion, data, err := wa.BeginLogin(webauthnUser{rec})
	if err != nil {
		return nil, err
	}
	cid := s.ceremonies.put(s.now(), ceremony{data: *data, userID: id, purpose: "second-factor", expires: s.now().Add(CeremonyTTL)})
	return &Ceremony{CeremonyID: cid, Options: assertion}, nil
}

// FinishPasskeySecondFactor verifies the passkey step and starts the
// session. Like a code, the passkey spends the token between password and
// second factor: it starts one session only.
func (s *Service) FinishPasskeySecondFactor(ctx context.Context, rp RelyingParty, mfaToken, ceremonyID string, response []byte, c Client) (*AuthResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	mc, err := s.parseMFAToken(mfaToken)
	if err != nil {
		return nil, ErrInvalidToken
	}
	cer, ok := s.ceremonies.take(s.now(), ceremonyID, "second-factor")
	if !ok || cer.userID != mc.id {
		return nil, ErrCeremonyUnknown
	}
	return s.finishAssertion(rp, cer, mc, response, c)
}

// finishAssertion checks a passkey assertion for a ceremony (of the account
// of the second-step token mc, or of whichever account the passkey names
// when mc is nil), records its use, spends mc, and starts a session.
func (s *Service) finishAssertion(rp RelyingParty, cer ceremony, mc *mfaToken, response []byte, c Client) (*AuthResult, error) {
	parsed, err := protocol.ParseCredentialRequestResponseBytes(response)
	if err != nil {
		return nil, ErrPasskeyFailed
	}
	wa, err := rp.webauthn()
	if err != nil {
		return nil, err
	}
	var signedIn uint64
	err = s.st.Update(func(tx *bolt.Tx) error {
		var rec *userRecord
		var cred *webauthn.Credential
		if mc != nil {
			r, err := getByID(tx, mc.id)
			if err != nil {
				return ErrPasskeyFailed
			}
			if r.TokenVersion != mc.ver || mfaTokenSpent(tx, mc.jti) {
				return ErrInvalidToken
			}
			rec = r
			if cred, err = wa.ValidateLogin(webauthnUser{rec}, cer.data, parsed); err != nil {
				return fmt.Errorf("%w: %s", ErrPasskeyFailed, protocolDetail(err))
			}
		} else {
			handler := func(rawID, userHandle []byte) (webauthn.User, error) {
				r, err := userByHandle(tx, userHandle)
				if err != nil {
					return nil, err
				}
				rec = r
				return webauthnUser{r}, nil
			}
			if _, cred, err = wa.ValidatePasskeyLogin(handler, cer.data, parsed); err != nil {
				return fmt.Errorf("%w: %s", ErrPasskeyFailed, protocolDetail(err))
			}
		}
		// A counter that went backwards means a copy of the key is in use.
		if cred.Authenticator.CloneWarning {
			return fmt.Errorf("%w: the signature counter went backwards (a cloned authenticator?)", ErrPasskeyFailed)
		}
		id := base64.RawURLEncoding.EncodeToString(cred.ID)
		for i := range rec.Passkeys {
			if rec.Passkeys[i].ID == id {
				rec.Passkeys[i].Credential.Authenticator.SignCount = cred.Authenticator.SignCount
				rec.Passkeys[i].Credential.Flags = cred.Flags
				rec.Passkeys[i].LastUsedAt = s.now().UTC()
			}
		}
		if mc != nil {
			if err := s.spendMFAToken(tx, mc); err != nil {
				return err
			}
		}
		signedIn = rec.ID
		return putUser(tx, rec)
	})
	if err != nil {
		return nil, err
	}
	return s.startSession(signedIn, c)
}

// userByHandle finds the account a discoverable passkey names.
func userByHandle(tx *bolt.Tx, handle []byte) (*userRecord, error) {
	var found *userRecord
	err := store.ForEachJSON(tx.Bucket([]byte(bucketUsers)), func(_ []byte, rec *userRecord) error {
		if found == nil && len(rec.WebAuthnID) > 0 && bytes.Equal(rec.WebAuthnID, handle) {
			found = rec
		}
		return nil
	})
	if err == nil && found == nil {
		err = store.ErrNotFound
	}
	return found, err
}

// oneLineName drops control and invisible characters from a passkey's name.
func oneLineName(s string) string {
	var b []rune
	for _, r := range s {
		if r >= 0x20 && r != 0x7f && !invisibleRune(r) {
			b = append(b, r)
		}
	}
	return string(b)
}

// protocolDetail is go-webauthn's explanation of a failed ceremony, for
// the log (the client is told only that the passkey failed).
func protocolDetail(err error) string {
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.DevInfo != "" {
		return pe.Details + ": " + pe.DevInfo
	}
	return err.Error()
}
