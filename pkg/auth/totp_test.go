package auth

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"
	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/config"
)

func codeAt(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	c, err := totp.GenerateCode(secret, at)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// enrolTOTP turns two-factor sign-in on for a fresh account and returns
// the service, clock, principal, secret and recovery codes.
func enrolTOTP(t *testing.T) (*Service, *clock, *Principal, string, []string) {
	t.Helper()
	s, clk := newTestService(t)
	res := register(t, s, "mfa@example.com", "password1")
	p, err := s.Authenticate(res.Tokens.AccessToken)
	if err != nil {
		t.Fatal(err)
	}
	en, err := s.BeginTOTP(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(en.OTPAuthURL, "otpauth://totp/devhub:mfa@example.com?") || !strings.Contains(en.OTPAuthURL, "secret="+en.Secret) {
		t.Fatalf("otpauth URL %q", en.OTPAuthURL)
	}
	codes, _, err := s.ConfirmTOTP(context.Background(), p, codeAt(t, en.Secret, clk.Now()), false, client)
	if err != nil {
		t.Fatal(err)
	}
	clk.Add(31 * time.Second) // the confirming code is spent
	return s, clk, p, en.Secret, codes
}

func TestTOTPEnrolment(t *testing.T) {
	s, clk := newTestService(t)
	res := register(t, s, "e@example.com", "password1")
	p, _ := s.Authenticate(res.Tokens.AccessToken)
	if _, _, err := s.ConfirmTOTP(context.Background(), p, "123456", false, client); !errors.Is(err, ErrTOTPNotPending) {
		t.Fatalf("confirm before enrolment: %v", err)
	}
	en, _ := s.BeginTOTP(context.Background(), p)
	for _, bad := range []string{"12345", "1234567", "abcdef", wrongCode(t, en.Secret, clk.Now())} {
		if _, _, err := s.ConfirmTOTP(context.Background(), p, bad, false, client); !errors.Is(err, ErrInvalidCode) {
			t.Fatalf("confirm with %q: %v", bad, err)
		}
	}
	if st, _ := s.TwoFactor("e@example.com"); st.TOTP {
		t.Fatal("a pending enrolment counts as on")
	}
	codes, _, err := s.ConfirmTOTP(context.Background(), p, codeAt(t, en.Secret, clk.Now()), false, client)
	if err != nil || len(codes) != RecoveryCodeCount {
		t.Fatalf("confirm: %v %v", codes, err)
	}
	seen := map[string]bool{}
	for _, c := range codes {
		if len(c) != 11 || c[5] != '-' || seen[c] {
			t.Fatalf("recovery codes %v", codes)
		}
		seen[c] = true
	}
	if st, _ := s.TwoFactor("e@example.com"); !st.TOTP || st.RecoveryCodesLeft != RecoveryCodeCount {
		t.Fatalf("status %+v", st)
	}
	if _, err := s.BeginTOTP(context.Background(), p); !errors.Is(err, ErrTOTPAlreadyOn) {
		t.Fatalf("enrol again while on: %v", err)
	}
}

// wrongCode is a six-digit code that is not valid around at.
func wrongCode(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	valid := map[string]bool{}
	for d := -2; d <= 2; d++ {
		valid[codeAt(t, secret, at.Add(time.Duration(d)*30*time.Second))] = true
	}
	for _, c := range []string{"000000", "111111", "222222", "333333", "444444", "555555"} {
		if !valid[c] {
			return c
		}
	}
	t.Fatal("no wrong code found")
	return ""
}

func TestTOTPSignIn(t *testing.T) {
	s, clk, _, secret, recovery := enrolTOTP(t)
	login := func() string {
		t.Helper()
		res, err := s.Login(context.Background(), "mfa@example.com", "password1", client)
		if err != nil || res.Challenge == nil || !res.Challenge.MFARequired || res.Tokens.AccessToken != "" {
			t.Fatalf("password step: %+v %v", res, err)
		}
		return res.Challenge.MFAToken
	}
	tok := login()
	// The token between password and code is good for nothing else.
	if _, err := s.Authenticate(tok); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("mfa token as an access token: %v", err)
	}
	if _, err := s.Refresh(context.Background(), tok, client); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("mfa token as a refresh token: %v", err)
	}
	if _, err := s.LoginMFA(context.Background(), tok, wrongCode(t, secret, clk.Now()), client); !errors.Is(err, ErrInvalidCode) {
		t.Fatalf("wrong code: %v", err)
	}
	code := codeAt(t, secret, clk.Now())
	res, err := s.LoginMFA(context.Background(), tok, code, client)
	if err != nil || res.Tokens.AccessToken == "" {
		t.Fatalf("right code: %v", err)
	}
	if _, err := s.Authenticate(res.Tokens.AccessToken); err != nil {
		t.Fatalf("session after the code: %v", err)
	}
	// The same code again, even with a fresh password step: a replay.
	if _, err := s.LoginMFA(context.Background(), login(), code, client); !errors.Is(err, ErrInvalidCode) {
		t.Fatalf("replayed code: %v", err)
	}
	// An older code within the skew is a replay too.
	if _, err := s.LoginMFA(context.Background(), login(), codeAt(t, secret, clk.Now().Add(-30*time.Second)), client); !errors.Is(err, ErrInvalidCode) {
		t.Fatalf("an earlier step's code: %v", err)
	}
	// Recovery codes work once each, typed in any case and spacing.
	if _, err := s.LoginMFA(context.Background(), login(), strings.ToUpper(strings.ReplaceAll(recovery[0], "-", " ")), client); err != nil {
		t.Fatalf("recovery code: %v", err)
	}
	if _, err := s.LoginMFA(context.Background(), login(), recovery[0], client); !errors.Is(err, ErrInvalidCode) {
		t.Fatalf("recovery code reused: %v", err)
	}
	if st, _ := s.TwoFactor("mfa@example.com"); st.RecoveryCodesLeft != RecoveryCodeCount-1 {
		t.Fatalf("recovery codes left %d", st.RecoveryCodesLeft)
	}
	// An expired token.
	old := login()
	clk.Add(MFATokenTTL + time.Second)
	if _, err := s.LoginMFA(context.Background(), old, codeAt(t, secret, clk.Now()), client); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("expired mfa token: %v", err)
	}
	for _, bad := range []string{"", "garbage", "a.b.c", res.Tokens.AccessToken} {
		if _, err := s.LoginMFA(context.Background(), bad, codeAt(t, secret, clk.Now()), client); !errors.Is(err, ErrInvalidToken) {
			t.Fatalf("mfa token %q: %v", bad, err)
		}
	}
}

// Wrong codes count against the password throttle: five from one network
// and the sixth is refused, even with the right code.
func TestTOTPWrongCodesAreThrottled(t *testing.T) {
	s, clk, _, secret, _ := enrolTOTP(t)
	attacker := Client{IP: netip.MustParseAddr("198.51.100.7")}
	res, err := s.Login(context.Background(), "mfa@example.com", "password1", attacker)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < LoginMaxFailures; i++ {
		if _, err := s.LoginMFA(context.Background(), res.Challenge.MFAToken, wrongCode(t, secret, clk.Now()), attacker); !errors.Is(err, ErrInvalidCode) {
			t.Fatalf("guess %d: %v", i+1, err)
		}
	}
	var te *ThrottledError
	if _, err := s.LoginMFA(context.Background(), res.Challenge.MFAToken, codeAt(t, secret, clk.Now()), attacker); !errors.As(err, &te) {
		t.Fatalf("sixth code from the guessing network: %v", err)
	}
}

func TestTOTPDisableAndReset(t *testing.T) {
	s, clk, p, secret, recovery := enrolTOTP(t)
	if err := s.DisableTOTP(context.Background(), p, wrongCode(t, secret, clk.Now()), client); !errors.Is(err, ErrInvalidCode) {
		t.Fatalf("disable with a wrong code: %v", err)
	}
	if err := s.DisableTOTP(context.Background(), p, recovery[3], client); err != nil {
		t.Fatalf("disable with a recovery code: %v", err)
	}
	if err := s.DisableTOTP(context.Background(), p, recovery[4], client); !errors.Is(err, ErrTOTPOff) {
		t.Fatalf("disable when off: %v", err)
	}
	if res, err := s.Login(context.Background(), "mfa@example.com", "password1", client); err != nil || res.Challenge != nil {
		t.Fatalf("sign-in after disabling asks for a code: %+v %v", res, err)
	}
	// The owner's reset, for a user who lost everything.
	en, _ := s.BeginTOTP(context.Background(), p)
	if _, _, err := s.ConfirmTOTP(context.Background(), p, codeAt(t, en.Secret, clk.Now()), false, client); err != nil {
		t.Fatal(err)
	}
	if err := s.ResetTOTP(context.Background(), "MFA@example.com"); err != nil {
		t.Fatalf("reset: %v", err)
	}
	if st, _ := s.TwoFactor("mfa@example.com"); st.TOTP {
		t.Fatal("still on after a reset")
	}
	if err := s.ResetTOTP(context.Background(), "mfa@example.com"); !errors.Is(err, ErrTOTPOff) {
		t.Fatalf("reset when off: %v", err)
	}
	if err := s.ResetTOTP(context.Background(), "nobody@example.com"); err == nil {
		t.Fatal("reset of an unknown account")
	}
}

// The token between password and code works from any network: wrong codes
// are also counted per account from all networks together, so a guesser
// with the password and many networks cannot spray codes until one hits.
func TestTOTPWrongCodesFromManyNetworksAreThrottled(t *testing.T) {
	tests := []struct {
		name  string
		guess func(t *testing.T, secret string, at time.Time) string
	}{
		{"one-time codes", wrongCode},
		{"recovery codes", func(*testing.T, string, time.Time) string { return "aaaaa-aaaaa" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, clk, _, secret, _ := enrolTOTP(t)
			res, err := s.Login(context.Background(), "mfa@example.com", "password1", Client{IP: netip.MustParseAddr("198.51.100.1")})
			if err != nil {
				t.Fatal(err)
			}
			tok := res.Challenge.MFAToken
			network := func(i int) Client { return Client{IP: netip.AddrFrom4([4]byte{203, 0, byte(i >> 8), byte(i)})} }
			for i := range CodeMaxFailures {
				if _, err := s.LoginMFA(context.Background(), tok, tc.guess(t, secret, clk.Now()), network(i)); !errors.Is(err, ErrInvalidCode) {
					t.Fatalf("guess %d: %v", i+1, err)
				}
			}
			var te *ThrottledError
			_, err = s.LoginMFA(context.Background(), tok, codeAt(t, secret, clk.Now()), network(CodeMaxFailures))
			if !errors.As(err, &te) || te.What != ThrottledCodes || te.RetryAfter <= 0 || te.RetryAfter > CodeWindow {
				t.Fatalf("the right code from yet another network after %d wrong ones: %v", CodeMaxFailures, err)
			}
			clk.Add(te.RetryAfter)
			res, err = s.Login(context.Background(), "mfa@example.com", "password1", Client{IP: netip.MustParseAddr("198.51.100.1")})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.LoginMFA(context.Background(), res.Challenge.MFAToken, codeAt(t, secret, clk.Now()), network(0)); err != nil {
				t.Fatalf("after Retry-After: %v", err)
			}
		})
	}
}

// The token between password and second factor starts one session: once a
// code, a recovery code or a passkey was accepted with it, any further
// exchange within its lifetime — with a newer code, another recovery code,
// a passkey ceremony begun before, or after a restart — is refused as an
// invalid token, and the refused attempt spends nothing.
func TestMFATokenIsSingleUse(t *testing.T) {
	type env struct {
		s        *Service
		clk      *clock
		secret   string
		recovery []string
		key      *softKey
		tok      string
		// pending is a passkey ceremony begun with tok before its first
		// exchange.
		pending *Ceremony
	}
	totpCode := func(e *env) error {
		_, err := e.s.LoginMFA(context.Background(), e.tok, codeAt(t, e.secret, e.clk.Now()), client)
		return err
	}
	recoveryCode := func(i int) func(*env) error {
		return func(e *env) error {
			_, err := e.s.LoginMFA(context.Background(), e.tok, e.recovery[i], client)
			return err
		}
	}
	passkey := func(e *env) error {
		c, err := e.s.BeginPasskeySecondFactor(context.Background(), testRP, e.tok)
		if err != nil {
			return err
		}
		_, err = e.s.FinishPasskeySecondFactor(context.Background(), testRP, e.tok, c.CeremonyID, e.key.get(t, c, 1), client)
		return err
	}
	pendingPasskey := func(e *env) error {
		_, err := e.s.FinishPasskeySecondFactor(context.Background(), testRP, e.tok, e.pending.CeremonyID, e.key.get(t, e.pending, 1), client)
		return err
	}
	restarted := func(again func(*env) error) func(*env) error {
		return func(e *env) error {
			s2, err := New(e.s.st, config.Default().Auth, WithHashParams(cheapParams), WithClock(e.clk.Now), WithSleep(e.clk.Sleep))
			if err != nil {
				t.Fatal(err)
			}
			e.s = s2
			return again(e)
		}
	}
	tests := []struct {
		name         string
		first, again func(*env) error
	}{
		{"a newer code after a code", totpCode, totpCode},
		{"a recovery code after a code", totpCode, recoveryCode(0)},
		{"a code after a recovery code", recoveryCode(0), totpCode},
		{"another recovery code after a recovery code", recoveryCode(0), recoveryCode(1)},
		{"a passkey after a code", totpCode, passkey},
		{"a passkey ceremony begun before, after a code", totpCode, pendingPasskey},
		{"a code after a passkey", passkey, totpCode},
		{"a newer code after a restart", totpCode, restarted(totpCode)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, clk, p, secret, recovery := enrolTOTP(t)
			e := &env{s: s, clk: clk, secret: secret, recovery: recovery, key: registerPasskey(t, s, p)}
			res, err := s.Login(context.Background(), "mfa@example.com", "password1", client)
			if err != nil || res.Challenge == nil {
				t.Fatalf("password step: %+v %v", res, err)
			}
			e.tok = res.Challenge.MFAToken
			if e.pending, err = s.BeginPasskeySecondFactor(context.Background(), testRP, e.tok); err != nil {
				t.Fatal(err)
			}
			before, _ := s.Sessions("mfa@example.com")
			if err := tc.first(e); err != nil {
				t.Fatalf("first exchange: %v", err)
			}
			clk.Add(31 * time.Second) // a newer code exists now; the token has minutes left
			st, _ := s.TwoFactor("mfa@example.com")
			if err := tc.again(e); !errors.Is(err, ErrInvalidToken) {
				t.Fatalf("second exchange of the same token: %v, want ErrInvalidToken", err)
			}
			if after, _ := s.Sessions("mfa@example.com"); len(after) != len(before)+1 {
				t.Fatalf("sessions: %d before, %d after two exchanges; want one more", len(before), len(after))
			}
			if st2, _ := s.TwoFactor("mfa@example.com"); st2.RecoveryCodesLeft != st.RecoveryCodesLeft {
				t.Fatalf("the refused exchange spent a recovery code: %d → %d", st.RecoveryCodesLeft, st2.RecoveryCodesLeft)
			}
			// A fresh password step still works with the code the refused
			// exchange offered (it was not spent).
			res, err = e.s.Login(context.Background(), "mfa@example.com", "password1", client)
			if err != nil || res.Challenge == nil {
				t.Fatalf("password step again: %+v %v", res, err)
			}
			if _, err := e.s.LoginMFA(context.Background(), res.Challenge.MFAToken, codeAt(t, secret, clk.Now()), client); err != nil {
				t.Fatalf("a new token with the current code: %v", err)
			}
		})
	}
}

// Two exchanges of one token at the same moment, each with a different
// valid second factor: exactly one session starts.
func TestMFATokenConcurrentExchanges(t *testing.T) {
	s, clk, _, secret, recovery := enrolTOTP(t)
	res, err := s.Login(context.Background(), "mfa@example.com", "password1", client)
	if err != nil || res.Challenge == nil {
		t.Fatalf("password step: %+v %v", res, err)
	}
	codes := []string{codeAt(t, secret, clk.Now()), recovery[0], recovery[1], recovery[2]}
	errs := make(chan error, len(codes))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for _, code := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := s.LoginMFA(context.Background(), res.Challenge.MFAToken, code, client)
			errs <- err
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	ok := 0
	for err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, ErrInvalidToken):
			t.Errorf("a concurrent exchange: %v", err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d of %d concurrent exchanges of one token started a session; want 1", ok, len(codes))
	}
}

// The record of a spent token outlives the token's lifetime only until the
// next sweep.
func TestSweepForgetsExpiredSpentMFATokens(t *testing.T) {
	s, clk, _, secret, _ := enrolTOTP(t)
	res, err := s.Login(context.Background(), "mfa@example.com", "password1", client)
	if err != nil || res.Challenge == nil {
		t.Fatalf("password step: %+v %v", res, err)
	}
	if _, err := s.LoginMFA(context.Background(), res.Challenge.MFAToken, codeAt(t, secret, clk.Now()), client); err != nil {
		t.Fatal(err)
	}
	spent := func() int {
		n := 0
		_ = s.st.View(func(tx *bolt.Tx) error { n = tx.Bucket([]byte(bucketMFASpent)).Stats().KeyN; return nil })
		return n
	}
	if err := s.Sweep(context.Background()); err != nil || spent() != 1 {
		t.Fatalf("a sweep within the token's lifetime: %v, %d records", err, spent())
	}
	clk.Add(MFATokenTTL + time.Second)
	if err := s.Sweep(context.Background()); err != nil || spent() != 0 {
		t.Fatalf("a sweep after the token expired: %v, %d records", err, spent())
	}
}

// Turning two-factor sign-in on can end the sessions begun with the
// password alone; the session that confirms stays.
func TestConfirmTOTPSignsOutOtherSessions(t *testing.T) {
	tests := []struct {
		name          string
		signOutOthers bool
		wantSignedOut int
	}{
		{"others signed out", true, 2},
		{"others kept", false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, clk := newTestService(t)
			mine := register(t, s, "e@example.com", "password1")
			var others []*AuthResult
			for range 2 {
				res, err := s.Login(context.Background(), "e@example.com", "password1", client)
				if err != nil {
					t.Fatal(err)
				}
				others = append(others, res)
			}
			p, err := s.Authenticate(mine.Tokens.AccessToken)
			if err != nil {
				t.Fatal(err)
			}
			en, _ := s.BeginTOTP(context.Background(), p)
			codes, n, err := s.ConfirmTOTP(context.Background(), p, codeAt(t, en.Secret, clk.Now()), tc.signOutOthers, client)
			if err != nil || len(codes) != RecoveryCodeCount || n != tc.wantSignedOut {
				t.Fatalf("confirm: %d codes, %d signed out, %v; want %d signed out", len(codes), n, err, tc.wantSignedOut)
			}
			if _, err := s.Authenticate(mine.Tokens.AccessToken); err != nil {
				t.Fatalf("the confirming session: %v", err)
			}
			for i, o := range others {
				_, authErr := s.Authenticate(o.Tokens.AccessToken)
				_, refreshErr := s.Refresh(context.Background(), o.Tokens.RefreshToken, client)
				if tc.signOutOthers && (!errors.Is(authErr, ErrInvalidToken) || !errors.Is(refreshErr, ErrInvalidToken)) {
					t.Fatalf("other session %d after confirming with sign-out: access %v, refresh %v", i, authErr, refreshErr)
				}
				if !tc.signOutOthers && (authErr != nil || refreshErr != nil) {
					t.Fatalf("other session %d kept: access %v, refresh %v", i, authErr, refreshErr)
				}
			}
		})
	}
}

// A wrong code turns nothing on and signs nobody out.
func TestConfirmTOTPWrongCodeSignsNobodyOut(t *testing.T) {
	s, clk := newTestService(t)
	mine := register(t, s, "e@example.com", "password1")
	other, err := s.Login(context.Background(), "e@example.com", "password1", client)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := s.Authenticate(mine.Tokens.AccessToken)
	en, _ := s.BeginTOTP(context.Background(), p)
	if _, n, err := s.ConfirmTOTP(context.Background(), p, wrongCode(t, en.Secret, clk.Now()), true, client); !errors.Is(err, ErrInvalidCode) || n != 0 {
		t.Fatalf("wrong code: %d, %v", n, err)
	}
	if _, err := s.Authenticate(other.Tokens.AccessToken); err != nil {
		t.Fatalf("a wrong code ended another session: %v", err)
	}
}
