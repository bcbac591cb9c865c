package server

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/mail/smtptest"
	"github.com/devhub/devhub/pkg/usecase"
)

// newMailFlowApp is the accounts app with mail on (delivering to an SMTP
// server in the test process), auth.verify_email at verify and the mail
// hooks set as serve sets them.
func newMailFlowApp(t *testing.T, verify string) *resetApp {
	t.Helper()
	srv := smtptest.Start(t)
	const publicURL = "https://devhub.test"
	a := newAuthApp(t, func(c *config.Config) {
		c.Server.PublicURL = publicURL
		c.Auth.VerifyEmail = verify
	})
	q := startMailQueue(t, a, srv)
	hooks := &usecase.Hub{Auth: a.svc, Audit: a.services.Audit, Mail: q, PublicURL: publicURL}
	a.services.ConfirmNewEmail = hooks.MailEmailChangeLink
	a.remount(t, func(cfg *config.Config) {
		cfg.Auth.VerifyEmail = verify
		cfg.Server.PublicURL = publicURL
	})
	return &resetApp{authApp: a, smtp: srv}
}

var linkInMail = regexp.MustCompile(`https://devhub\.test/verify-email\?token=([0-9a-f]+)`)

// mailed waits for the n-th mail and returns its recipient, its text and
// the token of its link ("" when it has none).
func (ra *resetApp) mailed(t *testing.T, n int) (to, text, token string) {
	t.Helper()
	got := ra.smtp.Wait(t, n, 10*time.Second)[n-1]
	text, _, err := got.Parts()
	if err != nil {
		t.Fatal(err)
	}
	if m := linkInMail.FindStringSubmatch(text); m != nil {
		token = m[1]
	}
	return got.To[0], text, token
}

const registerNew = `{"name":"New","email":"new@example.org","password":"password 123","confirmPassword":"password 123","lang":"en"}`

// Under auth.verify_email required a registration gets no session; the
// mailed link is what lets the account sign in, once.
func TestVerifyEmailRequired(t *testing.T) {
	ra := newMailFlowApp(t, auth.VerifyRequired)
	var token string
	runScenarios(t, sameApp(ra.testApp), []apiScenario{
		{Name: "the policy is public", URL: "/api/auth/registration", ExpectedStatus: 200,
			ExpectedContent: []string{`"verifyEmail":"required"`}},
		{Name: "registered without a session", Method: "POST", URL: "/api/auth/register", Body: registerNew,
			ExpectedStatus: 202, ExpectedContent: []string{`"verificationRequired":true`, `"emailVerified":false`},
			NotExpectedContent: []string{"accessToken"},
			AfterTest: func(t *testing.T, resp *http.Response, _ string) {
				if c := resp.Header.Get("Set-Cookie"); c != "" {
					t.Errorf("a refresh cookie before verification: %s", c)
				}
				to, text, tok := ra.mailed(t, 1)
				if to != "new@example.org" || tok == "" || !strings.Contains(text, "Confirm my address") {
					t.Fatalf("verification mail to %s:\n%s", to, text)
				}
				token = tok
			}},
		{Name: "sign-in refused until verified", Method: "POST", URL: "/api/auth/login",
			Body: `{"email":"new@example.org","password":"password 123"}`, ExpectedStatus: 403,
			ExpectedContent: []string{`"code":"unverified"`, "not verified"}},
		{Name: "a wrong password says nothing of it", Method: "POST", URL: "/api/auth/login",
			Body: `{"email":"new@example.org","password":"wrong password"}`, ExpectedStatus: 401,
			NotExpectedContent: []string{"unverified"}},
		{Name: "unknown token", Method: "POST", URL: "/api/auth/verify-email", Body: `{"token":"00ff"}`,
			ExpectedStatus: 400, ExpectedContent: []string{`"token"`, "invalid, used or expired"}},
		{Name: "no token", Method: "POST", URL: "/api/auth/verify-email", Body: `{}`,
			ExpectedStatus: 400, ExpectedContent: []string{`"token"`}},
	})
	runScenarios(t, sameApp(ra.testApp), []apiScenario{
		{Name: "the link verifies", Method: "POST", URL: "/api/auth/verify-email", Body: `{"token":"` + token + `"}`,
			ExpectedStatus: 200, ExpectedContent: []string{`"purpose":"verify"`, `"email":"new@example.org"`}},
		{Name: "the link is spent", Method: "POST", URL: "/api/auth/verify-email", Body: `{"token":"` + token + `"}`,
			ExpectedStatus: 400, ExpectedContent: []string{"invalid, used or expired"}},
		{Name: "now the account signs in", Method: "POST", URL: "/api/auth/login",
			Body: `{"email":"new@example.org","password":"password 123"}`, ExpectedStatus: 200,
			ExpectedContent: []string{`"emailVerified":true`}},
	})
}

// Asking for the link again answers the same whatever the address, mails
// only an account that waits for one, and is refused past the network's
// budget.
func TestResendVerification(t *testing.T) {
	ra := newMailFlowApp(t, auth.VerifyRequired)
	ra.call(t, "POST", "/api/auth/register", registerNew)
	ra.mailed(t, 1)
	same := []string{"if an account with this address waits for verification"}
	scenarios := []apiScenario{
		{Name: "unknown address", Method: "POST", URL: "/api/auth/verify-email/resend", Body: `{"email":"nobody@example.org"}`,
			ExpectedStatus: 202, ExpectedContent: same},
		{Name: "a verified account (made by the owner)", Method: "POST", URL: "/api/auth/verify-email/resend",
			Body: `{"email":"owner@example.org"}`, ExpectedStatus: 202, ExpectedContent: same},
		{Name: "waiting account", Method: "POST", URL: "/api/auth/verify-email/resend", Body: `{"email":"NEW@example.org","lang":"uk"}`,
			ExpectedStatus: 202, ExpectedContent: same,
			AfterTest: func(t *testing.T, _ *http.Response, _ string) {
				if to, text, tok := ra.mailed(t, 2); to != "new@example.org" || tok == "" || !strings.Contains(text, "Підтвердити адресу") {
					t.Fatalf("second link to %s:\n%s", to, text)
				}
			}},
		{Name: "not an address", Method: "POST", URL: "/api/auth/verify-email/resend", Body: `{"email":"new"}`,
			ExpectedStatus: 400, ExpectedContent: []string{`"email"`}},
	}
	if _, err := ra.svc.CreateUser(context.Background(), auth.NewUser{Email: "owner@example.org", Name: "O", Password: "password 123"}); err != nil {
		t.Fatal(err)
	}
	runScenarios(t, sameApp(ra.testApp), scenarios)
	// Three requests were counted above (the invalid address is refused
	// before the budget); the network's budget is five.
	for i := 0; i < auth.VerifyMaxPerNetwork-3; i++ {
		if resp, body := ra.call(t, "POST", "/api/auth/verify-email/resend", `{"email":"nobody@example.org"}`); resp.StatusCode != 202 {
			t.Fatalf("request %d: %d %s", i+4, resp.StatusCode, body)
		}
	}
	resp, body := ra.call(t, "POST", "/api/auth/verify-email/resend", `{"email":"nobody@example.org"}`)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("past the budget: %d %s", resp.StatusCode, body)
	}
	time.Sleep(200 * time.Millisecond)
	if n := len(ra.smtp.Messages()); n != 2 {
		t.Fatalf("%d mails, want 2 (the registration's and the waiting account's)", n)
	}
}

// Under optional the new account is signed in at once and its profile
// says it is not verified yet.
func TestVerifyEmailOptional(t *testing.T) {
	ra := newMailFlowApp(t, auth.VerifyOptional)
	resp, body := ra.call(t, "POST", "/api/auth/register", registerNew)
	if resp.StatusCode != 201 || !strings.Contains(string(body), `"accessToken"`) || !strings.Contains(string(body), `"emailVerified":false`) {
		t.Fatalf("register: %d %s", resp.StatusCode, body)
	}
	if to, _, tok := ra.mailed(t, 1); to != "new@example.org" || tok == "" {
		t.Fatalf("no verification link to %s", to)
	}
	if resp, body := ra.call(t, "POST", "/api/auth/login", `{"email":"new@example.org","password":"password 123"}`); resp.StatusCode != 200 {
		t.Fatalf("login: %d %s", resp.StatusCode, body)
	}
}

// With mail on, a change of e-mail waits for the link sent to the new
// address; opening it moves the account and tells the old address.
func TestEmailChangeConfirmedByMail(t *testing.T) {
	ra := newMailFlowApp(t, auth.VerifyOff)
	if _, err := ra.svc.CreateUser(context.Background(), auth.NewUser{Email: "ann@example.org", Name: "Ann", Password: "password 123"}); err != nil {
		t.Fatal(err)
	}
	_, signedIn := ra.login(t, "ann@example.org", "password 123")
	tok := signedIn.Tokens.AccessToken
	var token string
	runScenarios(t, sameApp(ra.testApp), []apiScenario{
		{Name: "wrong password: nothing mailed", Method: "POST", URL: "/api/auth/email", Token: tok,
			Body: `{"email":"ann@new.example","password":"wrong"}`, ExpectedStatus: 400, ExpectedContent: []string{"wrong_password"}},
		{Name: "asked", Method: "POST", URL: "/api/auth/email", Token: tok,
			Body: `{"email":"ann@new.example","password":"password 123","lang":"ru"}`, ExpectedStatus: 200,
			ExpectedContent: []string{`"pending":true`, `"email":"ann@example.org"`},
			AfterTest: func(t *testing.T, _ *http.Response, _ string) {
				to, text, tk := ra.mailed(t, 1)
				if to != "ann@new.example" || tk == "" || !strings.Contains(text, "Подтвердить новый адрес") {
					t.Fatalf("confirmation to %s:\n%s", to, text)
				}
				token = tk
			}},
		{Name: "not changed yet", URL: "/api/auth/profile", Token: tok, ExpectedStatus: 200,
			ExpectedContent: []string{`"email":"ann@example.org"`}},
	})
	runScenarios(t, sameApp(ra.testApp), []apiScenario{
		{Name: "confirmed", Method: "POST", URL: "/api/auth/verify-email", Body: `{"token":"` + token + `"}`,
			ExpectedStatus: 200, ExpectedContent: []string{`"purpose":"email_change"`, `"email":"ann@new.example"`},
			AfterTest: func(t *testing.T, _ *http.Response, _ string) {
				if to, text, _ := ra.mailed(t, 2); to != "ann@example.org" || !strings.Contains(text, "ann@new.example") {
					t.Fatalf("notice to %s:\n%s", to, text)
				}
			}},
		{Name: "the link is spent", Method: "POST", URL: "/api/auth/verify-email", Body: `{"token":"` + token + `"}`,
			ExpectedStatus: 400},
		{Name: "changed", URL: "/api/auth/profile", Token: tok, ExpectedStatus: 200,
			ExpectedContent: []string{`"email":"ann@new.example"`, `"emailVerified":true`}},
	})
}

// Without mail nothing about verification is offered and a change of
// e-mail is made at once, as before.
func TestMailFlowsOffWithoutMail(t *testing.T) {
	a := newAuthApp(t, nil)
	if _, err := a.svc.CreateUser(context.Background(), auth.NewUser{Email: "ann@example.org", Name: "Ann", Password: "password 123"}); err != nil {
		t.Fatal(err)
	}
	_, signedIn := a.login(t, "ann@example.org", "password 123")
	tok := signedIn.Tokens.AccessToken
	runScenarios(t, sameApp(a.testApp), []apiScenario{
		{Name: "policy off", URL: "/api/auth/registration", ExpectedStatus: 200, ExpectedContent: []string{`"verifyEmail":"off"`}},
		{Name: "no resend", Method: "POST", URL: "/api/auth/verify-email/resend", Body: `{"email":"ann@example.org"}`, ExpectedStatus: 404},
		{Name: "changed at once", Method: "POST", URL: "/api/auth/email", Token: tok,
			Body: `{"email":"ann@new.example","password":"password 123"}`, ExpectedStatus: 200,
			ExpectedContent: []string{`"pending":false`, `"email":"ann@new.example"`}},
	})
}
