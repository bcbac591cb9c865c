package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
)

// An account's own settings: its display name, its e-mail, its avatar, and
// the proof (password, and the second factor when on) that the person
// asking to change the e-mail or to delete the account is its holder.

// bucketAvatars holds each account's avatar (user id → JPEG bytes); the
// user record carries the avatar's URL, which names its version.
const bucketAvatars = "auth_avatars"

// ErrCodeRequired is a proof of an account with two-factor sign-in that
// came without a code.
var ErrCodeRequired = &store.ValidationError{Message: codeRequired, Fields: map[string]store.FieldError{"code": {Code: "required", Message: codeRequired}}}

const codeRequired = "this account has two-factor sign-in: a one-time or recovery code is required"

// AvatarURL is where the avatar of account id with content version v is
// served: the version in the URL lets it be cached for good.
func AvatarURL(id uint64, v string) string {
	return "/api/users/" + strconv.FormatUint(id, 10) + "/avatar?v=" + v
}

// SetName changes the display name of account id (the same rules as at
// registration) and returns the account.
func (s *Service) SetName(ctx context.Context, id uint64, name string) (*User, error) {
	name = strings.TrimSpace(name)
	var v store.Validator
	checkName(&v, "name", name)
	if err := v.Err(); err != nil {
		return nil, err
	}
	return s.updateUser(ctx, id, func(_ *bolt.Tx, rec *userRecord) error {
		rec.Name = name
		return nil
	})
}

// updateUser applies fn to account id's record in one write and returns
// the account as it is now.
func (s *Service) updateUser(ctx context.Context, id uint64, fn func(tx *bolt.Tx, rec *userRecord) error) (*User, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var u User
	err := s.st.Update(func(tx *bolt.Tx) error {
		rec, err := getByID(tx, id)
		if err != nil {
			return err
		}
		if err := fn(tx, rec); err != nil {
			return err
		}
		u = rec.User
		return putUser(tx, rec)
	})
	if err != nil {
		return nil, err
	}
	return &u, nil
}

// Proof is what the holder of an account gives before a change that would
// let someone who found a signed-in browser take the account or destroy
// it: the password, and a one-time or recovery code when two-factor
// sign-in is on. Field names the input field the password came in.
type Proof struct {
	Password string
	Code     string
	Field    string
}

// CheckProof verifies p for account id, counted by the same throttles as
// a sign-in (a wrong password or code is a failure of the account from
// this network). A wrong password is a *store.ValidationError of p.Field;
// a missing code ErrCodeRequired, a wrong one ErrInvalidCode; a used
// recovery code is spent.
func (s *Service) CheckProof(ctx context.Context, id uint64, p Proof, c Client) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	if p.Field == "" {
		p.Field = "password"
	}
	if p.Password == "" {
		return store.Invalid(p.Field, "required", "current password is required")
	}
	rec, err := s.record(id)
	if err != nil {
		return err
	}
	acct, network := accountKey(rec.Email), networkKey(c.IP)
	if err := s.startSignIn(acct, network); err != nil {
		return err
	}
	ok := false
	if len(p.Password) <= MaxPasswordBytes {
		ok, _, _ = s.verify(p.Password, rec.PasswordHash)
	}
	s.endSignIn(acct, network, ok)
	if !ok {
		return store.Invalid(p.Field, "wrong_password", "current password is incorrect")
	}
	if rec.TOTP == nil || !rec.TOTP.Confirmed {
		return nil
	}
	if strings.TrimSpace(p.Code) == "" {
		return ErrCodeRequired
	}
	if err := s.startCodeCheck(acct, network); err != nil {
		return err
	}
	defer func() { s.endCodeCheck(acct, network, err) }()
	return s.st.Update(func(tx *bolt.Tx) error {
		cur, err := getByID(tx, id)
		if err != nil {
			return err
		}
		if cur.TOTP == nil || !s.spendCode(cur.TOTP, p.Code) {
			return ErrInvalidCode
		}
		return putUser(tx, cur)
	})
}

func (s *Service) record(id uint64) (*userRecord, error) {
	var rec *userRecord
	err := s.st.View(func(tx *bolt.Tx) error {
		var err error
		rec, err = getByID(tx, id)
		return err
	})
	return rec, err
}

// CheckNewEmail validates email as account id's next address: well formed,
// different from the current one, and nobody else's. It returns it
// normalised.
func (s *Service) CheckNewEmail(id uint64, email string) (string, error) {
	email = NormalizeEmail(email)
	var v store.Validator
	checkEmail(&v, "email", email)
	if err := v.Err(); err != nil {
		return "", err
	}
	u, err := s.UserByEmail(email)
	switch {
	case err == nil && u.ID == id:
		return "", store.Invalid("email", "unchanged", "this is already the account's e-mail")
	case err == nil:
		return "", store.Invalid("email", "taken", "another account uses this e-mail")
	case !errors.Is(err, store.ErrNotFound):
		return "", err
	}
	return email, nil
}

// SetEmail moves account id to the address email (CheckNewEmail's rules,
// checked again inside the write). Its sessions stay: they name the
// account by id.
func (s *Service) SetEmail(ctx context.Context, id uint64, email string) (*User, error) {
	email, err := s.CheckNewEmail(id, email)
	if err != nil {
		return nil, err
	}
	return s.updateUser(ctx, id, func(tx *bolt.Tx, rec *userRecord) error {
		emails := tx.Bucket([]byte(bucketEmails))
		if emails.Get([]byte(email)) != nil {
			return store.Invalid("email", "taken", "another account uses this e-mail")
		}
		if err := emails.Delete([]byte(rec.Email)); err != nil {
			return err
		}
		rec.Email = email
		if err := dropResets(tx, rec.ID); err != nil {
			return err
		}
		if err := dropEmailChanges(tx, rec.ID); err != nil {
			return err
		}
		return emails.Put([]byte(email), store.Itob(rec.ID))
	})
}

// SetAvatar keeps jpeg as account id's avatar (already checked, cropped
// and scaled by the caller) and returns the account with its new URL.
func (s *Service) SetAvatar(ctx context.Context, id uint64, jpeg []byte) (*User, error) {
	sum := sha256.Sum256(jpeg)
	return s.updateUser(ctx, id, func(tx *bolt.Tx, rec *userRecord) error {
		b, err := tx.CreateBucketIfNotExists([]byte(bucketAvatars))
		if err != nil {
			return err
		}
		rec.AvatarURL = AvatarURL(rec.ID, hex.EncodeToString(sum[:6]))
		return b.Put(store.Itob(rec.ID), jpeg)
	})
}

// RemoveAvatar forgets account id's avatar.
func (s *Service) RemoveAvatar(ctx context.Context, id uint64) (*User, error) {
	return s.updateUser(ctx, id, func(tx *bolt.Tx, rec *userRecord) error {
		rec.AvatarURL = ""
		return deleteAvatar(tx, rec.ID)
	})
}

func deleteAvatar(tx *bolt.Tx, id uint64) error {
	if b := tx.Bucket([]byte(bucketAvatars)); b != nil {
		return b.Delete(store.Itob(id))
	}
	return nil
}

// Avatar is account id's avatar (JPEG); store.ErrNotFound when it has none.
func (s *Service) Avatar(id uint64) ([]byte, error) {
	var out []byte
	err := s.st.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket([]byte(bucketAvatars)); b != nil {
			out = append([]byte(nil), b.Get(store.Itob(id))...)
		}
		return nil
	})
	if err == nil && len(out) == 0 {
		return nil, store.ErrNotFound
	}
	return out, err
}
