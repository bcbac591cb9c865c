package server

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/thumbs/thumbstest"
)

// selfApp is the real accounts service with a file cloud and the audit
// log, as serve wires them.
type selfApp struct {
	*authApp
	files *files.Service
	audit *audit.Service
}

func newSelfApp(t *testing.T) *selfApp {
	t.Helper()
	a := newAuthApp(t, nil)
	st := a.services.Store
	fs, err := files.New(st, filepath.Join(t.TempDir(), "uploads"), 1<<20, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fs.Close() })
	au, err := audit.New(st, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	a.services.Files, a.services.Audit = fs, au
	a.testApp = newTestApp(t, func(o *Options) {
		o.Config.Auth.JWTSecret = authTestSecret
		o.Services = a.services
	})
	return &selfApp{authApp: a, files: fs, audit: au}
}

// uploadAs stores one file as the account behind tok.
func (a *selfApp) uploadAs(t *testing.T, tok, name, data string) files.Info {
	t.Helper()
	resp, body := a.do(t, uploadRequest("/api/files/upload", tok, multipartBody(filePart(name, []byte(data)))))
	var out struct{ Files []files.Info }
	if json.Unmarshal(body, &out); resp.StatusCode != http.StatusCreated || len(out.Files) != 1 {
		t.Fatalf("upload: %d %s", resp.StatusCode, body)
	}
	return out.Files[0]
}

// lastEvent is the newest audit event of type typ.
func (a *selfApp) lastEvent(t *testing.T, typ string) audit.Event {
	t.Helper()
	evs, _, err := a.audit.List(context.Background(), audit.Query{Limit: 1, Type: typ})
	if err != nil || len(evs) == 0 {
		t.Fatalf("no audit event: %v", err)
	}
	return evs[0]
}

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		m.Set(x, 0, color.RGBA{R: 200, A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func avatarRequest(tok string, data []byte) *http.Request {
	r := httptest.NewRequest("POST", "/api/auth/profile/avatar", bytes.NewReader(data))
	r.Header.Set("Content-Type", "image/png")
	if tok != "" {
		r.Header.Set("Authorization", "Bearer "+tok)
	}
	return r
}

func TestOwnNameHTTP(t *testing.T) {
	a := newSelfApp(t)
	me := bearer(a.register(t, "n@example.com", "password1").Tokens.AccessToken)
	cases := []struct {
		name   string
		body   any
		opts   []reqOpt
		status int
		field  string
	}{
		{"no session", map[string]string{"name": "Ann"}, nil, 401, ""},
		{"no name", map[string]string{}, []reqOpt{me}, 400, ""},
		{"empty", map[string]string{"name": "  "}, []reqOpt{me}, 400, "name"},
		{"too long", map[string]string{"name": strings.Repeat("я", 101)}, []reqOpt{me}, 400, "name"},
		{"a control character", map[string]string{"name": "Ann\x07"}, []reqOpt{me}, 400, "name"},
		{"a bidi override", map[string]string{"name": "Ann\u202e"}, []reqOpt{me}, 400, "name"},
		{"not JSON", "name=Ann", []reqOpt{me, header("Content-Type", "text/plain")}, 415, ""},
		{"changed", map[string]string{"name": "  Анна Ковальчук "}, []reqOpt{me}, 200, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, raw := a.call(t, "PATCH", "/api/auth/profile", c.body, c.opts...)
			if resp.StatusCode != c.status {
				t.Fatalf("%d %s", resp.StatusCode, raw)
			}
			if c.field != "" {
				if _, ok := apiErr(t, raw).Data[c.field]; !ok {
					t.Fatalf("no %s in %s", c.field, raw)
				}
			}
		})
	}
	_, raw := a.call(t, "GET", "/api/auth/profile", nil, me)
	if !strings.Contains(string(raw), `"name":"Анна Ковальчук"`) {
		t.Fatalf("profile %s", raw)
	}
	if ev := a.lastEvent(t, audit.NameChanged); ev.Type != audit.NameChanged || ev.Details["to"] != "Анна Ковальчук" {
		t.Fatalf("audit %+v", ev)
	}
}

func TestOwnEmailHTTP(t *testing.T) {
	a := newSelfApp(t)
	me := bearer(a.register(t, "old@example.com", "password1").Tokens.AccessToken)
	a.register(t, "taken@example.com", "password1")
	cases := []struct {
		name          string
		email, pass   string
		status        int
		field, code   string
		opts          []reqOpt
		noSessionOpts bool
	}{
		{"no session", "new@example.com", "password1", 401, "", "", nil, true},
		{"wrong password", "new@example.com", "password2", 400, "password", "wrong_password", nil, false},
		{"no password", "new@example.com", "", 400, "password", "required", nil, false},
		{"malformed", "not an address", "password1", 400, "email", "invalid", nil, false},
		{"another account's", "Taken@Example.com", "password1", 400, "email", "taken", nil, false},
		// Without the password nobody learns that an address is taken.
		{"another account's, wrong password", "taken@example.com", "password2", 400, "password", "wrong_password", nil, false},
		{"the same", "OLD@example.com", "password1", 400, "email", "unchanged", nil, false},
		{"changed", " New@Example.com ", "password1", 200, "", "", nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := []reqOpt{me}
			if c.noSessionOpts {
				opts = nil
			}
			resp, raw := a.call(t, "POST", "/api/auth/email", map[string]string{"email": c.email, "password": c.pass}, opts...)
			if resp.StatusCode != c.status {
				t.Fatalf("%d %s", resp.StatusCode, raw)
			}
			if c.field != "" {
				if got := apiErr(t, raw).Data[c.field].Code; got != c.code {
					t.Fatalf("%s code %q, want %q: %s", c.field, got, c.code, raw)
				}
			}
		})
	}
	// The session goes on; sign-in is with the new address only.
	_, raw := a.call(t, "GET", "/api/auth/profile", nil, me)
	if !strings.Contains(string(raw), `"email":"new@example.com"`) {
		t.Fatalf("profile %s", raw)
	}
	if resp, _ := a.login(t, "new@example.com", "password1"); resp.StatusCode != 200 {
		t.Fatalf("sign in with the new address: %d", resp.StatusCode)
	}
	if resp, _ := a.login(t, "old@example.com", "password1"); resp.StatusCode != 401 {
		t.Fatalf("sign in with the old address: %d", resp.StatusCode)
	}
	if ev := a.lastEvent(t, audit.EmailChanged); ev.Type != audit.EmailChanged || ev.Details["from"] != "old@example.com" {
		t.Fatalf("audit %+v", ev)
	}
}

// The only administrator cannot delete their own account (the site would
// have no one to run it); once another admin exists, they can.
func TestDeleteOwnAccountLastAdmin(t *testing.T) {
	a := newSelfApp(t)
	ctx := context.Background()
	if _, err := a.services.Auth.CreateUser(ctx, auth.NewUser{Email: "boss@example.com", Name: "Boss", Password: "password1", Role: auth.RoleAdmin}); err != nil {
		t.Fatal(err)
	}
	_, ans := a.login(t, "boss@example.com", "password1")
	body := map[string]any{"password": "password1", "deleteFiles": true}
	if resp, raw := a.call(t, "DELETE", "/api/auth/profile", body, bearer(ans.Tokens.AccessToken)); resp.StatusCode != 409 {
		t.Fatalf("the only admin deleted themself: %d %s", resp.StatusCode, raw)
	}
	if _, err := a.services.Auth.CreateUser(ctx, auth.NewUser{Email: "deputy@example.com", Name: "Deputy", Password: "password1", Role: auth.RoleAdmin}); err != nil {
		t.Fatal(err)
	}
	if resp, raw := a.call(t, "DELETE", "/api/auth/profile", body, bearer(ans.Tokens.AccessToken)); resp.StatusCode != 204 {
		t.Fatalf("with a second admin: %d %s", resp.StatusCode, raw)
	}
}

func TestOwnAvatarHTTP(t *testing.T) {
	a := newSelfApp(t)
	reg := a.register(t, "pic@example.com", "password1")
	tok := reg.Tokens.AccessToken
	cases := []struct {
		name   string
		tok    string
		body   []byte
		status int
	}{
		{"no session", "", pngOf(t, 64, 64), 401},
		{"empty", tok, nil, 400},
		{"not a picture", tok, []byte("<svg xmlns='http://www.w3.org/2000/svg'/>"), 400},
		{"too small", tok, pngOf(t, 16, 300), 400},
		{"a decompression bomb (100000² announced)", tok, thumbstest.PNGHeader(100000, 100000, 8, 6, false, false), 413},
		{"over the bytes", tok, bytes.Repeat([]byte{0}, 5<<20+1), 413},
		{"corrupt after its header", tok, thumbstest.PNGHeader(64, 64, 8, 6, false, false), 400},
		{"a wide picture, cropped square", tok, pngOf(t, 600, 300), 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, raw := a.do(t, avatarRequest(c.tok, c.body))
			if resp.StatusCode != c.status {
				t.Fatalf("%d %s", resp.StatusCode, raw)
			}
		})
	}
	_, raw := a.call(t, "GET", "/api/auth/profile", nil, bearer(tok))
	var u struct{ AvatarURL string }
	json.Unmarshal(raw, &u)
	if !strings.HasPrefix(u.AvatarURL, "/api/users/") {
		t.Fatalf("profile %s", raw)
	}
	resp, body := a.call(t, "GET", u.AvatarURL, nil)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/jpeg" || !strings.Contains(resp.Header.Get("Cache-Control"), "immutable") {
		t.Fatalf("avatar: %d %v", resp.StatusCode, resp.Header)
	}
	m, err := jpeg.Decode(bytes.NewReader(body))
	if err != nil || m.Bounds().Dx() != 256 || m.Bounds().Dy() != 256 {
		t.Fatalf("avatar image %v %v", m.Bounds(), err)
	}
	if st := a.status(t, "GET", "/api/users/999/avatar", nil); st != 404 {
		t.Fatalf("no avatar: %d", st)
	}
	if st := a.status(t, "GET", "/api/users/x/avatar", nil); st != 400 {
		t.Fatalf("bad id: %d", st)
	}
	if _, raw := a.call(t, "DELETE", "/api/auth/profile/avatar", nil, bearer(tok)); strings.Contains(string(raw), "avatarUrl") {
		t.Fatalf("removed: %s", raw)
	}
	if st := a.status(t, "GET", u.AvatarURL, nil); st != 404 {
		t.Fatalf("removed avatar still served: %d", st)
	}
}

func TestOwnExportHTTP(t *testing.T) {
	a := newSelfApp(t)
	tok := a.register(t, "ex@example.com", "password1").Tokens.AccessToken
	other := a.register(t, "else@example.com", "password1").Tokens.AccessToken
	a.uploadAs(t, tok, "a.txt", "alpha")
	a.uploadAs(t, tok, "a.txt", "again")
	a.uploadAs(t, other, "theirs.txt", "not mine")
	if st := a.status(t, "GET", "/api/auth/export", nil); st != 401 {
		t.Fatalf("no session: %d", st)
	}
	resp, raw := a.call(t, "GET", "/api/auth/export", nil, bearer(tok))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/zip" ||
		!strings.HasPrefix(resp.Header.Get("Content-Disposition"), `attachment; filename="devhub-export-`) {
		t.Fatalf("export: %d %v", resp.StatusCode, resp.Header)
	}
	e := zipEntries(t, string(raw))
	if got := names(e); got != "account.json|chat.json|files/a (2).txt|files/a.txt|friends.json|messages.json|notifications.json|writing.json" {
		t.Fatalf("entries %s", got)
	}
	if e["files/a (2).txt"] != "alpha" && e["files/a.txt"] != "alpha" {
		t.Fatalf("file content %v", e)
	}
	var acct struct {
		Account  struct{ Email string }
		Sessions []map[string]any
		Files    []struct{ OriginalName, Path string }
	}
	if err := json.Unmarshal([]byte(e["account.json"]), &acct); err != nil {
		t.Fatal(err)
	}
	if acct.Account.Email != "ex@example.com" || len(acct.Sessions) != 1 || len(acct.Files) != 2 || strings.Contains(e["account.json"], "passwordHash") {
		t.Fatalf("account.json %s", e["account.json"])
	}
	if ev := a.lastEvent(t, audit.DataExported); ev.Type != audit.DataExported || ev.Details["files"] != "2" {
		t.Fatalf("audit %+v", ev)
	}
}

func TestDeleteOwnAccountHTTP(t *testing.T) {
	type fixture struct {
		a   *selfApp
		tok string
		// recovery is a recovery code of the account's second factor.
		recovery string
	}
	setup := func(t *testing.T, twoFactor bool) fixture {
		a := newSelfApp(t)
		reg := a.register(t, "bye@example.com", "password1")
		f := fixture{a: a, tok: reg.Tokens.AccessToken}
		a.uploadAs(t, f.tok, "mine.txt", "data")
		a.register(t, "stay@example.com", "password1")
		if twoFactor {
			_, raw := a.call(t, "POST", "/api/auth/2fa/totp", nil, bearer(f.tok))
			var en struct{ Secret string }
			json.Unmarshal(raw, &en)
			code, _ := totp.GenerateCode(en.Secret, time.Now())
			resp, raw := a.call(t, "POST", "/api/auth/2fa/totp/confirm", map[string]string{"code": code}, bearer(f.tok))
			var conf struct{ RecoveryCodes []string }
			if json.Unmarshal(raw, &conf); resp.StatusCode != 200 || len(conf.RecoveryCodes) == 0 {
				t.Fatalf("2fa: %d %s", resp.StatusCode, raw)
			}
			f.recovery = conf.RecoveryCodes[0]
		}
		return f
	}
	cases := []struct {
		name      string
		twoFactor bool
		body      func(f fixture) any
		status    int
		field     string
		// left is the files left afterwards, and whose they are.
		left     int
		leftUser uint64
	}{
		{"wrong password", false, func(fixture) any { return map[string]any{"password": "nope-nope", "deleteFiles": true} }, 400, "password", 1, 1},
		{"no choice about the files", false, func(fixture) any { return map[string]any{"password": "password1"} }, 400, "", 1, 1},
		{"with its files", false, func(fixture) any { return map[string]any{"password": "password1", "deleteFiles": true} }, 204, "", 0, 0},
		{"keeping its files for the admins", false, func(fixture) any { return map[string]any{"password": "password1", "deleteFiles": false} }, 204, "", 1, 0},
		{"2FA without a code", true, func(fixture) any { return map[string]any{"password": "password1", "deleteFiles": true} }, 400, "code", 1, 1},
		{"2FA with a wrong code", true, func(fixture) any {
			return map[string]any{"password": "password1", "code": "000000", "deleteFiles": true}
		}, 400, "code", 1, 1},
		{"2FA with a recovery code", true, func(f fixture) any {
			return map[string]any{"password": "password1", "code": f.recovery, "deleteFiles": true}
		}, 204, "", 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := setup(t, c.twoFactor)
			a := f.a
			resp, raw := a.call(t, "DELETE", "/api/auth/profile", c.body(f), bearer(f.tok))
			if resp.StatusCode != c.status {
				t.Fatalf("%d %s", resp.StatusCode, raw)
			}
			if c.field != "" {
				if _, ok := apiErr(t, raw).Data[c.field]; !ok {
					t.Fatalf("no %s in %s", c.field, raw)
				}
			}
			list, _ := a.files.List()
			if len(list) != c.left || (len(list) == 1 && list[0].UploaderID != c.leftUser) {
				t.Fatalf("files left %+v", list)
			}
			profile := a.status(t, "GET", "/api/auth/profile", nil, bearer(f.tok))
			if c.status != 204 {
				if profile != 200 {
					t.Fatalf("a refused deletion ended the session: %d", profile)
				}
				return
			}
			if profile != 401 {
				t.Fatalf("the session outlived the account: %d", profile)
			}
			if resp, _ := a.login(t, "bye@example.com", "password1"); resp.StatusCode != 401 {
				t.Fatalf("sign in after deletion: %d", resp.StatusCode)
			}
			ev := a.lastEvent(t, audit.UserDeleted)
			if ev.Type != audit.UserDeleted || ev.Actor != "bye@example.com" || ev.Details["by"] != "self" {
				t.Fatalf("audit %+v", ev)
			}
		})
	}
}
