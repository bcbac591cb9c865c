package server

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/devhub/devhub/pkg/auth"
)

// One middleware checks the bearer token and stores one principal;
// requireUser, requireAdmin and requireSession only look at it.
func TestAuthMiddlewareChecks(t *testing.T) {
	a := newAuthApp(t, nil)
	if _, err := a.svc.CreateUser(context.Background(), auth.NewUser{Email: "boss@example.com", Name: "B", Password: "password1", Role: auth.RoleAdmin}); err != nil {
		t.Fatal(err)
	}
	session := a.register(t, "user@example.com", "password1").Tokens.AccessToken
	resp, adminAns := a.login(t, "boss@example.com", "password1")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("login: %d", resp.StatusCode)
	}
	var checks atomic.Int64
	real := a.services.Authenticate
	a.services.Authenticate = func(tok string) (*auth.Principal, error) {
		checks.Add(1)
		switch tok {
		case "sessionless-admin":
			// Vouched for without a session (as another authenticator could).
			return &auth.Principal{User: auth.User{ID: 99, Email: "x@example.com", Role: auth.RoleAdmin}}, nil
		}
		return real(tok)
	}
	for _, tc := range []struct {
		name, method, path, token string
		want                      int
	}{
		{"no token, session route", "GET", "/api/auth/profile", "", 401},
		{"no token, admin route", "GET", "/api/auth/admin/users", "", 401},
		{"bad token", "GET", "/api/auth/profile", "nope", 401},
		{"user, session route", "GET", "/api/auth/profile", session, 200},
		{"user, own sessions", "GET", "/api/auth/sessions", session, 200},
		{"user, admin route", "GET", "/api/auth/admin/users", session, 403},
		{"admin, admin route", "GET", "/api/auth/admin/users", adminAns.Tokens.AccessToken, 200},
		{"sessionless, admin route", "GET", "/api/auth/admin/users", "sessionless-admin", 200},
		{"sessionless, session route", "GET", "/api/auth/profile", "sessionless-admin", 401},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checks.Store(0)
			var opts []reqOpt
			if tc.token != "" {
				opts = append(opts, bearer(tc.token))
			}
			resp, body := a.call(t, tc.method, tc.path, nil, opts...)
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.want, body)
			}
			if n := checks.Load(); tc.token != "" && n != 1 {
				t.Fatalf("token checked %d times, want once", n)
			}
		})
	}
}
