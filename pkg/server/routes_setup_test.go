package server

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// setupApp is a server whose store has no admin and whose first-run link
// was made; clock moves its accounts' time.
func setupApp(t *testing.T) (ta *testApp, svc *auth.Service, token string, clock *atomic.Int64) {
	t.Helper()
	st := storetest.Open(t)
	cfg := config.Default()
	cfg.Auth.JWTSecret = authTestSecret
	clock = &atomic.Int64{}
	clock.Store(time.Now().UnixNano())
	svc = newTestAuth(t, st, cfg.Auth, auth.WithClock(func() time.Time { return time.Unix(0, clock.Load()) }))
	auditSvc, err := audit.New(st, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	setup := auth.NewOwnerSetup(svc)
	token, ok, err := setup.Begin()
	if err != nil || !ok {
		t.Fatalf("no first-run link on an empty store: %v", err)
	}
	ta = newTestApp(t, func(o *Options) {
		o.Config = cfg
		o.Services = &Services{Store: st, Auth: svc, Audit: auditSvc, Authenticate: svc.Authenticate, Setup: setup}
	})
	return ta, svc, token, clock
}

func TestSetupOwnerLink(t *testing.T) {
	ta, _, token, _ := setupApp(t)
	same := func(*testing.T) *testApp { return ta }
	owner := func(tok, email, confirm string) string {
		return `{"token":"` + tok + `","name":"Owner","email":"` + email + `","password":"correct horse battery","confirmPassword":"` + confirm + `"}`
	}
	runScenarios(t, same, []apiScenario{
		{Name: "a wrong token is dead", Method: "POST", URL: "/api/setup/check", Body: `{"token":"nope"}`,
			ExpectedStatus: http.StatusNotFound, ExpectedContent: []string{"no longer valid"}},
		{Name: "no token", Method: "POST", URL: "/api/setup/check", Body: `{}`, ExpectedStatus: http.StatusNotFound},
		{Name: "not JSON", Method: "POST", URL: "/api/setup/check", Body: `token=x`,
			Headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, ExpectedStatus: http.StatusUnsupportedMediaType},
		{Name: "malformed JSON", Method: "POST", URL: "/api/setup/check", Body: `{"token":`, ExpectedStatus: http.StatusBadRequest},
		{Name: "the live link", Method: "POST", URL: "/api/setup/check", Body: `{"token":"` + token + `"}`, ExpectedStatus: http.StatusNoContent},
		{Name: "from another site", Method: "POST", URL: "/api/setup/owner", Body: owner(token, "owner@example.org", "correct horse battery"),
			Headers: map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}, ExpectedStatus: http.StatusForbidden},
		{Name: "passwords differ", Method: "POST", URL: "/api/setup/owner", Body: owner(token, "owner@example.org", "other"),
			ExpectedStatus: http.StatusBadRequest, ExpectedContent: []string{"confirmPassword", "mismatch"}},
		{Name: "bad e-mail", Method: "POST", URL: "/api/setup/owner", Body: owner(token, "not-an-address", "correct horse battery"),
			ExpectedStatus: http.StatusBadRequest, ExpectedContent: []string{`"email"`}},
		{Name: "a wrong token creates nothing", Method: "POST", URL: "/api/setup/owner", Body: owner("nope", "owner@example.org", "correct horse battery"),
			ExpectedStatus: http.StatusNotFound},
		{Name: "the link is still live after refused forms", Method: "POST", URL: "/api/setup/check", Body: `{"token":"` + token + `"}`,
			ExpectedStatus: http.StatusNoContent},
		{Name: "the owner is created and signed in", Method: "POST", URL: "/api/setup/owner", Body: owner(token, "owner@example.org", "correct horse battery"),
			ExpectedStatus: http.StatusCreated, ExpectedContent: []string{`"role":"admin"`, `"accessToken"`},
			AfterTest: func(t *testing.T, resp *http.Response, _ string) {
				if cookieOf(resp, refreshCookie) == nil {
					t.Fatal("no refresh cookie: the owner is not signed in in the browser")
				}
			}},
		{Name: "the used link is dead", Method: "POST", URL: "/api/setup/check", Body: `{"token":"` + token + `"}`, ExpectedStatus: http.StatusNotFound},
		{Name: "the used link creates no second admin", Method: "POST", URL: "/api/setup/owner", Body: owner(token, "second@example.org", "correct horse battery"),
			ExpectedStatus: http.StatusNotFound},
	})
}

// The link dies once an admin exists by other means, and after an hour.
func TestSetupOwnerLinkDies(t *testing.T) {
	for _, tc := range []struct {
		name string
		kill func(svc *auth.Service, clock *atomic.Int64)
	}{
		{"admin made at the terminal", func(svc *auth.Service, _ *atomic.Int64) {
			if _, err := svc.CreateUser(context.Background(), auth.NewUser{Email: "cli@example.org", Name: "CLI", Password: "correct horse battery", Role: auth.RoleAdmin}); err != nil {
				panic(err)
			}
		}},
		{"an hour passed", func(_ *auth.Service, clock *atomic.Int64) { clock.Add(int64(auth.OwnerSetupTTL)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ta, svc, token, clock := setupApp(t)
			tc.kill(svc, clock)
			runScenarios(t, func(*testing.T) *testApp { return ta }, []apiScenario{
				{Name: "check", Method: "POST", URL: "/api/setup/check", Body: `{"token":"` + token + `"}`, ExpectedStatus: http.StatusNotFound},
				{Name: "owner", Method: "POST", URL: "/api/setup/owner", ExpectedStatus: http.StatusNotFound,
					Body: `{"token":"` + token + `","name":"X","email":"x@example.org","password":"correct horse battery","confirmPassword":"correct horse battery"}`},
			})
		})
	}
}

// No link is made on a store that has an admin.
func TestSetupOwnerNoLinkWithAdmin(t *testing.T) {
	_, svc, _, _ := setupApp(t)
	if _, err := svc.CreateUser(context.Background(), auth.NewUser{Email: "a@example.org", Name: "A", Password: "correct horse battery", Role: auth.RoleAdmin}); err != nil {
		t.Fatal(err)
	}
	if tok, ok, err := auth.NewOwnerSetup(svc).Begin(); ok || tok != "" || err != nil {
		t.Fatalf("a link was made with an admin present: %q %v %v", tok, ok, err)
	}
}
