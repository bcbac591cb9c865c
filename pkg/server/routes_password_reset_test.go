package server

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/mail/smtptest"
)

// resetApp is the accounts app with mail on, delivering to an SMTP server
// in the test process.
type resetApp struct {
	*authApp
	smtp *smtptest.Server
}

func newResetApp(t *testing.T, publicURL string) *resetApp {
	t.Helper()
	srv := smtptest.Start(t)
	var ra *resetApp
	a := newAuthApp(t, func(c *config.Config) {
		c.Server.PublicURL = publicURL
		c.Mail = config.Mail{Host: srv.Host, Port: srv.Port, Security: "none", From: "devhub <noreply@devhub.test>"}
	})
	ra = &resetApp{authApp: a, smtp: srv}
	startMailQueue(t, a, srv)
	a.remount(t, func(cfg *config.Config) { cfg.Server.PublicURL = publicURL })
	if _, err := a.svc.CreateUser(context.Background(), auth.NewUser{Email: "ann@example.org", Name: "Ann", Password: "old password 1"}); err != nil {
		t.Fatal(err)
	}
	return ra
}

var tokenInMail = regexp.MustCompile(`https://devhub\.test/reset-password\?token=([0-9a-f]+)`)

func (ra *resetApp) mailedToken(t *testing.T, n int) string {
	t.Helper()
	got := ra.smtp.Wait(t, n, 10*time.Second)[n-1]
	text, _, err := got.Parts()
	if err != nil {
		t.Fatal(err)
	}
	m := tokenInMail.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no reset link in the mail:\n%s", got.Raw)
	}
	return m[1]
}

func TestPasswordResetByMail(t *testing.T) {
	ra := newResetApp(t, "https://devhub.test")
	// A session that the reset must end.
	resp, body := ra.call(t, "POST", "/api/auth/login", `{"email":"ann@example.org","password":"old password 1"}`)
	if resp.StatusCode != 200 {
		t.Fatalf("login %d %s", resp.StatusCode, body)
	}
	var signedIn struct {
		Tokens struct{ AccessToken string } `json:"tokens"`
	}
	json.Unmarshal(body, &signedIn)

	var token string
	runScenarios(t, sameApp(ra.testApp), []apiScenario{
		{Name: "offered", URL: "/api/auth/password/forgot", ExpectedStatus: 200, ExpectedContent: []string{`"available":true`}},
		{Name: "unknown address: the same answer", Method: "POST", URL: "/api/auth/password/forgot",
			Body: `{"email":"nobody@example.org"}`, ExpectedStatus: 202, ExpectedContent: []string{"if an account has this address"}},
		{Name: "known address", Method: "POST", URL: "/api/auth/password/forgot",
			Body: `{"email":"ANN@example.org","lang":"en"}`, ExpectedStatus: 202, ExpectedContent: []string{"if an account has this address"},
			AfterTest: func(t *testing.T, _ *http.Response, _ string) { token = ra.mailedToken(t, 1) }},
		{Name: "not an address", Method: "POST", URL: "/api/auth/password/forgot", Body: `{"email":"ann"}`, ExpectedStatus: 400,
			ExpectedContent: []string{`"email"`}},
		{Name: "bad JSON", Method: "POST", URL: "/api/auth/password/forgot", Body: `{"email":`, ExpectedStatus: 400},
		{Name: "wrong token", Method: "POST", URL: "/api/auth/password/reset", Body: `{"token":"00ff","newPassword":"new password 2"}`,
			ExpectedStatus: 400, ExpectedContent: []string{`"token"`, "invalid, used or expired"}},
		{Name: "no token", Method: "POST", URL: "/api/auth/password/reset", Body: `{"newPassword":"new password 2"}`,
			ExpectedStatus: 400, ExpectedContent: []string{`"token"`}},
	})
	if got := ra.smtp.Messages(); len(got) != 1 || got[0].To[0] != "ann@example.org" {
		t.Fatalf("mails: %+v (only the known address gets one)", got)
	}
	runScenarios(t, sameApp(ra.testApp), []apiScenario{
		{Name: "too short a password keeps the token", Method: "POST", URL: "/api/auth/password/reset",
			Body: `{"token":"` + token + `","newPassword":"short"}`, ExpectedStatus: 400, ExpectedContent: []string{`"newPassword"`}},
		{Name: "reset", Method: "POST", URL: "/api/auth/password/reset",
			Body: `{"token":"` + token + `","newPassword":"new password 2"}`, ExpectedStatus: 200},
		{Name: "the token is spent", Method: "POST", URL: "/api/auth/password/reset",
			Body: `{"token":"` + token + `","newPassword":"new password 3"}`, ExpectedStatus: 400, ExpectedContent: []string{"invalid, used or expired"}},
		{Name: "the old session ended", URL: "/api/auth/profile", Token: signedIn.Tokens.AccessToken, ExpectedStatus: 401},
		{Name: "the old password is gone", Method: "POST", URL: "/api/auth/login",
			Body: `{"email":"ann@example.org","password":"old password 1"}`, ExpectedStatus: 401},
		{Name: "the new one works", Method: "POST", URL: "/api/auth/login",
			Body: `{"email":"ann@example.org","password":"new password 2"}`, ExpectedStatus: 200},
	})
}

func TestPasswordResetMailIsInTheAskedLanguage(t *testing.T) {
	ra := newResetApp(t, "https://devhub.test")
	for i, lang := range []string{"uk", "ru", "en"} {
		resp, body := ra.call(t, "POST", "/api/auth/password/forgot", `{"email":"ann@example.org","lang":"`+lang+`"}`)
		if resp.StatusCode != 202 {
			t.Fatalf("%d %s", resp.StatusCode, body)
		}
		got := ra.smtp.Wait(t, i+1, 10*time.Second)[i]
		if h := got.Header().Get("Content-Language"); h != lang {
			t.Fatalf("mail %d language %q, want %q", i, h, lang)
		}
	}
}

func TestPasswordResetIsThrottled(t *testing.T) {
	ra := newResetApp(t, "https://devhub.test")
	runScenarios(t, sameApp(ra.testApp), limitScenarios("/api/auth/password/forgot", auth.ResetMaxPerNetwork, 202,
		func(int) string { return `{"email":"ann@example.org"}` }, `{"email":"someone@example.org"}`))
	// Only ResetMaxPerAccount links went to the account.
	ra.smtp.Wait(t, auth.ResetMaxPerAccount, 10*time.Second)
	ra.testApp.app.Shutdown()
	if n := len(ra.smtp.Messages()); n != auth.ResetMaxPerAccount {
		t.Fatalf("%d mails to one account, want %d", n, auth.ResetMaxPerAccount)
	}
}

func TestPasswordResetIsOffWithoutMailOrPublicURL(t *testing.T) {
	tests := []struct {
		name string
		app  func(t *testing.T) *testApp
	}{
		{"mail off", func(t *testing.T) *testApp { return newAuthApp(t, nil).testApp }},
		{"no public url", func(t *testing.T) *testApp { return newResetApp(t, "").testApp }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runScenarios(t, tc.app, []apiScenario{
				{Name: "not offered", URL: "/api/auth/password/forgot", ExpectedStatus: 200, ExpectedContent: []string{`"available":false`}},
				{Name: "refused", Method: "POST", URL: "/api/auth/password/forgot", Body: `{"email":"ann@example.org"}`, ExpectedStatus: 404},
			})
		})
	}
}
