// Package auth holds devhub's accounts: users and their roles, password
// hashing (argon2id), short-lived JWT access tokens, refresh sessions kept in
// bbolt (so logging out really ends them), and login throttling. The HTTP
// layer and the CLI call the same Service; this package knows nothing about
// either.
package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"net/netip"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/store"
)

// Roles. Anything but RoleAdmin is an ordinary user; new accounts made
// through the API are always RoleUser.
const (
	RoleAdmin = "admin"
	RoleUser  = "user"
)

// Bucket names (owned by this package).
const (
	bucketUsers    = "auth_users"
	bucketEmails   = "auth_user_emails" // normalised e-mail → user id
	bucketSessions = "auth_sessions"    // session id → session
)

// secretMetaKey is where the generated JWT signing secret is kept when the
// configuration does not provide one.
const secretMetaKey = "auth.jwt_secret"

// Errors the HTTP layer maps to statuses. Unknown e-mail and wrong password
// are deliberately the same error.
var (
	ErrInvalidCredentials = store.Refuse(store.KindUnauthenticated, "invalid e-mail or password")
	ErrInvalidToken       = store.Refuse(store.KindUnauthenticated, "invalid or expired token")
	// ErrTokenReused means a refresh token that was already exchanged came
	// back: someone holds a stolen copy, so every session of the account
	// was ended.
	ErrTokenReused = store.Refuse(store.KindUnauthenticated, "refresh token reuse detected; all sessions were ended")
)

// ThrottledError is returned when too many logins failed recently
// (What == ThrottledLogin), a network used up its sign-in budget
// (ThrottledSignIns) or too many registrations came from one network
// (ThrottledRegister).
type ThrottledError struct {
	RetryAfter time.Duration
	What       string
}

func (e *ThrottledError) Error() string {
	wait := store.RetryAfterSeconds(e.RetryAfter)
	switch e.What {
	case ThrottledRegister:
		return fmt.Sprintf("too many registrations from this network; try again in %d s", wait)
	case ThrottledSignIns:
		return fmt.Sprintf("too many sign-in attempts from this network; try again in %d s", wait)
	case ThrottledCodes:
		return fmt.Sprintf("too many wrong codes for this account; try again in %d s", wait)
	}
	return fmt.Sprintf("too many failed login attempts; try again in %d s", wait)
}

// As makes a ThrottledError the rate-limit refusal of the error
// vocabulary, so every adapter answers it as it answers any other.
func (e *ThrottledError) As(target any) bool {
	r, ok := target.(**store.Refusal)
	if ok {
		*r = store.TooMany(e.Error(), e.RetryAfter)
	}
	return ok
}

// User is an account as every caller sees it (never with its hash).
type User struct {
	ID        uint64    `json:"id"`
	Email     string    `json:"email"`
	Name      string    `json:"name"`
	Role      string    `json:"role"`
	CreatedAt time.Time `json:"createdAt"`
	// AvatarURL is where the account's avatar is served (self.go); empty
	// when it has none.
	AvatarURL string `json:"avatarUrl,omitempty"`
	// EmailVerified is false only for an account registered while
	// auth.verify_email was on that has not yet opened its link.
	EmailVerified bool `json:"emailVerified"`
}

// IsAdmin reports whether the user has the admin role.
func (u User) IsAdmin() bool { return u.Role == RoleAdmin }

// Tokens are what a client keeps after signing in.
type Tokens struct {
	AccessToken string `json:"accessToken"`
	// RefreshToken is sent as an httpOnly cookie; the JSON answers carry it
	// only for clients that ask (scripts), see the server's auth routes.
	RefreshToken string `json:"refreshToken,omitempty"`
	// ExpiresIn is the access token's lifetime in seconds.
	ExpiresIn int64 `json:"expiresIn"`
}

// AuthResult answers register, login and refresh.
type AuthResult struct {
	User   User   `json:"user"`
	Tokens Tokens `json:"tokens"`
	// Challenge, when set, is the whole answer to a right password of an
	// account with two-factor sign-in: no session yet, only the token
	// that LoginMFA takes with a code.
	Challenge *Challenge `json:"-"`
	// VerificationRequired answers a registration under auth.verify_email
	// required: the account exists but has no session (Tokens are empty)
	// until its address is verified.
	VerificationRequired bool `json:"verificationRequired,omitempty"`
}

// Principal is the verified caller behind an access token.
//
// The User is embedded so that a handler reads p.ID, p.Email or p.IsAdmin()
// straight off the one principal type the HTTP middleware stores.
type Principal struct {
	User
	// SessionID is the session the access token belongs to (logout and
	// change-password act on it).
	SessionID string
}

// Client describes where a request came from; it keys the per-network login
// throttle and is recorded on sessions so the owner can tell them apart.
type Client struct {
	IP        netip.Addr
	UserAgent string
}

// Option adjusts a Service (tests use them; production uses the defaults).
type Option func(*Service)

// WithClock replaces time.Now.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithSleep replaces time.Sleep for the soft per-account sign-in delay
// (tests advance a fake clock instead of waiting).
func WithSleep(sleep func(time.Duration)) Option { return func(s *Service) { s.sleep = sleep } }

// WithHashParams replaces the argon2id cost (tests lower it for speed).
func WithHashParams(p HashParams) Option { return func(s *Service) { s.params = p } }

// Service is the accounts service of one store.
type Service struct {
	st         *store.Store
	secret     []byte
	accessTTL  time.Duration
	refreshTTL time.Duration
	params     HashParams
	now        func() time.Time
	sleep      func(time.Duration)
	// registration is the policy Register follows (config auth.registration).
	registration string
	// verifyEmail is auth.verify_email as it takes effect: off unless mail
	// can carry the links.
	verifyEmail string
	// verifyRequests counts resend requests per client network,
	// verifyPerAccount the verification links mailed per account.
	verifyRequests, verifyPerAccount *limiter
	// ceremonies are the passkey registrations and sign-ins begun and not
	// yet finished.
	ceremonies ceremonies
	// throttle counts failed sign-ins per (account, network) and per
	// network: the hard limit.
	throttle *limiter
	// accountFailures counts failed sign-ins per account from everywhere:
	// the soft slowdown.
	accountFailures *limiter
	// registrations counts registration attempts per client network.
	registrations *limiter
	// signIns counts every password check per client network.
	signIns *limiter
	// codeFailures counts wrong one-time and recovery codes per account
	// from everywhere: the hard limit of the code step.
	codeFailures *limiter
	// resetRequests counts password reset requests per client network,
	// resetPerAccount the reset links mailed per account.
	resetRequests, resetPerAccount *limiter
	// hashSlots bounds concurrent argon2 runs: each one holds Memory KiB,
	// so a burst of logins must queue instead of exhausting RAM.
	hashSlots chan struct{}
	// refreshKey signs refresh tokens; derived from the JWT secret.
	refreshKey []byte
	lastSweep  atomic.Int64
	// dummyHash is verified against when an e-mail is unknown, so that
	// answer costs the same time as a wrong password.
	dummyHash string
}

// New opens the accounts service on st. The JWT secret is cfg.JWTSecret when
// set (config validation demands ≥ 32 bytes), otherwise 32 random bytes
// generated once and kept in the store, so tokens survive restarts.
func New(st *store.Store, cfg config.Auth, opts ...Option) (*Service, error) {
	if err := st.EnsureBuckets(bucketUsers, bucketEmails, bucketSessions, bucketInvites, bucketMFASpent, bucketResets, bucketEmailTokens); err != nil {
		return nil, err
	}
	s := &Service{
		st:               st,
		accessTTL:        cfg.AccessTTL,
		refreshTTL:       cfg.RefreshTTL,
		params:           DefaultHashParams,
		now:              time.Now,
		sleep:            time.Sleep,
		registration:     cfg.Registration,
		verifyEmail:      cfg.VerifyEmail,
		verifyRequests:   newLimiter(VerifyMaxPerNetwork, VerifyNetworkWindow),
		verifyPerAccount: newLimiter(VerifyMaxPerAccount, VerifyAccountWindow),
		throttle:         newLimiter(LoginMaxFailures, LoginWindow),
		accountFailures:  newLimiter(math.MaxInt, AccountFailureWindow),
		registrations:    newLimiter(RegisterMaxPerWindow, RegisterWindow),
		signIns:          newLimiter(SignInMaxPerWindow, SignInWindow),
		codeFailures:     newLimiter(CodeMaxFailures, CodeWindow),
		resetRequests:    newLimiter(ResetMaxPerNetwork, ResetNetworkWindow),
		resetPerAccount:  newLimiter(ResetMaxPerAccount, ResetAccountWindow),
	}
	if s.accessTTL <= 0 {
		s.accessTTL = 15 * time.Minute
	}
	if s.registration == "" {
		s.registration = RegistrationOpen
	}
	if s.verifyEmail == "" {
		s.verifyEmail = VerifyOff
	}
	if s.refreshTTL <= 0 {
		s.refreshTTL = 30 * 24 * time.Hour
	}
	for _, o := range opts {
		o(s)
	}
	slots := runtime.GOMAXPROCS(0)
	if slots < 2 {
		slots = 2
	}
	s.hashSlots = make(chan struct{}, slots)

	if cfg.JWTSecret != "" {
		if len(cfg.JWTSecret) < 32 {
			return nil, errors.New("auth.jwt_secret must be at least 32 bytes")
		}
		s.secret = []byte(cfg.JWTSecret)
	} else {
		secret, err := st.MetaOrInit(secretMetaKey, func() ([]byte, error) {
			b := make([]byte, 32)
			_, err := rand.Read(b)
			return b, err
		})
		if err != nil {
			return nil, fmt.Errorf("jwt secret: %w", err)
		}
		if len(secret) < 32 {
			return nil, errors.New("the jwt secret kept in the store is shorter than 256 bits")
		}
		s.secret = secret
	}
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte("devhub refresh token v1"))
	s.refreshKey = m.Sum(nil)
	s.lastSweep.Store(s.now().UnixNano())

	dummy, err := hashPassword("devhub dummy password", s.params)
	if err != nil {
		return nil, err
	}
	s.dummyHash = dummy
	return s, nil
}

// startSignIn admits one password check: it reserves a place in the hard
// failure throttle (account from this network, and the network) and counts
// the check against the network's sign-in budget, or says why the check may
// not run now (then nothing is taken). An account that failed often lately
// is then slowed down (accountDelay) before the check runs. The caller ends
// it with endSignIn once the password was checked.
func (s *Service) startSignIn(acct, network string) error {
	pair := pairKey(acct, network)
	now := s.now()
	if wait := s.throttle.reserve(now, pair, network); wait > 0 {
		return &ThrottledError{RetryAfter: wait, What: ThrottledLogin}
	}
	if wait := s.signIns.take(now, network); wait > 0 {
		s.throttle.cancel(pair, network)
		return &ThrottledError{RetryAfter: wait, What: ThrottledSignIns}
	}
	if d := accountDelay(s.accountFailures.count(now, acct)); d > 0 {
		s.sleep(d)
	}
	return nil
}

// endSignIn counts a wrong password as a failure of the account (from this
// network, and from anywhere) and of the network, or forgets the account's
// failures after a right one.
func (s *Service) endSignIn(acct, network string, ok bool) {
	pair := pairKey(acct, network)
	if !ok {
		now := s.now()
		s.throttle.commit(now, pair, network)
		s.accountFailures.take(now, acct)
		return
	}
	s.throttle.cancel(pair, network)
	s.throttle.reset(pair)
	s.accountFailures.reset(acct)
}

// startCodeCheck is startSignIn for a one-time or recovery code: it also
// reserves a place among the account's code failures from all networks
// (codeFailures). endCodeCheck ends it.
func (s *Service) startCodeCheck(acct, network string) error {
	if wait := s.codeFailures.reserve(s.now(), acct); wait > 0 {
		return &ThrottledError{RetryAfter: wait, What: ThrottledCodes}
	}
	if err := s.startSignIn(acct, network); err != nil {
		s.codeFailures.cancel(acct)
		return err
	}
	return nil
}

// endCodeCheck ends a check started with startCodeCheck: a wrong code
// counts as a failure (of the password throttle's keys, and of the
// account's codes), a right one forgives like a right password (the code
// failures only leave with their window), and anything else (nothing to
// check, a token that no longer works) gives the reservations back
// uncounted.
func (s *Service) endCodeCheck(acct, network string, err error) {
	switch {
	case err == nil:
		s.codeFailures.cancel(acct)
		s.endSignIn(acct, network, true)
	case errors.Is(err, ErrInvalidCode):
		s.codeFailures.commit(s.now(), acct)
		s.endSignIn(acct, network, false)
	default:
		s.codeFailures.cancel(acct)
		s.throttle.cancel(pairKey(acct, network), network)
	}
}

// hash runs hashPassword inside a hash slot.
func (s *Service) hash(password string) (string, error) {
	s.hashSlots <- struct{}{}
	defer func() { <-s.hashSlots }()
	return hashPassword(password, s.params)
}

// verify runs verifyPassword inside a hash slot.
func (s *Service) verify(password, encoded string) (ok, rehash bool, err error) {
	s.hashSlots <- struct{}{}
	defer func() { <-s.hashSlots }()
	return verifyPassword(password, encoded, s.params)
}

// AccessTTL is the access token lifetime.
func (s *Service) AccessTTL() time.Duration { return s.accessTTL }

// RefreshTTL is the refresh session lifetime (the cookie's Max-Age).
func (s *Service) RefreshTTL() time.Duration { return s.refreshTTL }
