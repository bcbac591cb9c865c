package auth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/random"
	"github.com/devhub/devhub/pkg/internal/text"
	"github.com/devhub/devhub/pkg/store"
)

// A refresh session is one signed-in device. It is created at login or
// registration and lives until logout, expiry (refresh_ttl after its last
// use) or revocation. Its refresh token is "<session id>.<generation>.<mac>",
// the mac being an HMAC of the first two parts under a key derived from the
// JWT secret: the store keeps no token at all, yet every token devhub ever
// issued can be recognised. Each refresh moves the session to the next
// generation; a valid token of an earlier generation can only be a copy that
// was already exchanged, so it ends every session of the account.

// MaxSessionsPerUser bounds stored sessions per account; the least recently
// used one is ended when a new sign-in would exceed it.
const MaxSessionsPerUser = 20

// Session is one signed-in device of a user.
type Session struct {
	ID         string    `json:"id"`
	UserID     uint64    `json:"userId"`
	Generation uint64    `json:"generation"`
	CreatedAt  time.Time `json:"createdAt"`
	LastUsedAt time.Time `json:"lastUsedAt"`
	ExpiresAt  time.Time `json:"expiresAt"`
	// RotatedAt is when Generation last moved on (RefreshGrace).
	RotatedAt time.Time `json:"rotatedAt,omitzero"`
	IP        string    `json:"ip,omitempty"`
	UserAgent string    `json:"userAgent,omitempty"`
}

// refreshToken is the token of session sid at generation gen.
func (s *Service) refreshToken(sid string, gen uint64) string {
	body := sid + "." + strconv.FormatUint(gen, 10)
	m := hmac.New(sha256.New, s.refreshKey)
	m.Write([]byte(body))
	return body + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// parseRefresh checks a refresh token's mac and returns its parts.
func (s *Service) parseRefresh(token string) (sid string, gen uint64, ok bool) {
	if token == "" || len(token) > 256 {
		return "", 0, false
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return "", 0, false
	}
	gen, err := strconv.ParseUint(parts[1], 10, 64)
	if err != nil || strconv.FormatUint(gen, 10) != parts[1] {
		return "", 0, false
	}
	want := s.refreshToken(parts[0], gen)
	if subtle.ConstantTimeCompare([]byte(want), []byte(token)) != 1 {
		return "", 0, false
	}
	return parts[0], gen, true
}

// RegisterInput is the registration form.
type RegisterInput struct {
	Name            string
	Email           string
	Password        string
	ConfirmPassword string
	// Invite is the invitation code, needed when registration is by
	// invitation.
	Invite string
	// Lang is the language of the letters the account will get.
	Lang string
}

// Register creates an ordinary account (never an admin, whatever the
// request says) and signs it in. Valid forms are throttled per client
// network (RegisterMaxPerWindow per RegisterWindow). While auth.verify_email
// is on the account starts unverified; when it is required the account is
// not signed in (the answer has VerificationRequired and no tokens).
func (s *Service) Register(ctx context.Context, in RegisterInput, c Client) (*AuthResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	switch s.registration {
	case RegistrationClosed:
		return nil, ErrRegistrationClosed
	case RegistrationInvite:
		if strings.TrimSpace(in.Invite) == "" {
			return nil, store.Invalid("invite", "required", ErrInviteRequired.Error())
		}
	}
	var v store.Validator
	name, email := strings.TrimSpace(in.Name), NormalizeEmail(in.Email)
	checkName(&v, "name", name)
	checkEmail(&v, "email", email)
	checkPassword(&v, "password", in.Password)
	switch {
	case in.ConfirmPassword == "":
		v.Add("confirmPassword", "required", "password confirmation is required")
	case in.ConfirmPassword != in.Password:
		v.Add("confirmPassword", "mismatch", "passwords do not match")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if wait := s.registrations.take(s.now(), networkKey(c.IP)); wait > 0 {
		return nil, &ThrottledError{RetryAfter: wait, What: ThrottledRegister}
	}
	if s.registration == RegistrationInvite {
		// Claimed before the account exists, so two registrations racing
		// with one code cannot both get in; given back if creation fails.
		h, err := s.claimInvite(in.Invite, email)
		if err != nil {
			return nil, store.Invalid("invite", "invalid", err.Error())
		}
		created := false
		defer func() {
			if !created {
				s.releaseInvite(h)
			}
		}()
		u, err := s.createRegistered(ctx, email, name, in.Password, in.Lang)
		if err != nil {
			return nil, err
		}
		created = true
		return s.registered(u, c)
	}
	u, err := s.createRegistered(ctx, email, name, in.Password, in.Lang)
	if err != nil {
		return nil, err
	}
	return s.registered(u, c)
}

// registered signs a new account in, unless its address must be verified
// first.
func (s *Service) registered(u *User, c Client) (*AuthResult, error) {
	if s.verifyEmail == VerifyRequired && !u.EmailVerified {
		return &AuthResult{User: *u, VerificationRequired: true}, nil
	}
	return s.startSession(u.ID, c)
}

// createRegistered creates the account of a registration: an ordinary
// user, and a conflict that does not echo the address the guest typed.
func (s *Service) createRegistered(ctx context.Context, email, name, password, lang string) (*User, error) {
	u, err := s.CreateUser(ctx, NewUser{Email: email, Name: name, Password: password, Role: RoleUser,
		Unverified: s.verifyEmail != VerifyOff, Lang: lang})
	if errors.Is(err, store.ErrConflict) {
		// The guest typed the address; the answer need not echo it back
		// (the owner's CLI, which calls CreateUser, does name it).
		return nil, fmt.Errorf("an account with this e-mail %w", store.ErrConflict)
	}
	return u, err
}

// Login checks credentials and starts a session. Unknown e-mail and wrong
// password return the same error after the same amount of hashing work.
// Failures are throttled per account and per client network.
func (s *Service) Login(ctx context.Context, email, password string, c Client) (*AuthResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	email = NormalizeEmail(email)
	var v store.Validator
	switch {
	case email == "":
		v.Add("email", "required", "e-mail is required")
	case len(email) > MaxEmailBytes:
		// No account has one. Refused before it becomes a throttle key: a
		// key is kept for the failure window, and a body-sized one per
		// attempt added up to megabytes per guessing network.
		v.Add("email", "too_long", fmt.Sprintf("e-mail must be at most %d bytes", MaxEmailBytes))
	}
	if password == "" {
		v.Add("password", "required", "password is required")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	// The attempt takes its place in the throttle before the hash runs and
	// is counted as a failure unless the password was right.
	acct, network := accountKey(email), networkKey(c.IP)
	if err := s.startSignIn(acct, network); err != nil {
		return nil, err
	}
	verified := false
	defer func() { s.endSignIn(acct, network, verified) }()
	if len(password) > MaxPasswordBytes {
		// Cannot match any stored password; counts as a failure.
		return nil, ErrInvalidCredentials
	}

	var rec *userRecord
	_ = s.st.View(func(tx *bolt.Tx) error {
		r, err := getByEmail(tx, email)
		if err == nil {
			rec = r
		}
		return nil
	})
	hash := s.dummyHash
	if rec != nil {
		hash = rec.PasswordHash
	}
	ok, rehash, err := s.verify(password, hash)
	if err != nil || !ok || rec == nil {
		return nil, ErrInvalidCredentials
	}
	verified = true
	if rehash {
		if h, err := s.hash(password); err == nil {
			_ = s.st.Update(func(tx *bolt.Tx) error {
				cur, err := getByID(tx, rec.ID)
				if err != nil || cur.PasswordHash != rec.PasswordHash {
					return err
				}
				cur.PasswordHash = h
				return putUser(tx, cur)
			})
		}
	}
	if s.verifyEmail == VerifyRequired && rec.Unverified {
		return nil, ErrEmailUnverified
	}
	if rec.TOTP != nil && rec.TOTP.Confirmed {
		ch, err := s.challenge(rec)
		if err != nil {
			return nil, err
		}
		return &AuthResult{Challenge: ch}, nil
	}
	return s.startSession(rec.ID, c)
}

// startSession creates a refresh session for user id and signs its first
// tokens.
func (s *Service) startSession(userID uint64, c Client) (*AuthResult, error) {
	now := s.now().UTC()
	sess := Session{
		ID: random.Token(16), UserID: userID, Generation: 1, CreatedAt: now, LastUsedAt: now,
		ExpiresAt: now.Add(s.refreshTTL), UserAgent: text.Truncate(c.UserAgent, 256),
	}
	if c.IP.IsValid() {
		sess.IP = c.IP.String()
	}
	var rec *userRecord
	err := s.st.Update(func(tx *bolt.Tx) error {
		var err error
		if rec, err = getByID(tx, userID); err != nil {
			return err
		}
		if s.verifyEmail == VerifyRequired && rec.Unverified {
			return ErrEmailUnverified
		}
		if err := putSession(tx, &sess); err != nil {
			return err
		}
		return trimSessions(tx, userID, MaxSessionsPerUser)
	})
	if err != nil {
		return nil, err
	}
	s.maybeSweep()
	return s.result(rec, &sess)
}

func putSession(tx *bolt.Tx, sess *Session) error {
	return store.PutJSON(tx.Bucket([]byte(bucketSessions)), []byte(sess.ID), sess)
}

func (s *Service) result(rec *userRecord, sess *Session) (*AuthResult, error) {
	access, err := s.signAccess(rec, sess.ID)
	if err != nil {
		return nil, err
	}
	return &AuthResult{User: rec.User, Tokens: Tokens{
		AccessToken:  access,
		RefreshToken: s.refreshToken(sess.ID, sess.Generation),
		ExpiresIn:    int64(s.accessTTL / time.Second),
	}}, nil
}

// RefreshGrace is how long the refresh token just rotated away still
// answers, with the pair that replaced it. Two tabs of one browser refresh
// at the same moment with the same cookie; without the grace the second one
// would look like a stolen token being replayed and end every session.
// Past it, a replay ends them all (reuse detection).
const RefreshGrace = 15 * time.Second

// Refresh exchanges a refresh token for new tokens. The presented token
// stops working (after RefreshGrace); presenting it again later ends every
// session of the account.
func (s *Service) Refresh(ctx context.Context, token string, c Client) (*AuthResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sid, gen, ok := s.parseRefresh(token)
	if !ok {
		return nil, ErrInvalidToken
	}
	now := s.now().UTC()
	var (
		rec    *userRecord
		sess   Session
		reused bool
	)
	err := s.st.Update(func(tx *bolt.Tx) error {
		if err := store.GetJSON(tx.Bucket([]byte(bucketSessions)), []byte(sid), &sess); err != nil {
			return ErrInvalidToken
		}
		if !now.Before(sess.ExpiresAt) {
			return ErrInvalidToken
		}
		if gen+1 == sess.Generation && now.Sub(sess.RotatedAt) < RefreshGrace {
			// A concurrent refresh of the same token: the same new pair.
			var err error
			if rec, err = getByID(tx, sess.UserID); err != nil {
				return ErrInvalidToken
			}
			return nil
		}
		if gen < sess.Generation {
			// Commit the revocation, report the reuse afterwards.
			reused = true
			if u, err := getByID(tx, sess.UserID); err == nil {
				u.TokenVersion++
				if err := putUser(tx, u); err != nil {
					return err
				}
			}
			return revokeUserSessions(tx, sess.UserID, "")
		}
		if gen != sess.Generation {
			return ErrInvalidToken
		}
		var err error
		if rec, err = getByID(tx, sess.UserID); err != nil {
			return ErrInvalidToken
		}
		sess.Generation++
		sess.RotatedAt = now
		sess.LastUsedAt = now
		sess.ExpiresAt = now.Add(s.refreshTTL)
		if c.IP.IsValid() {
			sess.IP = c.IP.String()
		}
		return putSession(tx, &sess)
	})
	if err != nil {
		return nil, err
	}
	if reused {
		return nil, ErrTokenReused
	}
	return s.result(rec, &sess)
}

// Authenticate verifies an access token: signature, algorithm, expiry, and
// that its session is still live and its version is the user's current one.
func (s *Service) Authenticate(token string) (*Principal, error) {
	claims, id, err := s.parseAccess(token)
	if err != nil {
		return nil, err
	}
	var p Principal
	err = s.st.View(func(tx *bolt.Tx) error {
		rec, err := getByID(tx, id)
		if err != nil || rec.TokenVersion != claims.Ver {
			return ErrInvalidToken
		}
		var sess Session
		if err := store.GetJSON(tx.Bucket([]byte(bucketSessions)), []byte(claims.Sid), &sess); err != nil ||
			sess.UserID != id || !s.now().Before(sess.ExpiresAt) {
			return ErrInvalidToken
		}
		p = Principal{User: rec.User, SessionID: sess.ID}
		return nil
	})
	if err != nil {
		return nil, ErrInvalidToken
	}
	return &p, nil
}

// Logout ends one session; its access tokens stop working at once.
func (s *Service) Logout(ctx context.Context, sessionID string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.st.Update(func(tx *bolt.Tx) error { return revokeSession(tx, sessionID) })
}

// LogoutRefresh ends the session a refresh token belongs to (a client whose
// access token already expired can still sign out).
func (s *Service) LogoutRefresh(ctx context.Context, token string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	sid, _, ok := s.parseRefresh(token)
	if !ok {
		return ErrInvalidToken
	}
	return s.Logout(ctx, sid)
}

// ChangePassword replaces the caller's password after checking the old one.
// Every access token and every session of the user ends, the caller's own
// too: whoever had copied the caller's refresh token is out as well. The
// caller continues in a new session, whose tokens the answer carries. Wrong
// old passwords count towards the login throttle, and every attempt towards
// the network's sign-in budget.
func (s *Service) ChangePassword(ctx context.Context, p *Principal, oldPassword, newPassword string, c Client) (*AuthResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var v store.Validator
	if oldPassword == "" {
		v.Add("oldPassword", "required", "current password is required")
	}
	checkPassword(&v, "newPassword", newPassword)
	if err := v.Err(); err != nil {
		return nil, err
	}
	acct, network := accountKey(p.User.Email), networkKey(c.IP)
	if err := s.startSignIn(acct, network); err != nil {
		return nil, err
	}
	verified := false
	defer func() { s.endSignIn(acct, network, verified) }()
	var rec *userRecord
	if err := s.st.View(func(tx *bolt.Tx) error {
		var err error
		rec, err = getByID(tx, p.User.ID)
		return err
	}); err != nil {
		return nil, err
	}
	ok := false
	if len(oldPassword) <= MaxPasswordBytes {
		ok, _, _ = s.verify(oldPassword, rec.PasswordHash)
	}
	if !ok {
		return nil, store.Invalid("oldPassword", "wrong_password", "current password is incorrect")
	}
	verified = true
	hash, err := s.hash(newPassword)
	if err != nil {
		return nil, err
	}
	err = s.st.Update(func(tx *bolt.Tx) error {
		cur, err := getByID(tx, p.User.ID)
		if err != nil {
			return err
		}
		cur.PasswordHash = hash
		if err := dropEmailChanges(tx, cur.ID); err != nil {
			return err
		}
		return reissue(tx, cur)
	})
	if err != nil {
		return nil, err
	}
	return s.startSession(p.User.ID, c)
}

// RevokeSessions ends every session of the account and invalidates its
// access tokens ("log out everywhere"). It returns how many were ended.
func (s *Service) RevokeSessions(ctx context.Context, email string) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	n := 0
	err := s.st.Update(func(tx *bolt.Tx) error {
		rec, err := getByEmail(tx, email)
		if err != nil {
			return err
		}
		sessions, err := userSessions(tx, rec.ID)
		if err != nil {
			return err
		}
		n = len(sessions)
		return reissue(tx, rec)
	})
	return n, err
}

// RevokeSession ends one session of user id (the profile's "sign out
// there"); a session of anyone else is store.ErrNotFound.
func (s *Service) RevokeSession(ctx context.Context, userID uint64, sid string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.st.Update(func(tx *bolt.Tx) error {
		var sess Session
		if err := store.GetJSON(tx.Bucket([]byte(bucketSessions)), []byte(sid), &sess); err != nil || sess.UserID != userID {
			return fmt.Errorf("session: %w", store.ErrNotFound)
		}
		return revokeSession(tx, sid)
	})
}

// RevokeOtherSessions ends every session of user id but keep (the
// profile's "sign out everywhere else") and returns how many ended.
func (s *Service) RevokeOtherSessions(ctx context.Context, userID uint64, keep string) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	n := 0
	err := s.st.Update(func(tx *bolt.Tx) error {
		all, err := userSessions(tx, userID)
		if err != nil {
			return err
		}
		for _, x := range all {
			if x.ID != keep {
				n++
			}
		}
		return revokeUserSessions(tx, userID, keep)
	})
	return n, err
}

// Sessions lists the account's live sessions, most recently used first.
func (s *Service) Sessions(email string) ([]Session, error) {
	var out []Session
	err := s.st.View(func(tx *bolt.Tx) error {
		rec, err := getByEmail(tx, email)
		if err != nil {
			return err
		}
		out, err = userSessions(tx, rec.ID)
		return err
	})
	now := s.now()
	live := out[:0]
	for _, x := range out {
		if now.Before(x.ExpiresAt) {
			live = append(live, x)
		}
	}
	sort.Slice(live, func(i, j int) bool { return live[i].LastUsedAt.After(live[j].LastUsedAt) })
	return live, err
}

// sweepEvery is how often sign-ins also delete expired sessions.
const sweepEvery = time.Hour

// maybeSweep runs Sweep at most once per sweepEvery, in the background.
func (s *Service) maybeSweep() {
	now := s.now().UnixNano()
	last := s.lastSweep.Load()
	if now-last < int64(sweepEvery) || !s.lastSweep.CompareAndSwap(last, now) {
		return
	}
	go func() { _ = s.Sweep(context.Background()) }() // not tied to the sign-in that started it
}

// Sweep deletes expired sessions and the records of spent second-step
// tokens that have expired; serve runs it at start and sign-ins run it now
// and then.
func (s *Service) Sweep(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := s.now()
	return s.st.Update(func(tx *bolt.Tx) error {
		var dead [][]byte
		sb := tx.Bucket([]byte(bucketSessions))
		if err := store.ForEachJSON(sb, func(k []byte, x *Session) error {
			if !now.Before(x.ExpiresAt) {
				dead = append(dead, append([]byte(nil), k...))
			}
			return nil
		}); err != nil {
			return err
		}
		for _, k := range dead {
			if err := sb.Delete(k); err != nil {
				return err
			}
		}
		return sweepSpentMFATokens(tx, now)
	})
}

func userSessions(tx *bolt.Tx, userID uint64) ([]Session, error) {
	var out []Session
	err := store.ForEachJSON(tx.Bucket([]byte(bucketSessions)), func(_ []byte, x *Session) error {
		if x.UserID == userID {
			out = append(out, *x)
		}
		return nil
	})
	return out, err
}

func revokeSession(tx *bolt.Tx, sid string) error {
	return tx.Bucket([]byte(bucketSessions)).Delete([]byte(sid))
}

// revokeUserSessions ends every session of userID except keep.
func revokeUserSessions(tx *bolt.Tx, userID uint64, keep string) error {
	sessions, err := userSessions(tx, userID)
	if err != nil {
		return err
	}
	for _, x := range sessions {
		if x.ID != keep {
			if err := revokeSession(tx, x.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// trimSessions ends the least recently used sessions beyond max.
func trimSessions(tx *bolt.Tx, userID uint64, max int) error {
	sessions, err := userSessions(tx, userID)
	if err != nil || len(sessions) <= max {
		return err
	}
	sort.Slice(sessions, func(i, j int) bool { return sessions[i].LastUsedAt.Before(sessions[j].LastUsedAt) })
	for _, x := range sessions[:len(sessions)-max] {
		if err := revokeSession(tx, x.ID); err != nil {
			return err
		}
	}
	return nil
}
