package server

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// FuzzAuthBodies: any body posted to the sign-in, registration and refresh
// routes is answered with a client error or success in the JSON shape,
// never a 500.
func FuzzAuthBodies(f *testing.F) {
	for _, s := range []string{`{"email":"a@example.com","password":"password1"}`, `{"email":1}`, `[]`, `null`, `{`,
		`{"name":"\u202e","email":"x@example.com","password":"password1","confirmPassword":"password1"}`,
		`{"refreshToken":"a.b.c"}`, `{"email":"` + strings.Repeat("a", 5000) + `@x.y","password":"p"}`, "\xff\xfe"} {
		f.Add(s, uint8(0))
	}
	paths := []string{"/api/auth/login", "/api/auth/register", "/api/auth/refresh", "/api/auth/logout"}
	f.Fuzz(func(t *testing.T, body string, which uint8) {
		a := newAuthApp(t, nil)
		path := paths[int(which)%len(paths)]
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, raw := a.do(t, req)
		if resp.StatusCode >= 500 {
			t.Fatalf("POST %s %q: %d %s", path, body, resp.StatusCode, raw)
		}
		if resp.StatusCode >= 400 && !bytes.Contains(raw, []byte(`"status"`)) {
			t.Fatalf("POST %s %q: %d without the error shape: %s", path, body, resp.StatusCode, raw)
		}
	})
}

// FuzzBlogQuery: any query string on the article list is a list or a 400.
func FuzzBlogQuery(f *testing.F) {
	for _, s := range []string{"limit=5&page=2", "page=-1", "limit=99999999999999999999", "search=%00%ff", "category=&search=ёжик",
		"page=1e3", "limit=0x10", "search=" + strings.Repeat("a", 3000)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		ta := newBlogTestApp(t, nil)
		u := "/api/blog?" + q
		if _, err := url.ParseRequestURI(u); err != nil || strings.ContainsFunc(q, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
			return // not a request line a client can send
		}
		code, body := ta.do(t, "GET", u, "", "")
		if code != 200 && code != 400 {
			t.Fatalf("GET %s: %d %s", u, code, body)
		}
	})
}

// FuzzRomservPath: no path under /romserv reaches a file outside roms/,
// and none makes the server fail.
func FuzzRomservPath(f *testing.F) {
	for _, s := range []string{"nes/Super_Game.nes", "../secret.txt", "..%2fsecret.txt", "nes/..%2f..%2fsecret.txt", "up/secret.txt",
		`nes\..\..\secret.txt`, "%2e%2e/secret.txt", "nes/%00", "consoles/nes/games?search=%ff", "nes/images/Super_Game.png"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		target := "/romserv/" + p
		if _, err := url.ParseRequestURI(target); err != nil || strings.ContainsFunc(p, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
			return
		}
		fx := newRomsFixture(t, nil)
		resp, body := fx.ta.do(t, httptest.NewRequest(http.MethodGet, target, nil))
		if resp.StatusCode >= 500 {
			t.Fatalf("GET %s: %d %s", target, resp.StatusCode, body)
		}
		if bytes.Contains(body, []byte("TOP SECRET")) {
			t.Fatalf("GET %s served a file outside roms/", target)
		}
	})
}
