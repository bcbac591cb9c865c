package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/config"
)

func TestOwnSessions(t *testing.T) {
	a := newAuthApp(t, nil)
	laptop := a.register(t, "s@example.com", "password1")
	_, phone := a.login(t, "s@example.com", "password1", header("User-Agent", "Phone/1.0"))
	_, tablet := a.login(t, "s@example.com", "password1")
	me := bearer(laptop.Tokens.AccessToken)

	if st := a.status(t, "GET", "/api/auth/sessions", nil); st != 401 {
		t.Fatalf("without a session: %d", st)
	}
	list := func() []sessionItem {
		t.Helper()
		resp, raw := a.call(t, "GET", "/api/auth/sessions", nil, me)
		var out []sessionItem
		if json.Unmarshal(raw, &out); resp.StatusCode != 200 {
			t.Fatalf("list: %d %s", resp.StatusCode, raw)
		}
		return out
	}
	all := list()
	current, phoneID := 0, ""
	for _, x := range all {
		if x.Current {
			current++
		}
		if x.UserAgent == "Phone/1.0" {
			phoneID = x.ID
		}
	}
	if len(all) != 3 || current != 1 || phoneID == "" {
		t.Fatalf("sessions %+v", all)
	}
	// Another user's session, or an unknown one, is not there to revoke.
	other := a.register(t, "o@example.com", "password1")
	if st := a.status(t, "DELETE", "/api/auth/sessions/"+phoneID, nil, bearer(other.Tokens.AccessToken)); st != 404 {
		t.Fatalf("revoking someone else's session: %d", st)
	}
	if st := a.status(t, "DELETE", "/api/auth/sessions/nope", nil, me); st != 404 {
		t.Fatalf("unknown session: %d", st)
	}
	if st := a.status(t, "DELETE", "/api/auth/sessions/"+phoneID, nil, me); st != 204 {
		t.Fatalf("revoke the phone: %d", st)
	}
	if st := a.status(t, "GET", "/api/auth/profile", nil, bearer(phone.Tokens.AccessToken)); st != 401 {
		t.Fatalf("the phone still signed in: %d", st)
	}
	if st := a.status(t, "DELETE", "/api/auth/sessions", nil, me); st != 204 {
		t.Fatalf("sign out everywhere else: %d", st)
	}
	if st := a.status(t, "GET", "/api/auth/profile", nil, bearer(tablet.Tokens.AccessToken)); st != 401 {
		t.Fatalf("the tablet still signed in: %d", st)
	}
	if got := list(); len(got) != 1 || !got[0].Current {
		t.Fatalf("left: %+v", got)
	}
}

func TestAdminManagesUsers(t *testing.T) {
	a := newAuthApp(t, nil)
	if _, err := a.svc.CreateUser(context.Background(), auth.NewUser{Email: "boss@example.com", Name: "Boss", Password: "password1", Role: auth.RoleAdmin}); err != nil {
		t.Fatal(err)
	}
	_, admin := a.login(t, "boss@example.com", "password1")
	boss := bearer(admin.Tokens.AccessToken)
	for i := 0; i < 5; i++ {
		if _, err := a.svc.CreateUser(context.Background(), auth.NewUser{Email: fmt.Sprintf("user%d@example.com", i), Name: "U", Password: "password1", Role: auth.RoleUser}); err != nil {
			t.Fatal(err)
		}
	}
	plain := a.register(t, "plain@example.com", "password1")
	target := plain.User.ID
	path := func(suffix string) string { return fmt.Sprintf("/api/auth/admin/users/%d%s", target, suffix) }

	// Every management route is for admins only.
	for _, r := range []struct {
		method, path string
		body         any
	}{{"PATCH", path(""), map[string]string{"role": "admin"}}, {"DELETE", path(""), nil}, {"POST", path("/revoke"), nil}, {"DELETE", path("/2fa"), nil}} {
		if st := a.status(t, r.method, r.path, r.body, bearer(plain.Tokens.AccessToken)); st != 403 {
			t.Errorf("%s %s as a plain user: %d", r.method, r.path, st)
		}
		if st := a.status(t, r.method, r.path, r.body); st != 401 {
			t.Errorf("%s %s without a token: %d", r.method, r.path, st)
		}
	}

	// Search and paging.
	resp, raw := a.call(t, "GET", "/api/auth/admin/users?search=USER&page=2&limit=2", nil, boss)
	var page []auth.User
	if json.Unmarshal(raw, &page); resp.StatusCode != 200 || len(page) != 2 || resp.Header.Get("X-Total-Count") != "5" || page[0].Email != "user2@example.com" {
		t.Fatalf("search page: %d %s total %s", resp.StatusCode, raw, resp.Header.Get("X-Total-Count"))
	}
	if st := a.status(t, "GET", "/api/auth/admin/users?limit=x", nil, boss); st != 400 {
		t.Fatalf("bad limit: %d", st)
	}
	// Pages far past the end are empty: page*limit must not overflow into
	// a negative offset (a panic, answered 500).
	for _, q := range []string{"page=9223372036854775807&limit=2", "page=3&limit=4611686018427387904"} {
		if resp, raw := a.call(t, "GET", "/api/auth/admin/users?"+q, nil, boss); resp.StatusCode != 200 || string(raw) != "[]" {
			t.Fatalf("absurd page %s: %d %s", q, resp.StatusCode, raw)
		}
	}

	// Role change, with bad input.
	for _, bad := range []struct {
		path string
		body any
		want int
	}{
		{path(""), map[string]string{"role": "root"}, 400},
		{"/api/auth/admin/users/abc", map[string]string{"role": "admin"}, 400},
		{"/api/auth/admin/users/99999", map[string]string{"role": "admin"}, 404},
		{fmt.Sprintf("/api/auth/admin/users/%d", admin.User.ID), map[string]string{"role": "user"}, 409},
	} {
		if st := a.status(t, "PATCH", bad.path, bad.body, boss); st != bad.want {
			t.Errorf("PATCH %s %v: %d, want %d", bad.path, bad.body, st, bad.want)
		}
	}
	resp, raw = a.call(t, "PATCH", path(""), map[string]string{"role": "admin"}, boss)
	var u auth.User
	if json.Unmarshal(raw, &u); resp.StatusCode != 200 || u.Role != "admin" {
		t.Fatalf("promote: %d %s", resp.StatusCode, raw)
	}
	// A role change ends the user's sessions.
	if st := a.status(t, "GET", "/api/auth/profile", nil, bearer(plain.Tokens.AccessToken)); st != 401 {
		t.Fatalf("old token after a role change: %d", st)
	}
	_, again := a.login(t, "plain@example.com", "password1")
	if st := a.status(t, "POST", path("/revoke"), nil, boss); st != 204 {
		t.Fatalf("revoke: %d", st)
	}
	if st := a.status(t, "GET", "/api/auth/profile", nil, bearer(again.Tokens.AccessToken)); st != 401 {
		t.Fatalf("token after revoke: %d", st)
	}
	if st := a.status(t, "DELETE", path("/2fa"), nil, boss); st != 409 {
		t.Fatalf("reset 2fa while off: %d", st)
	}
	if st := a.status(t, "DELETE", path("?files=burn"), nil, boss); st != 400 {
		t.Fatalf("bad files mode: %d", st)
	}
	if st := a.status(t, "DELETE", path("?files=keep"), nil, boss); st != 204 {
		t.Fatalf("delete: %d", st)
	}
	if st := a.status(t, "DELETE", path(""), nil, boss); st != 404 {
		t.Fatalf("delete again: %d", st)
	}
	if resp, _ := a.login(t, "plain@example.com", "password1"); resp.StatusCode != 401 {
		t.Fatalf("a deleted user signs in: %d", resp.StatusCode)
	}
}

func TestRegistrationPolicies(t *testing.T) {
	form := func(email, invite string) map[string]string {
		return map[string]string{"name": "N", "email": email, "password": "password1", "confirmPassword": "password1", "invite": invite}
	}
	t.Run("closed", func(t *testing.T) {
		a := newAuthApp(t, func(c *config.Config) { c.Auth.Registration = "closed" })
		resp, raw := a.call(t, "GET", "/api/auth/registration", nil)
		if resp.StatusCode != 200 || string(raw) != `{"policy":"closed","verifyEmail":"off"}` {
			t.Fatalf("policy: %d %s", resp.StatusCode, raw)
		}
		if st := a.status(t, "POST", "/api/auth/register", form("x@example.com", "")); st != 403 {
			t.Fatalf("register while closed: %d", st)
		}
	})
	t.Run("invite", func(t *testing.T) {
		a := newAuthApp(t, func(c *config.Config) { c.Auth.Registration = "invite" })
		if _, err := a.svc.CreateUser(context.Background(), auth.NewUser{Email: "boss@example.com", Name: "Boss", Password: "password1", Role: auth.RoleAdmin}); err != nil {
			t.Fatal(err)
		}
		_, admin := a.login(t, "boss@example.com", "password1")
		boss := bearer(admin.Tokens.AccessToken)
		resp, raw := a.call(t, "POST", "/api/auth/register", form("x@example.com", ""))
		if resp.StatusCode != 400 || apiErr(t, raw).Data["invite"].Code != "required" {
			t.Fatalf("register without a code: %d %s", resp.StatusCode, raw)
		}
		for _, bad := range []map[string]string{{"expiresIn": "soon"}, {"expiresIn": "0d"}, {"expiresIn": "400d"}} {
			if st := a.status(t, "POST", "/api/auth/admin/invites", bad, boss); st != 400 {
				t.Errorf("invite %v: %d", bad, st)
			}
		}
		resp, raw = a.call(t, "POST", "/api/auth/admin/invites", map[string]string{"expiresIn": "2d"}, boss)
		var inv struct {
			ID, Code  string
			ExpiresAt time.Time
		}
		if json.Unmarshal(raw, &inv); resp.StatusCode != 201 || inv.Code == "" || time.Until(inv.ExpiresAt) < 47*time.Hour {
			t.Fatalf("create invite: %d %s", resp.StatusCode, raw)
		}
		if resp, raw := a.call(t, "POST", "/api/auth/register", form("x@example.com", "not-a-code")); resp.StatusCode != 400 || apiErr(t, raw).Data["invite"].Code != "invalid" {
			t.Fatalf("register with a wrong code: %d %s", resp.StatusCode, raw)
		}
		if st := a.status(t, "POST", "/api/auth/register", form("x@example.com", inv.Code)); st != 201 {
			t.Fatalf("register with the code: %d", st)
		}
		if st := a.status(t, "POST", "/api/auth/register", form("y@example.com", inv.Code)); st != 400 {
			t.Fatalf("the code used twice: %d", st)
		}
		// A code whose account cannot be created stays usable.
		_, raw = a.call(t, "POST", "/api/auth/admin/invites", nil, boss)
		json.Unmarshal(raw, &inv)
		if st := a.status(t, "POST", "/api/auth/register", form("x@example.com", inv.Code)); st != 409 {
			t.Fatalf("taken e-mail: %d", st)
		}
		resp, raw = a.call(t, "GET", "/api/auth/admin/invites", nil, boss)
		var list []auth.Invite
		if json.Unmarshal(raw, &list); resp.StatusCode != 200 || len(list) != 2 || !list[0].UsedAt.IsZero() || list[1].UsedBy != "x@example.com" {
			t.Fatalf("invites: %s", raw)
		}
		if st := a.status(t, "DELETE", "/api/auth/admin/invites/"+list[0].ID, nil, boss); st != 204 {
			t.Fatalf("withdraw: %d", st)
		}
		if st := a.status(t, "POST", "/api/auth/register", form("z@example.com", inv.Code)); st != 400 {
			t.Fatalf("a withdrawn code: %d", st)
		}
		if st := a.status(t, "DELETE", "/api/auth/admin/invites/nope", nil, boss); st != 404 {
			t.Fatalf("withdraw an unknown one: %d", st)
		}
		_, user := a.login(t, "x@example.com", "password1")
		if st := a.status(t, "POST", "/api/auth/admin/invites", nil, bearer(user.Tokens.AccessToken)); st != 403 {
			t.Fatalf("a plain user makes an invite: %d", st)
		}
	})
}

func TestAuditLog(t *testing.T) {
	a := newAuthApp(t, nil)
	if _, err := a.svc.CreateUser(context.Background(), auth.NewUser{Email: "boss@example.com", Name: "Boss", Password: "password1", Role: auth.RoleAdmin}); err != nil {
		t.Fatal(err)
	}
	_, admin := a.login(t, "boss@example.com", "password1")
	boss := bearer(admin.Tokens.AccessToken)
	plain := a.register(t, "p@example.com", "password1")
	a.login(t, "p@example.com", "wrong-password")
	a.call(t, "PATCH", fmt.Sprintf("/api/auth/admin/users/%d", plain.User.ID), map[string]string{"role": "admin"}, boss)
	a.call(t, "POST", fmt.Sprintf("/api/auth/admin/users/%d/revoke", plain.User.ID), nil, boss)

	type page struct {
		Events []audit.Event
		Next   *uint64
	}
	get := func(q string) (int, page) {
		resp, raw := a.call(t, "GET", "/api/audit"+q, nil, boss)
		var p page
		json.Unmarshal(raw, &p)
		return resp.StatusCode, p
	}
	code, all := get("")
	var types []string
	for _, e := range all.Events {
		types = append(types, e.Type)
	}
	want := "[sessions.revoked role.changed signin.failed user.created signin]"
	if code != 200 || fmt.Sprint(types) != want || all.Next != nil {
		t.Fatalf("events %d %v, want %s", code, types, want)
	}
	rc := all.Events[1]
	if rc.Actor != "boss@example.com" || rc.Target != "p@example.com" || rc.Details["to"] != "admin" || rc.IP == "" {
		t.Fatalf("role change event %+v", rc)
	}
	if _, p := get("?type=signin"); len(p.Events) != 2 {
		t.Fatalf("type filter: %+v", p.Events)
	}
	if _, p := get("?limit=2"); len(p.Events) != 2 || p.Next == nil {
		t.Fatalf("page: %+v", p)
	} else if _, p2 := get(fmt.Sprintf("?limit=2&before=%d", *p.Next)); len(p2.Events) != 2 || p2.Events[0].Type != "signin.failed" {
		t.Fatalf("next page: %+v", p2.Events)
	}
	for _, bad := range []string{"?limit=x", "?before=abc", "?since=yesterday"} {
		if code, _ := get(bad); code != 400 {
			t.Errorf("%s: %d", bad, code)
		}
	}
	// Demoted again, the user is refused.
	a.call(t, "PATCH", fmt.Sprintf("/api/auth/admin/users/%d", plain.User.ID), map[string]string{"role": "user"}, boss)
	_, user := a.login(t, "p@example.com", "password1")
	if st := a.status(t, "GET", "/api/audit", nil, bearer(user.Tokens.AccessToken)); st != 403 {
		t.Fatalf("a plain user reads the audit log: %d", st)
	}
}

// Beginning passkey ceremonies is limited per client network: the ones
// waiting at once are bounded, and without a limit one client could push
// out everyone else's sign-in in progress by beginning thousands.
func TestPasskeyBeginsAreLimited(t *testing.T) {
	a := newAuthApp(t, func(c *config.Config) { c.Server.TrustedProxies = []string{"0.0.0.0/32"} })
	me := a.register(t, "pk@example.com", "password1")
	from := func(ip string) reqOpt { return header("X-Forwarded-For", ip) }
	tests := []struct {
		name, path string
		body       any
		opts       []reqOpt
	}{
		{"sign-in", "/api/auth/passkeys/login/begin", nil, nil},
		{"adding one", "/api/auth/passkeys/register/begin", nil, []reqOpt{bearer(me.Tokens.AccessToken)}},
		{"second step", "/api/auth/login/2fa/passkey/begin", map[string]string{"mfaToken": "nope"}, nil},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ip := "203.0.113." + strconv.Itoa(i+1)
			for n := 0; n < passkeyBeginsPerMinute; n++ {
				if st := a.status(t, "POST", tc.path, tc.body, append(tc.opts, from(ip))...); st == 429 {
					t.Fatalf("begin %d of %d refused", n+1, passkeyBeginsPerMinute)
				}
			}
			resp, body := a.call(t, "POST", tc.path, tc.body, append(tc.opts, from(ip))...)
			if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
				t.Fatalf("begin past the limit: %d %s (Retry-After %q)", resp.StatusCode, body, resp.Header.Get("Retry-After"))
			}
			if st := a.status(t, "POST", tc.path, tc.body, append(tc.opts, from("198.51.100.9"))...); st == 429 {
				t.Fatal("another network was refused too")
			}
		})
	}
}

// A site reached by an IP address cannot hold passkeys (WebAuthn binds
// them to a domain): every ceremony says so in a 400, not a 500.
func TestPasskeysOnAnIPAddress(t *testing.T) {
	a := newAuthApp(t, nil)
	me := a.register(t, "pk@example.com", "password1")
	for _, host := range []string{"127.0.0.1:8080", "192.168.1.10", "[::1]:8080"} {
		onHost := func(r *http.Request) { r.Host = host }
		for _, path := range []string{"/api/auth/passkeys/register/begin", "/api/auth/passkeys/login/begin"} {
			resp, body := a.call(t, "POST", path, nil, bearer(me.Tokens.AccessToken), onHost)
			if resp.StatusCode != 400 || !strings.Contains(string(body), "not an IP address") {
				t.Errorf("%s on %s: %d %s", path, host, resp.StatusCode, body)
			}
		}
	}
	resp, body := a.call(t, "POST", "/api/auth/passkeys/login/begin", nil, func(r *http.Request) { r.Host = "devhub.local:8080" })
	if resp.StatusCode != 200 {
		t.Fatalf("on a host name: %d %s", resp.StatusCode, body)
	}
}

// The passkey routes' guards and bad input; the ceremonies themselves are
// verified in pkg/auth (a software authenticator) and in the browser
// suite (Chromium's virtual authenticator).
func TestPasskeyRoutes(t *testing.T) {
	a := newAuthApp(t, nil)
	me := a.register(t, "pk@example.com", "password1")
	tok := bearer(me.Tokens.AccessToken)
	for _, r := range []struct{ method, path string }{
		{"GET", "/api/auth/passkeys"}, {"DELETE", "/api/auth/passkeys/x"},
		{"POST", "/api/auth/passkeys/register/begin"}, {"POST", "/api/auth/passkeys/register/finish"},
	} {
		if st := a.status(t, r.method, r.path, map[string]string{}); st != 401 {
			t.Errorf("%s %s without a session: %d", r.method, r.path, st)
		}
	}
	resp, raw := a.call(t, "POST", "/api/auth/passkeys/register/begin", nil, tok)
	var cer struct {
		CeremonyID string `json:"ceremonyId"`
		Options    struct {
			PublicKey struct {
				Challenge string              `json:"challenge"`
				RP        struct{ ID string } `json:"rp"`
			} `json:"publicKey"`
		} `json:"options"`
	}
	if json.Unmarshal(raw, &cer); resp.StatusCode != 200 || cer.CeremonyID == "" || cer.Options.PublicKey.Challenge == "" || cer.Options.PublicKey.RP.ID != "example.com" {
		t.Fatalf("register begin: %d %s", resp.StatusCode, raw)
	}
	if st := a.status(t, "POST", "/api/auth/passkeys/register/finish", map[string]any{"ceremonyId": cer.CeremonyID, "credential": map[string]string{"id": "x"}}, tok); st != 400 {
		t.Fatalf("register finish with garbage: %d", st)
	}
	resp, raw = a.call(t, "POST", "/api/auth/passkeys/login/begin", nil)
	if json.Unmarshal(raw, &cer); resp.StatusCode != 200 || cer.CeremonyID == "" {
		t.Fatalf("login begin: %d %s", resp.StatusCode, raw)
	}
	if st := a.status(t, "POST", "/api/auth/passkeys/login/finish", map[string]any{"ceremonyId": cer.CeremonyID, "credential": map[string]string{"id": "x"}}); st != 401 {
		t.Fatalf("login finish with garbage: %d", st)
	}
	if st := a.status(t, "POST", "/api/auth/passkeys/login/finish", map[string]any{"ceremonyId": "unknown", "credential": map[string]string{}}); st != 400 {
		t.Fatalf("unknown ceremony: %d", st)
	}
	if st := a.status(t, "POST", "/api/auth/login/2fa/passkey/begin", map[string]string{"mfaToken": "nope"}); st != 401 {
		t.Fatalf("second factor with a bad token: %d", st)
	}
	if st := a.status(t, "DELETE", "/api/auth/passkeys/unknown", nil, tok); st != 404 {
		t.Fatalf("delete an unknown passkey: %d", st)
	}
	resp, raw = a.call(t, "GET", "/api/auth/passkeys", nil, tok)
	if resp.StatusCode != 200 || string(raw) != "[]" {
		t.Fatalf("list: %d %s", resp.StatusCode, raw)
	}
}
