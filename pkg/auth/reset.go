package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/random"
	"github.com/devhub/devhub/pkg/store"
)

// Password reset by e-mail: a random token, kept only as its SHA-256, valid
// ResetTTL and spent by its first use.
const (
	bucketResets = "auth_password_resets" // sha256(token) → resetRecord
	// ResetTTL is how long a reset link works.
	ResetTTL = time.Hour
	// ResetMaxPerNetwork reset requests per ResetNetworkWindow from one
	// client network; more are refused (429) whatever the address.
	ResetMaxPerNetwork = 5
	ResetNetworkWindow = 15 * time.Minute
	// ResetMaxPerAccount links per ResetAccountWindow are mailed to one
	// account; further requests are answered the same and mail nothing.
	ResetMaxPerAccount = 3
	ResetAccountWindow = time.Hour
)

type resetRecord struct {
	UserID  uint64    `json:"userId"`
	Expires time.Time `json:"expires"`
}

func resetKey(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return []byte(hex.EncodeToString(h[:]))
}

// AllowResetRequest takes one reset request from c's network from its
// budget, or refuses (rate limited) without looking at any account.
func (s *Service) AllowResetRequest(c Client) error {
	if wait := s.resetRequests.take(s.now(), networkKey(c.IP)); wait > 0 {
		return &store.Refusal{Kind: store.KindRateLimited, RetryAfter: wait,
			Message: "too many password reset requests from this network; try again later"}
	}
	return nil
}

// ResetRequest is a reset link to mail: its token and the account.
type ResetRequest struct {
	Token   string
	User    User
	Expires time.Time
}

// CreatePasswordReset makes a reset token for the account of email. It
// returns nil (and no error) when there is no such account or the account
// had ResetMaxPerAccount links lately, so the caller answers the same in
// every case. Expired tokens are swept on the way.
func (s *Service) CreatePasswordReset(ctx context.Context, email string) (*ResetRequest, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	email = NormalizeEmail(email)
	token := random.Hex(32)
	now := s.now()
	var out *ResetRequest
	err := s.st.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte(bucketResets))
		if err != nil {
			return err
		}
		if err := sweepTokens[resetRecord](b, now, nil); err != nil {
			return err
		}
		rec, err := getByEmail(tx, email)
		if err != nil {
			return nil // no account: nothing to mail
		}
		if wait := s.resetPerAccount.take(now, accountKey(email)); wait > 0 {
			return nil
		}
		exp := now.Add(ResetTTL).UTC()
		if err := store.PutJSON(b, resetKey(token), resetRecord{UserID: rec.ID, Expires: exp}); err != nil {
			return err
		}
		out = &ResetRequest{Token: token, User: rec.User, Expires: exp}
		return nil
	})
	return out, err
}

// errResetToken is the answer to a reset token that is unknown, spent or
// expired (one answer for all three).
var errResetToken = store.Invalid("token", "invalid_token", "this reset link is invalid, used or expired; ask for a new one")

// ResetPassword sets a new password with a reset token: the token is spent,
// every other reset token of the account too, and every session of the
// account ends. A wrong, used or expired token changes nothing.
func (s *Service) ResetPassword(ctx context.Context, token, newPassword string, c Client) (*User, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var v store.Validator
	if token == "" {
		v.Add("token", "required", "the reset token is required")
	}
	checkPassword(&v, "newPassword", newPassword)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if wait := s.signIns.take(s.now(), networkKey(c.IP)); wait > 0 {
		return nil, &store.Refusal{Kind: store.KindRateLimited, RetryAfter: wait,
			Message: "too many password attempts from this network; try again later"}
	}
	// Known tokens only are worth an argon2id run.
	var known bool
	s.st.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket([]byte(bucketResets)); b != nil {
			known = b.Get(resetKey(token)) != nil
		}
		return nil
	})
	if !known {
		return nil, errResetToken
	}
	hash, err := s.hash(newPassword)
	if err != nil {
		return nil, err
	}
	var u User
	err = s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketResets))
		if b == nil {
			return errResetToken
		}
		var r resetRecord
		if err := store.GetJSON(b, resetKey(token), &r); err != nil {
			return errResetToken
		}
		if err := b.Delete(resetKey(token)); err != nil {
			return err
		}
		if !s.now().Before(r.Expires) {
			return errResetToken
		}
		rec, err := getByID(tx, r.UserID)
		if err != nil {
			return errResetToken
		}
		if err := dropResets(tx, rec.ID); err != nil {
			return err
		}
		if err := dropEmailChanges(tx, rec.ID); err != nil {
			return err
		}
		rec.PasswordHash = hash
		u = rec.User
		return reissue(tx, rec)
	})
	if err != nil {
		return nil, err
	}
	return &u, nil
}

// dropResets spends every password-reset link of account id: after a reset
// (the others of the same account) and after a change of e-mail (a link
// sent to the old address must not outlive it).
func dropResets(tx *bolt.Tx, id uint64) error {
	b := tx.Bucket([]byte(bucketResets))
	if b == nil {
		return nil
	}
	var keys [][]byte
	b.ForEach(func(k, v []byte) error {
		var o resetRecord
		if json.Unmarshal(v, &o) == nil && o.UserID == id {
			keys = append(keys, append([]byte(nil), k...))
		}
		return nil
	})
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}
