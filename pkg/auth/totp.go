package auth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/random"
	"github.com/devhub/devhub/pkg/store"
)

// Two-factor sign-in with time-based one-time passwords (RFC 6238, through
// pquerna/otp): 6 digits, 30-second steps, one step of clock skew either
// way. A code is accepted once — a step at or before the last accepted one
// is refused, so a code seen over someone's shoulder cannot be replayed —
// and wrong codes count against the same throttle as wrong passwords.
// Recovery codes (10, shown once at enrolment) are stored as SHA-256
// hashes: they are 50 random bits each, far past what a hash needs to
// resist guessing, and each works once.
const (
	totpPeriod        = 30
	totpSkew          = 1
	RecoveryCodeCount = 10
	// MFATokenTTL is how long the token between the password and the code
	// is good for.
	MFATokenTTL = 5 * time.Minute
	// totpIssuer names the account in authenticator apps.
	totpIssuer = "devhub"
)

// Two-factor refusals, each of the error vocabulary's kind for it.
var (
	// ErrInvalidCode is a wrong, reused or expired one-time or recovery code.
	ErrInvalidCode = &store.ValidationError{Message: "invalid or already used code", Fields: map[string]store.FieldError{"code": {Code: "invalid_code", Message: "invalid or already used code"}}}
	// ErrTOTPAlreadyOn is an enrolment while two-factor sign-in is on.
	ErrTOTPAlreadyOn = store.Refuse(store.KindConflict, "two-factor sign-in is already on; turn it off first")
	// ErrTOTPNotPending is a confirmation without an enrolment to confirm.
	ErrTOTPNotPending = store.Refuse(store.KindConflict, "no two-factor enrolment to confirm; start one first")
	// ErrTOTPOff is a request that needs two-factor sign-in to be on.
	ErrTOTPOff = store.Refuse(store.KindConflict, "two-factor sign-in is off")
)

// totpState is a user's authenticator: pending until confirmed with a code.
type totpState struct {
	Secret         string    `json:"secret"`
	Confirmed      bool      `json:"confirmed"`
	LastStep       int64     `json:"lastStep"`
	RecoveryHashes []string  `json:"recoveryHashes,omitempty"`
	EnrolledAt     time.Time `json:"enrolledAt"`
}

// TwoFactorStatus is what the profile shows and `devhub user 2fa status`
// prints.
type TwoFactorStatus struct {
	TOTP              bool `json:"totp"`
	RecoveryCodesLeft int  `json:"recoveryCodesLeft"`
}

// Enrolment is a new, not yet confirmed authenticator secret.
type Enrolment struct {
	Secret     string `json:"secret"`
	OTPAuthURL string `json:"otpauthUrl"`
}

// Challenge is the answer to a right password when two-factor sign-in is
// on: a short-lived token that only LoginMFA accepts.
type Challenge struct {
	MFARequired bool   `json:"mfaRequired"`
	MFAToken    string `json:"mfaToken"`
	// Methods are the second factors the account can use: "totp", and
	// "passkey" when it holds one.
	Methods []string `json:"methods"`
}

// BeginTOTP starts (or restarts) an enrolment for the caller: a new secret
// that counts only once ConfirmTOTP has seen a code from it.
func (s *Service) BeginTOTP(ctx context.Context, p *Principal) (*Enrolment, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: totpIssuer, AccountName: p.User.Email, Period: totpPeriod})
	if err != nil {
		return nil, err
	}
	err = s.st.Update(func(tx *bolt.Tx) error {
		rec, err := getByID(tx, p.User.ID)
		if err != nil {
			return err
		}
		if rec.TOTP != nil && rec.TOTP.Confirmed {
			return ErrTOTPAlreadyOn
		}
		rec.TOTP = &totpState{Secret: key.Secret()}
		return putUser(tx, rec)
	})
	if err != nil {
		return nil, err
	}
	return &Enrolment{Secret: key.Secret(), OTPAuthURL: key.URL()}, nil
}

// ConfirmTOTP turns two-factor sign-in on with a code from the pending
// secret and returns the recovery codes, shown this once. With
// signOutOthers, every other session of the account ends in the same write
// (a session begun with the password alone, perhaps by whoever made the
// owner want a second factor, would otherwise outlive it); the caller's
// own session (p.SessionID) stays. signedOut is how many ended.
func (s *Service) ConfirmTOTP(ctx context.Context, p *Principal, code string, signOutOthers bool, c Client) (codes []string, signedOut int, err error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	acct, network := accountKey(p.User.Email), networkKey(c.IP)
	if err := s.startCodeCheck(acct, network); err != nil {
		return nil, 0, err
	}
	defer func() { s.endCodeCheck(acct, network, err) }()
	codes = make([]string, RecoveryCodeCount)
	hashes := make([]string, RecoveryCodeCount)
	for i := range codes {
		codes[i] = newRecoveryCode()
		hashes[i] = hashRecoveryCode(codes[i])
	}
	now := s.now()
	err = s.st.Update(func(tx *bolt.Tx) error {
		rec, err := getByID(tx, p.User.ID)
		if err != nil {
			return err
		}
		t := rec.TOTP
		switch {
		case t == nil:
			return ErrTOTPNotPending
		case t.Confirmed:
			return ErrTOTPAlreadyOn
		}
		step, valid := matchTOTP(t.Secret, code, now)
		if !valid {
			return ErrInvalidCode
		}
		t.Confirmed, t.LastStep, t.RecoveryHashes, t.EnrolledAt = true, step, hashes, now.UTC()
		if err := putUser(tx, rec); err != nil {
			return err
		}
		if !signOutOthers {
			return nil
		}
		all, err := userSessions(tx, rec.ID)
		if err != nil {
			return err
		}
		for _, x := range all {
			if x.ID != p.SessionID {
				signedOut++
			}
		}
		return revokeUserSessions(tx, rec.ID, p.SessionID)
	})
	if err != nil {
		return nil, 0, err
	}
	return codes, signedOut, nil
}

// DisableTOTP turns two-factor sign-in off for the caller, who proves it
// with a current code or a recovery code.
func (s *Service) DisableTOTP(ctx context.Context, p *Principal, code string, c Client) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	acct, network := accountKey(p.User.Email), networkKey(c.IP)
	if err := s.startCodeCheck(acct, network); err != nil {
		return err
	}
	defer func() { s.endCodeCheck(acct, network, err) }()
	return s.st.Update(func(tx *bolt.Tx) error {
		rec, err := getByID(tx, p.User.ID)
		if err != nil {
			return err
		}
		if rec.TOTP == nil || !rec.TOTP.Confirmed {
			return ErrTOTPOff
		}
		if !s.spendCode(rec.TOTP, code) {
			return ErrInvalidCode
		}
		rec.TOTP = nil
		return putUser(tx, rec)
	})
}

// ResetTOTP turns two-factor sign-in off for an account without a code:
// the owner's `devhub user 2fa disable` and the admin panel, for a user who
// lost their authenticator and their recovery codes.
func (s *Service) ResetTOTP(ctx context.Context, email string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.st.Update(func(tx *bolt.Tx) error {
		rec, err := getByEmail(tx, NormalizeEmail(email))
		if err != nil {
			return err
		}
		if rec.TOTP == nil || !rec.TOTP.Confirmed {
			return ErrTOTPOff
		}
		rec.TOTP = nil
		return putUser(tx, rec)
	})
}

// TwoFactor reports an account's second factors.
func (s *Service) TwoFactor(email string) (*TwoFactorStatus, error) {
	var st TwoFactorStatus
	err := s.st.View(func(tx *bolt.Tx) error {
		rec, err := getByEmail(tx, NormalizeEmail(email))
		if err != nil {
			return err
		}
		if t := rec.TOTP; t != nil && t.Confirmed {
			st.TOTP, st.RecoveryCodesLeft = true, len(t.RecoveryHashes)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &st, nil
}

// LoginMFA finishes a sign-in that Login answered with a Challenge: the
// token from it and a current code (or a recovery code) start the session.
// The token starts one session only: the code's acceptance spends it, so a
// second exchange (with a newer code, within its lifetime) is refused like
// an invalid token. Wrong codes count against the password throttle of the
// account and leave the token unspent.
func (s *Service) LoginMFA(ctx context.Context, mfaToken, code string, c Client) (_ *AuthResult, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	mc, err := s.parseMFAToken(mfaToken)
	if err != nil {
		return nil, ErrInvalidToken
	}
	var email string
	if err := s.st.View(func(tx *bolt.Tx) error {
		rec, err := getByID(tx, mc.id)
		if err != nil || rec.TokenVersion != mc.ver || mfaTokenSpent(tx, mc.jti) {
			return ErrInvalidToken
		}
		email = rec.Email
		return nil
	}); err != nil {
		return nil, ErrInvalidToken
	}
	acct, network := accountKey(email), networkKey(c.IP)
	if err := s.startCodeCheck(acct, network); err != nil {
		return nil, err
	}
	defer func() { s.endCodeCheck(acct, network, err) }()
	err = s.st.Update(func(tx *bolt.Tx) error {
		rec, err := getByID(tx, mc.id)
		if err != nil || rec.TokenVersion != mc.ver || mfaTokenSpent(tx, mc.jti) {
			return ErrInvalidToken
		}
		if rec.TOTP == nil || !rec.TOTP.Confirmed {
			return ErrInvalidToken // turned off since: sign in again
		}
		if !s.spendCode(rec.TOTP, code) {
			return ErrInvalidCode
		}
		if err := s.spendMFAToken(tx, mc); err != nil {
			return err
		}
		return putUser(tx, rec)
	})
	if err != nil {
		return nil, err
	}
	return s.startSession(mc.id, c)
}

// spendCode accepts a TOTP code newer than the last accepted one, or an
// unused recovery code, and records it as used (the caller writes t).
func (s *Service) spendCode(t *totpState, code string) bool {
	code = strings.TrimSpace(code)
	if step, ok := matchTOTP(t.Secret, code, s.now()); ok {
		if step <= t.LastStep {
			return false // a replay
		}
		t.LastStep = step
		return true
	}
	h := hashRecoveryCode(code)
	for i, have := range t.RecoveryHashes {
		if subtle.ConstantTimeCompare([]byte(have), []byte(h)) == 1 {
			t.RecoveryHashes = append(t.RecoveryHashes[:i:i], t.RecoveryHashes[i+1:]...)
			return true
		}
	}
	return false
}

// matchTOTP finds the time step (within the skew) whose code is code.
func matchTOTP(secret, code string, now time.Time) (int64, bool) {
	if len(code) != 6 || strings.Trim(code, "0123456789") != "" {
		return 0, false
	}
	opts := totp.ValidateOpts{Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}
	base := now.Unix() / totpPeriod
	for d := -totpSkew; d <= totpSkew; d++ {
		step := base + int64(d)
		want, err := totp.GenerateCodeCustom(secret, time.Unix(step*totpPeriod, 0), opts)
		if err == nil && subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return step, true
		}
	}
	return 0, false
}

// newRecoveryCode is 10 characters of base32 (50 bits) as xxxxx-xxxxx.
func newRecoveryCode() string {
	raw := strings.ToLower(base32.StdEncoding.EncodeToString(random.Bytes(7))[:10])
	return raw[:5] + "-" + raw[5:]
}

// hashRecoveryCode normalises a typed recovery code (case, spaces, the
// dash) and hashes it.
func hashRecoveryCode(code string) string {
	norm := strings.ToLower(strings.NewReplacer("-", "", " ", "").Replace(strings.TrimSpace(code)))
	sum := sha256.Sum256([]byte("devhub recovery code v1:" + norm))
	return hex.EncodeToString(sum[:])
}

// mfaClaims are the claims of the token between password and code. It is
// signed with its own key (derived from the JWT secret), so it can never
// pass as an access token, and it carries the user's token version, so a
// password change or "sign out everywhere" voids it.
type mfaClaims struct {
	jwt.RegisteredClaims
	Ver uint64 `json:"ver"`
}

func (s *Service) mfaKey() []byte {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte("devhub mfa token v1"))
	return m.Sum(nil)
}

// challenge issues the token between password and code.
func (s *Service) challenge(rec *userRecord) (*Challenge, error) {
	now := s.now()
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, mfaClaims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer: tokenIssuer, Subject: strconv.FormatUint(rec.ID, 10), Audience: jwt.ClaimStrings{"mfa"},
			IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(MFATokenTTL)), ID: random.Token(16),
		},
		Ver: rec.TokenVersion,
	}).SignedString(s.mfaKey())
	if err != nil {
		return nil, err
	}
	methods := []string{"totp"}
	if len(rec.Passkeys) > 0 {
		methods = append(methods, "passkey")
	}
	return &Challenge{MFARequired: true, MFAToken: tok, Methods: methods}, nil
}

// mfaToken is what a valid token between password and code says: whose
// it is, the user's token version it was issued under, its id (jti) and
// when it expires.
type mfaToken struct {
	id, ver uint64
	jti     string
	expires time.Time
}

func (s *Service) parseMFAToken(token string) (*mfaToken, error) {
	if token == "" || len(token) > MaxAccessTokenBytes {
		return nil, ErrInvalidToken
	}
	var c mfaClaims
	p := jwt.NewParser(jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithExpirationRequired(),
		jwt.WithStrictDecoding(), jwt.WithIssuer(tokenIssuer), jwt.WithAudience("mfa"), jwt.WithTimeFunc(s.now))
	if _, err := p.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return s.mfaKey(), nil }); err != nil {
		return nil, ErrInvalidToken
	}
	id, err := strconv.ParseUint(c.Subject, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("mfa token subject: %w", ErrInvalidToken)
	}
	if c.ID == "" {
		return nil, fmt.Errorf("mfa token without an id: %w", ErrInvalidToken)
	}
	return &mfaToken{id: id, ver: c.Ver, jti: c.ID, expires: c.ExpiresAt.Time}, nil
}

// bucketMFASpent holds the ids of the tokens between password and code that
// already started a session: jti → the token's expiry (unix seconds), kept
// until then (Sweep deletes them after), so a spent token stays spent across
// restarts for as long as it could otherwise be used.
const bucketMFASpent = "auth_mfa_spent"

// mfaTokenSpent reports whether the token with id jti already started a
// session.
func mfaTokenSpent(tx *bolt.Tx, jti string) bool {
	return tx.Bucket([]byte(bucketMFASpent)).Get([]byte(jti)) != nil
}

// spendMFAToken records that t started a session. It runs in the write
// transaction that accepts the second factor, so of two exchanges of one
// token at the same moment only the first one commits; the other sees it
// spent.
func (s *Service) spendMFAToken(tx *bolt.Tx, t *mfaToken) error {
	if mfaTokenSpent(tx, t.jti) {
		return ErrInvalidToken
	}
	return tx.Bucket([]byte(bucketMFASpent)).Put([]byte(t.jti), store.Itob(uint64(t.expires.Unix())))
}

// sweepSpentMFATokens deletes the spent-token records whose tokens have
// expired (an expired token is refused on its own).
func sweepSpentMFATokens(tx *bolt.Tx, now time.Time) error {
	b := tx.Bucket([]byte(bucketMFASpent))
	var dead [][]byte
	if err := b.ForEach(func(k, v []byte) error {
		if int64(store.Btoi(v)) < now.Unix() {
			dead = append(dead, append([]byte(nil), k...))
		}
		return nil
	}); err != nil {
		return err
	}
	for _, k := range dead {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}
