package auth

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/store"
)

func newVerifyService(t *testing.T, mode string) (*Service, *clock) {
	t.Helper()
	clk := &clock{now: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
	cfg := config.Default().Auth
	cfg.VerifyEmail = mode
	s, err := New(openStore(t), cfg, WithHashParams(cheapParams), WithClock(clk.Now), WithSleep(clk.Sleep))
	if err != nil {
		t.Fatal(err)
	}
	return s, clk
}

// What a registration gives under each auth.verify_email policy, and
// whether the new account may then sign in.
func TestRegisterUnderVerifyEmail(t *testing.T) {
	for _, tc := range []struct {
		mode                         string
		verified, session, canSignIn bool
	}{
		{VerifyOff, true, true, true},
		{VerifyOptional, false, true, true},
		{VerifyRequired, false, false, false},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			s, _ := newVerifyService(t, tc.mode)
			res := register(t, s, "new@example.com", "password1")
			if res.User.EmailVerified != tc.verified {
				t.Errorf("emailVerified = %v, want %v", res.User.EmailVerified, tc.verified)
			}
			if got := res.Tokens.AccessToken != ""; got != tc.session || res.VerificationRequired == tc.session {
				t.Errorf("session = %v, verificationRequired = %v; want session %v", got, res.VerificationRequired, tc.session)
			}
			_, err := s.Login(context.Background(), "new@example.com", "password1", client)
			if (err == nil) != tc.canSignIn {
				t.Fatalf("sign-in: %v, want allowed %v", err, tc.canSignIn)
			}
			if !tc.canSignIn && !errors.Is(err, ErrEmailUnverified) {
				t.Fatalf("sign-in refused with %v, want ErrEmailUnverified", err)
			}
			// A wrong password never tells that the account is unverified.
			if _, err := s.Login(context.Background(), "new@example.com", "wrong password", client); !errors.Is(err, ErrInvalidCredentials) {
				t.Fatalf("wrong password: %v", err)
			}
		})
	}
}

// Accounts the owner or an admin makes count as verified, so required
// verification never locks them out.
func TestCreatedAccountsAreVerified(t *testing.T) {
	s, _ := newVerifyService(t, VerifyRequired)
	u, err := s.CreateUser(context.Background(), NewUser{Email: "made@example.com", Name: "M", Password: "password1"})
	if err != nil {
		t.Fatal(err)
	}
	if !u.EmailVerified {
		t.Fatal("a created account is not verified")
	}
	if _, err := s.Login(context.Background(), "made@example.com", "password1", client); err != nil {
		t.Fatal(err)
	}
	if l, err := s.VerificationLink(context.Background(), u.ID); err != nil || l != nil {
		t.Fatalf("a verified account got a link: %v %v", l, err)
	}
}

// A verification link verifies once; an unknown, spent or expired one, or
// one for an address the account left, changes nothing.
func TestConfirmVerificationLink(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		before func(s *Service, clk *clock, l *EmailLink)
		token  func(l *EmailLink) string
		ok     bool
	}{
		{"fresh link", nil, func(l *EmailLink) string { return l.Token }, true},
		{"unknown token", nil, func(*EmailLink) string { return "0123456789abcdef" }, false},
		{"empty token", nil, func(*EmailLink) string { return "" }, false},
		{"expired", func(_ *Service, clk *clock, _ *EmailLink) { clk.Add(EmailTokenTTL + time.Second) },
			func(l *EmailLink) string { return l.Token }, false},
		{"spent", func(s *Service, _ *clock, l *EmailLink) {
			if _, err := s.ConfirmEmail(ctx, l.Token); err != nil {
				t.Fatal(err)
			}
		}, func(l *EmailLink) string { return l.Token }, false},
		{"address changed since", func(s *Service, _ *clock, l *EmailLink) {
			if _, err := s.SetEmail(ctx, l.User.ID, "other@example.com"); err != nil {
				t.Fatal(err)
			}
		}, func(l *EmailLink) string { return l.Token }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, clk := newVerifyService(t, VerifyRequired)
			res := register(t, s, "new@example.com", "password1")
			l, err := s.VerificationLink(ctx, res.User.ID)
			if err != nil || l == nil || l.To != "new@example.com" || l.Purpose != PurposeVerify {
				t.Fatalf("link: %+v %v", l, err)
			}
			if tc.before != nil {
				tc.before(s, clk, l)
			}
			got, err := s.ConfirmEmail(ctx, tc.token(l))
			if !tc.ok {
				var verr *store.ValidationError
				if !errors.As(err, &verr) || verr.Fields["token"].Code == "" {
					t.Fatalf("want a token refusal, got %v", err)
				}
				return
			}
			if err != nil || got.Purpose != PurposeVerify || !got.User.EmailVerified {
				t.Fatalf("confirm: %+v %v", got, err)
			}
			if _, err := s.Login(ctx, "new@example.com", "password1", client); err != nil {
				t.Fatalf("a verified account cannot sign in: %v", err)
			}
			if u, _ := s.UserByID(res.User.ID); !u.EmailVerified {
				t.Fatal("verification not kept")
			}
		})
	}
}

// Asking for the link again answers the same for any address and mails
// at most VerifyMaxPerAccount links an hour; a network is refused past
// VerifyMaxPerNetwork requests.
func TestResendVerificationThrottle(t *testing.T) {
	ctx := context.Background()
	s, clk := newVerifyService(t, VerifyOptional)
	register(t, s, "new@example.com", "password1")
	if l, err := s.ResendVerification(ctx, "nobody@example.com"); l != nil || err != nil {
		t.Fatalf("unknown address: %v %v", l, err)
	}
	for i := range VerifyMaxPerAccount {
		if l, err := s.ResendVerification(ctx, "NEW@example.com "); l == nil || err != nil {
			t.Fatalf("link %d: %v %v", i+1, l, err)
		}
	}
	if l, err := s.ResendVerification(ctx, "new@example.com"); l != nil || err != nil {
		t.Fatalf("link past the account's budget: %v %v", l, err)
	}
	clk.Add(VerifyAccountWindow + time.Second)
	if l, _ := s.ResendVerification(ctx, "new@example.com"); l == nil {
		t.Fatal("no link after the window")
	}
	for i := range VerifyMaxPerNetwork {
		if err := s.AllowVerifyRequest(client); err != nil {
			t.Fatalf("request %d refused: %v", i+1, err)
		}
	}
	if err := s.AllowVerifyRequest(client); store.KindOf(err) != store.KindRateLimited {
		t.Fatalf("request past the network's budget: %v", err)
	}
}

// A change of e-mail confirmed by the link sent to the new address moves
// the account there (verified); only the latest link counts, and an
// address taken meanwhile is refused.
func TestConfirmEmailChange(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		between func(s *Service, first *EmailLink)
		field   string
	}{
		{"confirmed", nil, ""},
		{"superseded by a later change", func(s *Service, first *EmailLink) {
			if _, err := s.EmailChangeLink(ctx, first.User.ID, "later@example.com", ""); err != nil {
				t.Fatal(err)
			}
		}, "token"},
		{"address taken meanwhile", func(s *Service, _ *EmailLink) {
			register(t, s, "next@example.com", "password2")
		}, "email"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newVerifyService(t, VerifyOptional)
			res := register(t, s, "old@example.com", "password1")
			l, err := s.EmailChangeLink(ctx, res.User.ID, "Next@Example.com", "en")
			if err != nil || l.To != "next@example.com" || l.Lang != "en" {
				t.Fatalf("link: %+v %v", l, err)
			}
			if u, _ := s.UserByID(res.User.ID); u.Email != "old@example.com" {
				t.Fatalf("the address changed before the link was opened: %s", u.Email)
			}
			if tc.between != nil {
				tc.between(s, l)
			}
			got, err := s.ConfirmEmail(ctx, l.Token)
			if tc.field != "" {
				var verr *store.ValidationError
				if !errors.As(err, &verr) || verr.Fields[tc.field].Code == "" {
					t.Fatalf("want a refusal of %s, got %v", tc.field, err)
				}
				if u, _ := s.UserByID(res.User.ID); u.Email != "old@example.com" {
					t.Fatalf("moved to %s", u.Email)
				}
				return
			}
			if err != nil || got.Purpose != PurposeEmailChange || got.OldEmail != "old@example.com" ||
				got.User.Email != "next@example.com" || !got.User.EmailVerified {
				t.Fatalf("confirm: %+v %v", got, err)
			}
			if _, err := s.Login(ctx, "next@example.com", "password1", client); err != nil {
				t.Fatalf("sign-in at the new address: %v", err)
			}
			if _, err := s.ConfirmEmail(ctx, l.Token); err == nil {
				t.Fatal("the link worked twice")
			}
		})
	}
}

// A pending change of e-mail is spent when the account's password is reset
// or changed, or its address is set another way: whoever started the change
// (a thief with the session and the password) cannot finish it from the new
// mailbox once the owner has taken the account back, and a link never moves
// the account to an address it no longer asks for.
func TestPasswordAndAddressChangesSpendEmailChangeLinks(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		between func(t *testing.T, s *Service, id uint64)
	}{
		{"password reset", func(t *testing.T, s *Service, _ uint64) {
			req, err := s.CreatePasswordReset(ctx, "old@example.com")
			if err != nil || req == nil {
				t.Fatalf("reset link: %v %v", req, err)
			}
			if _, err := s.ResetPassword(ctx, req.Token, "a new password 1", client); err != nil {
				t.Fatal(err)
			}
		}},
		{"password change", func(t *testing.T, s *Service, _ uint64) {
			res, err := s.Login(ctx, "old@example.com", "password1", client)
			if err != nil {
				t.Fatal(err)
			}
			p, err := s.Authenticate(res.Tokens.AccessToken)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.ChangePassword(ctx, p, "password1", "a new password 1", client); err != nil {
				t.Fatal(err)
			}
		}},
		{"address set directly", func(t *testing.T, s *Service, id uint64) {
			if _, err := s.SetEmail(ctx, id, "other@example.com"); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newVerifyService(t, VerifyOptional)
			res := register(t, s, "old@example.com", "password1")
			l, err := s.EmailChangeLink(ctx, res.User.ID, "thief@example.com", "")
			if err != nil {
				t.Fatal(err)
			}
			tc.between(t, s, res.User.ID)
			if _, err := s.ConfirmEmail(ctx, l.Token); err == nil {
				t.Fatal("the pending change's link still worked")
			}
			if u, _ := s.UserByID(res.User.ID); u.Email == "thief@example.com" {
				t.Fatalf("moved to %s", u.Email)
			}
		})
	}
}
