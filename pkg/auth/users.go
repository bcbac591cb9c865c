package auth

import (
	"context"
	"fmt"
	"net/mail"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
)

// Input limits. Passwords are capped well below the HTTP body limit so the
// cost of one hash stays bounded no matter how a password arrives.
const (
	MinPasswordChars = 8
	MaxPasswordBytes = 1024
	MaxNameChars     = 100
	MaxEmailBytes    = 254
)

// userRecord is the stored form of a user.
type userRecord struct {
	User
	PasswordHash string `json:"passwordHash"`
	// TokenVersion is copied into every access token; bumping it makes all
	// of the user's outstanding access tokens invalid at once (password
	// change, role change, "log out everywhere").
	TokenVersion uint64 `json:"tokenVersion"`
	// TOTP is the authenticator for two-factor sign-in (totp.go).
	TOTP *totpState `json:"totp,omitempty"`
	// WebAuthnID is the account's user handle for passkeys (random, made
	// with the first passkey) and Passkeys its credentials (passkeys.go).
	WebAuthnID []byte          `json:"webauthnId,omitempty"`
	Passkeys   []storedPasskey `json:"passkeys,omitempty"`
	// Unverified marks an account registered while auth.verify_email was
	// on whose address has not yet been proven by its link; every other
	// account (made by the owner or an admin, or before verification was
	// on) counts as verified. User.EmailVerified is read from it.
	Unverified bool `json:"unverified,omitempty"`
	// Lang is the language letters to the account are written in (the one
	// its holder last used for a request that mails them).
	Lang string `json:"lang,omitempty"`
}

// NormalizeEmail is how e-mails are compared and stored: trimmed and lower
// case, so Me@Example.com and me@example.com are one account.
func NormalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// validEmail accepts a bare address (no display name, no spaces) with a
// non-empty local part and domain.
func validEmail(email string) bool {
	if email == "" || len(email) > MaxEmailBytes || strings.ContainsAny(email, " \t\r\n<>\"") {
		return false
	}
	a, err := mail.ParseAddress(email)
	if err != nil || a.Address != email {
		return false
	}
	at := strings.LastIndexByte(email, '@')
	return at > 0 && at < len(email)-1
}

func checkEmail(v *store.Validator, field, email string) {
	switch {
	case email == "":
		v.Add(field, "required", "e-mail is required")
	case !validEmail(email):
		v.Add(field, "invalid", "e-mail address is not valid")
	}
}

func checkName(v *store.Validator, field, name string) {
	switch {
	case name == "":
		v.Add(field, "required", "name is required")
	case utf8.RuneCountInString(name) > MaxNameChars:
		v.Add(field, "too_long", fmt.Sprintf("name must be at most %d characters", MaxNameChars))
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		v.Add(field, "invalid", "name must not contain control characters")
	case strings.IndexFunc(name, invisibleRune) >= 0:
		v.Add(field, "invalid", "name must not contain invisible or text-direction characters")
	}
}

// invisibleRune reports characters a name shown to others must not carry:
// format characters (bidi overrides and isolates that reorder the text
// around a name, zero-width joiners and spaces that make two names look
// alike), line and paragraph separators, private-use characters and
// noncharacters.
func invisibleRune(r rune) bool {
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Co, unicode.Noncharacter_Code_Point)
}

// checkPassword enforces the password rules. An over-long password is a
// clear error, never silently truncated.
func checkPassword(v *store.Validator, field, pw string) {
	switch {
	case pw == "":
		v.Add(field, "required", "password is required")
	case len(pw) > MaxPasswordBytes:
		v.Add(field, "too_long", fmt.Sprintf("password must be at most %d bytes", MaxPasswordBytes))
	case !utf8.ValidString(pw):
		v.Add(field, "invalid", "password must be valid UTF-8 text")
	case utf8.RuneCountInString(pw) < MinPasswordChars:
		v.Add(field, "too_short", fmt.Sprintf("password must be at least %d characters", MinPasswordChars))
	}
}

// NewUser is the input of CreateUser (the CLI's `user create`).
type NewUser struct {
	Email    string
	Name     string
	Password string
	Role     string
	// Unverified makes the account prove its address (a registration
	// while auth.verify_email is on); Lang is its letters' language.
	Unverified bool
	Lang       string
}

// CreateUser validates and stores a new account. A taken e-mail is an error
// wrapping store.ErrConflict that names the address.
func (s *Service) CreateUser(ctx context.Context, in NewUser) (*User, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	in.Email = NormalizeEmail(in.Email)
	in.Name = strings.TrimSpace(in.Name)
	if in.Role == "" {
		in.Role = RoleUser
	}
	var v store.Validator
	checkName(&v, "name", in.Name)
	checkEmail(&v, "email", in.Email)
	checkPassword(&v, "password", in.Password)
	if in.Role != RoleAdmin && in.Role != RoleUser {
		v.Add("role", "invalid", "role must be admin or user")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	// Refuse a taken e-mail before paying for the hash.
	if _, err := s.UserByEmail(in.Email); err == nil {
		return nil, conflict(in.Email)
	}
	hash, err := s.hash(in.Password)
	if err != nil {
		return nil, err
	}
	rec := userRecord{
		User:         User{Email: in.Email, Name: in.Name, Role: in.Role, CreatedAt: s.now().UTC(), EmailVerified: !in.Unverified},
		PasswordHash: hash,
		TokenVersion: 1,
		Unverified:   in.Unverified,
		Lang:         in.Lang,
	}
	err = s.st.Update(func(tx *bolt.Tx) error {
		emails := tx.Bucket([]byte(bucketEmails))
		if emails.Get([]byte(rec.Email)) != nil {
			return conflict(rec.Email)
		}
		users := tx.Bucket([]byte(bucketUsers))
		id, err := users.NextSequence()
		if err != nil {
			return err
		}
		rec.ID = id
		if err := store.PutJSON(users, store.Itob(id), &rec); err != nil {
			return err
		}
		return emails.Put([]byte(rec.Email), store.Itob(id))
	})
	if err != nil {
		return nil, err
	}
	u := rec.User
	return &u, nil
}

func conflict(email string) error {
	return fmt.Errorf("an account with e-mail %s %w", email, store.ErrConflict)
}

func notFound(email string) error {
	return fmt.Errorf("no account with e-mail %s: %w", email, store.ErrNotFound)
}

// getByEmail loads the record of email inside tx.
func getByEmail(tx *bolt.Tx, email string) (*userRecord, error) {
	id := tx.Bucket([]byte(bucketEmails)).Get([]byte(NormalizeEmail(email)))
	if id == nil {
		return nil, notFound(NormalizeEmail(email))
	}
	return getByID(tx, store.Btoi(id))
}

func getByID(tx *bolt.Tx, id uint64) (*userRecord, error) {
	var rec userRecord
	if err := store.GetJSON(tx.Bucket([]byte(bucketUsers)), store.Itob(id), &rec); err != nil {
		return nil, err
	}
	rec.EmailVerified = !rec.Unverified
	return &rec, nil
}

func putUser(tx *bolt.Tx, rec *userRecord) error {
	return store.PutJSON(tx.Bucket([]byte(bucketUsers)), store.Itob(rec.ID), rec)
}

// reissue saves rec with its token version raised, which makes every
// access token of the account invalid at once, and ends all of its
// sessions: after a new password or role, or "log out everywhere".
func reissue(tx *bolt.Tx, rec *userRecord) error {
	rec.TokenVersion++
	if err := putUser(tx, rec); err != nil {
		return err
	}
	return revokeUserSessions(tx, rec.ID, "")
}

// UserByEmail finds an account; store.ErrNotFound (wrapped) when absent.
func (s *Service) UserByEmail(email string) (*User, error) {
	return s.viewUser(func(tx *bolt.Tx) (*userRecord, error) { return getByEmail(tx, email) })
}

// UserByID finds an account by id.
func (s *Service) UserByID(id uint64) (*User, error) {
	return s.viewUser(func(tx *bolt.Tx) (*userRecord, error) { return getByID(tx, id) })
}

// viewUser reads one account in a read transaction and returns a copy of
// its public part.
func (s *Service) viewUser(get func(tx *bolt.Tx) (*userRecord, error)) (*User, error) {
	var u User
	err := s.st.View(func(tx *bolt.Tx) error {
		rec, err := get(tx)
		if err != nil {
			return err
		}
		u = rec.User
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &u, nil
}

// Users lists every account in id order.
func (s *Service) Users() ([]User, error) {
	out := []User{}
	err := s.st.View(func(tx *bolt.Tx) error {
		return store.ForEachJSON(tx.Bucket([]byte(bucketUsers)), func(_ []byte, rec *userRecord) error {
			rec.EmailVerified = !rec.Unverified
			out = append(out, rec.User)
			return nil
		})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, err
}

// CountAdmins counts accounts with the admin role (serve warns at zero).
func (s *Service) CountAdmins() (int, error) {
	users, err := s.Users()
	n := 0
	for _, u := range users {
		if u.IsAdmin() {
			n++
		}
	}
	return n, err
}

// SetRole changes a user's role. Because a role is baked into nothing but
// checked on every request, the old access tokens are invalidated and the
// user's sessions ended, so a demoted admin loses the rights at once.
func (s *Service) SetRole(ctx context.Context, email, role string) (*User, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if role != RoleAdmin && role != RoleUser {
		return nil, store.Invalid("role", "invalid", "role must be admin or user")
	}
	var u User
	err := s.st.Update(func(tx *bolt.Tx) error {
		rec, err := getByEmail(tx, email)
		if err != nil {
			return err
		}
		if rec.Role == role {
			u = rec.User
			return nil
		}
		rec.Role = role
		u = rec.User
		return reissue(tx, rec)
	})
	if err != nil {
		return nil, err
	}
	return &u, nil
}

// SetPassword replaces a user's password (the owner's `user passwd`) and
// ends all of the user's sessions.
func (s *Service) SetPassword(ctx context.Context, email, password string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var v store.Validator
	checkPassword(&v, "password", password)
	if err := v.Err(); err != nil {
		return err
	}
	if _, err := s.UserByEmail(email); err != nil {
		return err
	}
	hash, err := s.hash(password)
	if err != nil {
		return err
	}
	return s.st.Update(func(tx *bolt.Tx) error {
		rec, err := getByEmail(tx, email)
		if err != nil {
			return err
		}
		rec.PasswordHash = hash
		return reissue(tx, rec)
	})
}

// DeleteUser removes an account and all of its sessions.
func (s *Service) DeleteUser(ctx context.Context, email string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.st.Update(func(tx *bolt.Tx) error {
		rec, err := getByEmail(tx, email)
		if err != nil {
			return err
		}
		if err := revokeUserSessions(tx, rec.ID, ""); err != nil {
			return err
		}
		if err := tx.Bucket([]byte(bucketEmails)).Delete([]byte(rec.Email)); err != nil {
			return err
		}
		if err := deleteAvatar(tx, rec.ID); err != nil {
			return err
		}
		if err := dropEmailTokens(tx, rec.ID); err != nil {
			return err
		}
		return tx.Bucket([]byte(bucketUsers)).Delete(store.Itob(rec.ID))
	})
}
