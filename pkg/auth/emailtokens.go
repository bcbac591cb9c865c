package auth

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/random"
	"github.com/devhub/devhub/pkg/store"
)

// Links mailed to prove an address: the verification of a registered
// account's e-mail, and the confirmation of a change of e-mail at the new
// address. Each is a random token kept only as its SHA-256, valid
// EmailTokenTTL and spent by its first use.

// auth.verify_email policies.
const (
	VerifyOff      = "off"
	VerifyOptional = "optional"
	VerifyRequired = "required"
)

// Purposes of an e-mail link.
const (
	PurposeVerify      = "verify"
	PurposeEmailChange = "email_change"
)

const (
	bucketEmailTokens = "auth_email_tokens" // sha256(token) → emailTokenRecord
	// EmailTokenTTL is how long a verification or e-mail change link works.
	EmailTokenTTL = 24 * time.Hour
	// VerifyMaxPerNetwork requests to send a verification link again per
	// VerifyNetworkWindow from one client network; more are refused (429)
	// whatever the address.
	VerifyMaxPerNetwork = 5
	VerifyNetworkWindow = 15 * time.Minute
	// VerifyMaxPerAccount verification links per VerifyAccountWindow are
	// mailed to one account (the one of its registration included);
	// further requests are answered the same and mail nothing.
	VerifyMaxPerAccount = 3
	VerifyAccountWindow = time.Hour
)

// ErrEmailUnverified refuses a sign-in (the password was right) of an
// account that has not yet verified its e-mail while auth.verify_email is
// required.
var ErrEmailUnverified = store.Refuse(store.KindForbidden,
	"this account's e-mail is not verified yet: open the link mailed to it, or ask for a new one")

// errEmailToken is the answer to a link that is unknown, spent or expired
// (one answer for all three).
var errEmailToken = store.Invalid("token", "invalid_token", "this link is invalid, used or expired")

type emailTokenRecord struct {
	UserID  uint64    `json:"userId"`
	Purpose string    `json:"purpose"`
	Email   string    `json:"email"`
	Expires time.Time `json:"expires"`
}

// VerifyEmail is the auth.verify_email policy in effect.
func (s *Service) VerifyEmail() string { return s.verifyEmail }

// EmailLink is a link to mail: its token, the account, and the address it
// goes to (the new one for a change of e-mail).
type EmailLink struct {
	Token   string
	Purpose string
	To      string
	User    User
	Lang    string
	Expires time.Time
}

// newEmailToken stores a token of purpose for rec, to address to. A new
// e-mail change link replaces the account's earlier ones: only the latest
// asked-for address can be confirmed.
func (s *Service) newEmailToken(tx *bolt.Tx, rec *userRecord, purpose, to string) (*EmailLink, error) {
	b := tx.Bucket([]byte(bucketEmailTokens))
	now := s.now()
	if err := sweepTokens(b, now, func(r emailTokenRecord) bool {
		return purpose == PurposeEmailChange && r.UserID == rec.ID && r.Purpose == PurposeEmailChange
	}); err != nil {
		return nil, err
	}
	token := random.Hex(32)
	exp := now.Add(EmailTokenTTL).UTC()
	if err := store.PutJSON(b, resetKey(token), emailTokenRecord{UserID: rec.ID, Purpose: purpose, Email: to, Expires: exp}); err != nil {
		return nil, err
	}
	u := rec.User
	u.EmailVerified = !rec.Unverified
	return &EmailLink{Token: token, Purpose: purpose, To: to, User: u, Lang: rec.Lang, Expires: exp}, nil
}

// A link's record (a password reset, an e-mail token) says until when the
// link works.
type expiring interface{ expiresAt() time.Time }

func (r emailTokenRecord) expiresAt() time.Time { return r.Expires }
func (r resetRecord) expiresAt() time.Time      { return r.Expires }

// sweepTokens deletes the records of b that are unreadable or expired at
// now (the zero time: none), and those drop picks (nil: none).
func sweepTokens[R expiring](b *bolt.Bucket, now time.Time, drop func(R) bool) error {
	var stale [][]byte
	err := b.ForEach(func(k, v []byte) error {
		var r R
		if json.Unmarshal(v, &r) != nil || !now.Before(r.expiresAt()) || (drop != nil && drop(r)) {
			stale = append(stale, append([]byte(nil), k...))
		}
		return nil
	})
	for _, k := range stale {
		if err == nil {
			err = b.Delete(k)
		}
	}
	return err
}

// VerificationLink makes the verification link of account id (just
// registered): nil when its address needs none (already verified). It
// counts against the account's VerifyMaxPerAccount.
func (s *Service) VerificationLink(ctx context.Context, id uint64) (*EmailLink, error) {
	return s.verificationLink(ctx, func(tx *bolt.Tx) (*userRecord, error) { return getByID(tx, id) })
}

// AllowVerifyRequest takes one "send the link again" request from c's
// network from its budget, or refuses (rate limited) without looking at
// any account.
func (s *Service) AllowVerifyRequest(c Client) error {
	if wait := s.verifyRequests.take(s.now(), networkKey(c.IP)); wait > 0 {
		return store.TooMany("too many requests for a verification link from this network; try again later", wait)
	}
	return nil
}

// ResendVerification makes a new verification link for the account of
// email. It returns nil (and no error) when there is no such account, its
// address is verified or it had VerifyMaxPerAccount links lately, so the
// caller answers the same in every case.
func (s *Service) ResendVerification(ctx context.Context, email string) (*EmailLink, error) {
	return s.verificationLink(ctx, func(tx *bolt.Tx) (*userRecord, error) { return getByEmail(tx, email) })
}

func (s *Service) verificationLink(ctx context.Context, get func(tx *bolt.Tx) (*userRecord, error)) (*EmailLink, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out *EmailLink
	err := s.st.Update(func(tx *bolt.Tx) error {
		rec, err := get(tx)
		if err != nil || !rec.Unverified {
			return nil
		}
		if wait := s.verifyPerAccount.take(s.now(), accountKey(rec.Email)); wait > 0 {
			return nil
		}
		out, err = s.newEmailToken(tx, rec, PurposeVerify, rec.Email)
		return err
	})
	return out, err
}

// EmailChangeLink makes the link that moves account id to the address
// next (checked by CheckNewEmail) once opened; lang, when set, becomes the
// account's letters' language.
func (s *Service) EmailChangeLink(ctx context.Context, id uint64, next, lang string) (*EmailLink, error) {
	next, err := s.CheckNewEmail(id, next)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out *EmailLink
	err = s.st.Update(func(tx *bolt.Tx) error {
		rec, err := getByID(tx, id)
		if err != nil {
			return err
		}
		if lang != "" && rec.Lang != lang {
			rec.Lang = lang
			if err := putUser(tx, rec); err != nil {
				return err
			}
		}
		out, err = s.newEmailToken(tx, rec, PurposeEmailChange, next)
		return err
	})
	return out, err
}

// EmailConfirmed is what opening a link did.
type EmailConfirmed struct {
	Purpose string
	// User is the account as it is now; OldEmail its address before a
	// change of e-mail.
	User     User
	OldEmail string
	Lang     string
}

// ConfirmEmail spends the token of a verification or e-mail change link
// and does what it was for: marks the address verified, or moves the
// account to the new address (verified, since the link reached it; the
// password reset links of the old one are spent). A token that is
// unknown, spent or expired changes nothing; one for an address that
// another account took meanwhile is spent and refused.
func (s *Service) ConfirmEmail(ctx context.Context, token string) (*EmailConfirmed, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if token == "" {
		return nil, store.Invalid("token", "required", "the link's token is required")
	}
	var out *EmailConfirmed
	var refusal error
	err := s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketEmailTokens))
		var r emailTokenRecord
		if err := store.GetJSON(b, resetKey(token), &r); err != nil {
			refusal = errEmailToken
			return nil
		}
		if err := b.Delete(resetKey(token)); err != nil {
			return err
		}
		rec, err := getByID(tx, r.UserID)
		if err != nil || !s.now().Before(r.Expires) {
			refusal = errEmailToken
			return nil
		}
		out = &EmailConfirmed{Purpose: r.Purpose, OldEmail: rec.Email, Lang: rec.Lang}
		switch r.Purpose {
		case PurposeVerify:
			// A link sent to an address the account no longer has proves
			// nothing about the current one.
			if rec.Email != r.Email {
				refusal = errEmailToken
				return nil
			}
		case PurposeEmailChange:
			emails := tx.Bucket([]byte(bucketEmails))
			if other := emails.Get([]byte(r.Email)); other != nil && store.Btoi(other) != rec.ID {
				refusal = store.Invalid("email", "taken", "another account uses this e-mail now")
				return nil
			}
			if err := emails.Delete([]byte(rec.Email)); err != nil {
				return err
			}
			if err := emails.Put([]byte(r.Email), store.Itob(rec.ID)); err != nil {
				return err
			}
			rec.Email = r.Email
			if err := dropResets(tx, rec.ID); err != nil {
				return err
			}
			// Verification links of the old address are spent with it.
			if err := sweepTokens(b, s.now(), func(o emailTokenRecord) bool { return o.UserID == rec.ID }); err != nil {
				return err
			}
		default:
			refusal = errEmailToken
			return nil
		}
		rec.Unverified = false
		rec.EmailVerified = true
		out.User = rec.User
		return putUser(tx, rec)
	})
	if err != nil {
		return nil, err
	}
	if refusal != nil {
		return nil, refusal
	}
	return out, nil
}

// Lang is the language of account id's letters ("" when none is known).
func (s *Service) Lang(id uint64) string {
	rec, err := s.record(id)
	if err != nil {
		return ""
	}
	return rec.Lang
}

// dropEmailChanges spends account id's pending change of e-mail: its
// password was reset or changed (whoever started the change may have been
// a thief the owner has just locked out) or its address was set another
// way (the link would move it to an address it no longer asks for).
func dropEmailChanges(tx *bolt.Tx, id uint64) error {
	b := tx.Bucket([]byte(bucketEmailTokens))
	if b == nil {
		return nil
	}
	return sweepTokens(b, time.Time{}, func(o emailTokenRecord) bool {
		return o.UserID == id && o.Purpose == PurposeEmailChange
	})
}

// dropEmailTokens forgets every link of account id (its deletion).
func dropEmailTokens(tx *bolt.Tx, id uint64) error {
	b := tx.Bucket([]byte(bucketEmailTokens))
	if b == nil {
		return errors.New("auth: no e-mail token bucket")
	}
	return sweepTokens(b, time.Time{}, func(o emailTokenRecord) bool { return o.UserID == id })
}
