package server

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
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

// FuzzRangeHeader: any Range / If-Range pair gives a section inside the
// file or an unsatisfiable range — never one that starts past the end,
// runs over it or has a negative length.
func FuzzRangeHeader(f *testing.F) {
	for _, s := range []string{"bytes=0-99", "bytes=-1", "bytes=5-", "bytes=99999-", "bytes=0-0,5-6", "bytes=-0", "items=0-1",
		"bytes= 10 - 20 ", "bytes=18446744073709551615-", "bytes=-18446744073709551616", "bytes=+1-2", "bytes=1--2", ""} {
		f.Add(s, "", int64(1000))
	}
	f.Add("bytes=0-9", `"abc"`, int64(50))
	f.Add("bytes=0-9", "Mon, 02 Jan 2006 15:04:05 GMT", int64(0))
	f.Fuzz(func(t *testing.T, header, ifRange string, size int64) {
		if size < 0 {
			size = -size
		}
		size %= 1 << 40
		start, length, partial, err := byteRange(header, ifRange, `"abc"`, time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC), size)
		if err != nil {
			return
		}
		if start < 0 || length < 0 || start+length > size || (!partial && (start != 0 || length != size)) {
			t.Fatalf("Range %q If-Range %q on %d bytes: start %d length %d partial %v", header, ifRange, size, start, length, partial)
		}
		if partial && (length == 0 || start >= size) {
			t.Fatalf("Range %q on %d bytes: an empty or out-of-file partial answer (%d+%d)", header, size, start, length)
		}
	})
}

// FuzzArticleJSON: any article body an admin's client sends is stored as
// a valid article or refused with a 400, never a 500.
func FuzzArticleJSON(f *testing.F) {
	for _, s := range []string{`{"name":"A","excerpt":"e","category":"c","content":"x"}`, `{"name":1}`, `{}`, `[]`, `null`,
		`{"name":"A","excerpt":"e","category":"c","content":"x","image_url":"javascript:alert(1)"}`,
		`{"name":"A","excerpt":"e","category":"c","content":"x","image_url":"//evil.example/x.png"}`,
		`{"name":"` + strings.Repeat("я", 500) + `","excerpt":"e","category":"c","content":"x"}`, `{"slug":"../../x","name":"A"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		ta := newBlogTestApp(t, nil)
		code, out := ta.do(t, "POST", "/api/blog", blogAdminToken, body)
		if code != 201 && code != 400 && code != 409 {
			t.Fatalf("POST /api/blog %q: %d %s", body, code, out)
		}
	})
}
