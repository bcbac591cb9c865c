package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/downloads"
	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/storage"
	"github.com/devhub/devhub/pkg/storage/miniotest"
	"github.com/devhub/devhub/pkg/store/storetest"
)

type downloadsTestApp struct {
	*testApp
	svc   *downloads.Service
	files *files.Service
	be    storage.Store
	clock *dlClock
}

type dlClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *dlClock) Now() time.Time          { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *dlClock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// newDownloadsTestApp builds the app with the download catalogue on the
// named backend (and the file cloud, for files uploaded resumably), with
// the fake identities of the file tests.
func newDownloadsTestApp(t *testing.T, backend string) *downloadsTestApp {
	t.Helper()
	return newDownloadsTestAppWith(t, backend, nil)
}

// newDownloadsTestAppWith is newDownloadsTestApp with the config changed.
func newDownloadsTestAppWith(t *testing.T, backend string, mutate func(*config.Config)) *downloadsTestApp {
	t.Helper()
	st := storetest.Open(t)
	dir := t.TempDir()
	fsvc, err := files.New(st, filepath.Join(dir, "uploads"), 1<<20, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fsvc.Close() })
	var be storage.Store
	if backend == storage.S3 {
		s3, err := storage.NewS3(context.Background(), miniotest.Config(t), downloads.IsKey)
		if err != nil {
			t.Fatal(err)
		}
		be = s3
	} else {
		local, err := storage.NewLocal(filepath.Join(dir, "uploads", "downloads"), downloads.IsKey)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { local.Close() })
		be = local
	}
	svc, err := downloads.New(st, be, nil)
	if err != nil {
		t.Fatal(err)
	}
	clock := &dlClock{t: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)}
	svc.SetClock(clock.Now)
	ta := newTestApp(t, func(o *Options) {
		o.Config.Files.MaxUploadBytes = 1 << 20
		if mutate != nil {
			mutate(&o.Config)
		}
		o.Services = &Services{Store: st, Authenticate: fakeAuthenticate, Files: fsvc, Downloads: svc}
	})
	return &downloadsTestApp{testApp: ta, svc: svc, files: fsvc, be: be, clock: clock}
}

func (da *downloadsTestApp) json(t *testing.T, method, path, token, body string) (*http.Response, []byte) {
	t.Helper()
	return da.do(t, jsonRequest(method, path, token, body))
}

func (da *downloadsTestApp) create(t *testing.T, body string) downloads.EntryView {
	t.Helper()
	resp, b := da.json(t, http.MethodPost, "/api/downloads", adminToken, body)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.StatusCode, b)
	}
	var e downloads.EntryView
	json.Unmarshal(b, &e)
	return e
}

// releasePart is one part of a release's multipart body.
type releasePart struct {
	name, filename string
	data           []byte
}

func releaseBody(parts ...releasePart) []byte {
	var b bytes.Buffer
	for _, p := range parts {
		b.WriteString("--" + testBoundary + "\r\nContent-Disposition: form-data; name=\"" + p.name + "\"")
		if p.filename != "" {
			b.WriteString("; filename=\"" + p.filename + "\"\r\nContent-Type: application/octet-stream")
		}
		b.WriteString("\r\n\r\n")
		b.Write(p.data)
		b.WriteString("\r\n")
	}
	b.WriteString("--" + testBoundary + "--\r\n")
	return b.Bytes()
}

func field(name, value string) releasePart { return releasePart{name: name, data: []byte(value)} }

func (da *downloadsTestApp) release(t *testing.T, slug, token string, parts ...releasePart) (*http.Response, []byte) {
	t.Helper()
	return da.do(t, uploadRequest("/api/downloads/"+slug+"/releases", token, releaseBody(parts...)))
}

func (da *downloadsTestApp) keys(t *testing.T) []string {
	t.Helper()
	var ks []string
	if err := da.be.List(context.Background(), func(k string) error { ks = append(ks, k); return nil }); err != nil {
		t.Fatal(err)
	}
	slices.Sort(ks)
	return ks
}

func sum(b []byte) string { h := sha256.Sum256(b); return hex.EncodeToString(h[:]) }

func TestDownloadsPermissionMatrix(t *testing.T) {
	da := newDownloadsTestApp(t, storage.Local)
	da.create(t, `{"section":"programs","slug":"tool","name":"Tool"}`)
	exe := randomBytes(300)
	rel := func(tok string) (*http.Response, []byte) {
		return da.release(t, "tool", tok, field("version", "1.0"),
			releasePart{"files", "tool.exe", exe}, field("system", "windows"), field("arch", "x64"))
	}
	for _, who := range []struct {
		name, token string
		want        int
	}{{"guest", "", 401}, {"user", userToken, 403}} {
		t.Run(who.name, func(t *testing.T) {
			for _, r := range []struct{ method, path, body string }{
				{http.MethodPost, "/api/downloads", `{"section":"programs","slug":"x","name":"X"}`},
				{http.MethodPatch, "/api/downloads/tool", `{"name":"Y"}`},
				{http.MethodDelete, "/api/downloads/tool", ""},
				{http.MethodPut, "/api/downloads/order", `{"section":"programs","slugs":["tool"]}`},
				{http.MethodDelete, "/api/downloads/tool/releases/1.0", ""},
			} {
				if resp, b := da.json(t, r.method, r.path, who.token, r.body); resp.StatusCode != who.want {
					t.Errorf("%s %s: %d, want %d: %s", r.method, r.path, resp.StatusCode, who.want, b)
				}
			}
			if resp, b := rel(who.token); resp.StatusCode != who.want {
				t.Errorf("release: %d, want %d: %s", resp.StatusCode, who.want, b)
			}
			if ks := da.keys(t); len(ks) != 0 {
				t.Errorf("a refused release left %d objects", len(ks))
			}
		})
	}
	if resp, b := rel(adminToken); resp.StatusCode != http.StatusCreated {
		t.Fatalf("admin release: %d %s", resp.StatusCode, b)
	}
	if resp, b := da.json(t, http.MethodPatch, "/api/downloads/tool", adminToken, `{"summary":"Does it"}`); resp.StatusCode != 200 ||
		!strings.Contains(string(b), `"summary":"Does it"`) {
		t.Fatalf("admin patch: %d %s", resp.StatusCode, b)
	}
	if resp, _ := da.json(t, http.MethodDelete, "/api/downloads/tool", adminToken, ""); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("admin delete: %d", resp.StatusCode)
	}
}

func TestDownloadsBadInput(t *testing.T) {
	da := newDownloadsTestApp(t, storage.Local)
	da.create(t, `{"section":"alavar","slug":"game","name":"Game"}`)
	runScenarios(t, sameApp(da.testApp), []apiScenario{
		{Name: "slug with a path", Method: "POST", URL: "/api/downloads", Token: adminToken,
			Body: `{"section":"programs","slug":"../etc","name":"X"}`, ExpectedStatus: 400, ExpectedContent: []string{`"slug"`}},
		{Name: "upper-case slug", Method: "POST", URL: "/api/downloads", Token: adminToken,
			Body: `{"section":"programs","slug":"Tool","name":"X"}`, ExpectedStatus: 400},
		{Name: "unknown section", Method: "POST", URL: "/api/downloads", Token: adminToken,
			Body: `{"section":"music","slug":"tool","name":"X"}`, ExpectedStatus: 400, ExpectedContent: []string{`"section"`}},
		{Name: "name with a control character", Method: "POST", URL: "/api/downloads", Token: adminToken,
			Body: `{"section":"programs","slug":"tool","name":"a\u0007b"}`, ExpectedStatus: 400, ExpectedContent: []string{`"name"`}},
		{Name: "no name", Method: "POST", URL: "/api/downloads", Token: adminToken,
			Body: `{"section":"programs","slug":"tool"}`, ExpectedStatus: 400},
		{Name: "unknown system", Method: "POST", URL: "/api/downloads", Token: adminToken,
			Body: `{"section":"programs","slug":"tool","name":"T","systems":["beos"]}`, ExpectedStatus: 400},
		{Name: "javascript homepage", Method: "POST", URL: "/api/downloads", Token: adminToken,
			Body: `{"section":"programs","slug":"tool","name":"T","homepage":"javascript:alert(1)"}`, ExpectedStatus: 400},
		{Name: "taken slug", Method: "POST", URL: "/api/downloads", Token: adminToken,
			Body: `{"section":"programs","slug":"game","name":"T"}`, ExpectedStatus: 400, ExpectedContent: []string{"taken"}},
		{Name: "slug cannot change", Method: "PATCH", URL: "/api/downloads/game", Token: adminToken,
			Body: `{"slug":"other"}`, ExpectedStatus: 400},
		{Name: "bad sort", URL: "/api/downloads?sort=random", ExpectedStatus: 400},
		{Name: "bad page", URL: "/api/downloads?page=x", ExpectedStatus: 400},
		// A limit above downloads.MaxLimit is refused, not capped.
		{Name: "limit over the max", URL: "/api/downloads?limit=101", ExpectedStatus: 400,
			ExpectedContent: []string{`"limit"`, "limit must be between 1 and 100"}},
		{Name: "limit at the max", URL: "/api/downloads?limit=100", ExpectedStatus: 200},
		{Name: "unknown entry", URL: "/api/downloads/nope", ExpectedStatus: 404},
		{Name: "unknown file", URL: "/api/downloads/game/files/nope", ExpectedStatus: 404},
	})
	for _, c := range []struct {
		name  string
		parts []releasePart
	}{
		{"traversal in a file name", []releasePart{field("version", "1"), {"files", "../../evil.exe", []byte("x")}, field("system", "windows"), field("arch", "x86")}},
		{"backslash path", []releasePart{field("version", "1"), {"files", `..\evil.exe`, []byte("x")}, field("system", "windows"), field("arch", "x86")}},
		{"control character in a file name", []releasePart{field("version", "1"), {"files", "a\x01.exe", []byte("x")}, field("system", "windows"), field("arch", "x86")}},
		{"no version", []releasePart{{"files", "a.exe", []byte("x")}, field("system", "windows"), field("arch", "x86")}},
		{"no files", []releasePart{field("version", "1")}},
		{"unknown system", []releasePart{field("version", "1"), {"files", "a.exe", []byte("x")}, field("system", "beos"), field("arch", "x86")}},
		{"system before any file", []releasePart{field("version", "1"), field("system", "windows"), {"files", "a.exe", []byte("x")}}},
		{"same name twice", []releasePart{field("version", "1"), {"files", "a.exe", []byte("x")}, field("system", "windows"), field("arch", "x86"),
			{"files", "a.exe", []byte("y")}, field("system", "windows"), field("arch", "x64")}},
		{"bad file cloud id", []releasePart{field("version", "1"), field("fileId", "../1")}},
		{"unknown file cloud id", []releasePart{field("version", "1"), field("fileId", "99"), field("system", "windows"), field("arch", "x86")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, b := da.release(t, "game", adminToken, c.parts...)
			if resp.StatusCode != 400 && resp.StatusCode != 404 {
				t.Fatalf("%d, want 400: %s", resp.StatusCode, b)
			}
			if bytes.Contains(b, []byte("/tmp/")) || bytes.Contains(b, []byte("uploads")) {
				t.Fatalf("the answer names a server path: %s", b)
			}
			if ks := da.keys(t); len(ks) != 0 {
				t.Fatalf("a refused release left %v", ks)
			}
		})
	}
	// Over the upload limit: 413, nothing kept.
	resp, _ := da.release(t, "game", adminToken, field("version", "1"), releasePart{"files", "big.exe", randomBytes(2 << 20)},
		field("system", "windows"), field("arch", "x64"))
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("over the limit: %d", resp.StatusCode)
	}
	if ks := da.keys(t); len(ks) != 0 {
		t.Fatalf("a refused release left %v", ks)
	}
	// The same version twice: 409.
	ok := []releasePart{field("version", "1"), {"files", "a.exe", []byte("x")}, field("system", "windows"), field("arch", "x86")}
	if resp, b := da.release(t, "game", adminToken, ok...); resp.StatusCode != 201 {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	if resp, _ := da.release(t, "game", adminToken, ok...); resp.StatusCode != http.StatusConflict {
		t.Fatalf("same version: %d", resp.StatusCode)
	}
	if ks := da.keys(t); len(ks) != 1 {
		t.Fatalf("%d objects, want the first release's one", len(ks))
	}
}

// The SHA-256 is the server's, computed while storing: whatever the
// client claims is ignored, and the bytes served hash to it.
func TestDownloadsChecksumComputedOnStore(t *testing.T) {
	da := newDownloadsTestApp(t, storage.Local)
	da.create(t, `{"section":"programs","slug":"tool","name":"Tool"}`)
	win, lin := randomBytes(5000), randomBytes(7000)
	resp, b := da.release(t, "tool", adminToken, field("version", "2.0"), field("notes", "Faster."),
		releasePart{"files", "tool.exe", win}, field("system", "windows"), field("arch", "x64"),
		field("sha256", strings.Repeat("0", 64)),
		releasePart{"files", "tool-linux", lin}, field("system", "linux"), field("arch", "arm64"))
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	var e downloads.EntryView
	json.Unmarshal(b, &e)
	fs := e.Releases[0].Files
	if len(fs) != 2 || fs[0].SHA256 != sum(win) || fs[1].SHA256 != sum(lin) || fs[0].Size != 5000 ||
		fs[0].System != "windows" || fs[0].Arch != "x64" || fs[1].System != "linux" || fs[1].Arch != "arm64" {
		t.Fatalf("files %+v", fs)
	}
	resp, body := da.do(t, httptest.NewRequest(http.MethodGet, fs[0].URL, nil))
	if resp.StatusCode != 200 || sum(body) != fs[0].SHA256 {
		t.Fatalf("served %d, hash %s", resp.StatusCode, sum(body))
	}
	if cd := resp.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, `attachment; filename="tool.exe"`) {
		t.Errorf("Content-Disposition %q", cd)
	}
	if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Content-Type") != "application/octet-stream" {
		t.Errorf("headers %v", resp.Header)
	}
	// The detail shows it too.
	_, b = da.json(t, http.MethodGet, "/api/downloads/tool", "", "")
	if !strings.Contains(string(b), sum(lin)) {
		t.Fatalf("detail lacks the checksum: %s", b)
	}
}

// A file uploaded resumably to the file cloud becomes a release's file by
// its id: its bytes move, hashed, and leave the file cloud (and the
// uploader's quota).
func TestDownloadsReleaseFromFileCloud(t *testing.T) {
	da := newDownloadsTestApp(t, storage.Local)
	da.create(t, `{"section":"programs","slug":"tool","name":"Tool"}`)
	data := randomBytes(4000)
	f, err := da.files.Save(context.Background(), "setup.exe", bytes.NewReader(data), files.Uploader{ID: 1, Name: "admin@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := da.files.Save(context.Background(), "theirs.bin", bytes.NewReader(data), files.Uploader{ID: 2, Name: "user@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	resp, b := da.release(t, "tool", adminToken, field("version", "1"), field("fileId", fmt.Sprint(f.ID)),
		field("system", "windows"), field("arch", "x86"))
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	var e downloads.EntryView
	json.Unmarshal(b, &e)
	if got := e.Releases[0].Files[0]; got.Name != "setup.exe" || got.SHA256 != sum(data) || got.Arch != "x86" {
		t.Fatalf("file %+v", got)
	}
	if _, err := da.files.Get(f.ID); err == nil {
		t.Fatal("the file cloud still holds the release's file")
	}
	if _, err := da.files.Get(other.ID); err != nil {
		t.Fatalf("another file went: %v", err)
	}
}

func TestDownloadsListSearchFilterSort(t *testing.T) {
	da := newDownloadsTestApp(t, storage.Local)
	da.create(t, `{"section":"programs","slug":"zip-tool","name":"Zip Tool","summary":"Packs files","systems":["windows-10","windows-11"]}`)
	da.clock.Advance(time.Hour)
	da.create(t, `{"section":"programs","slug":"editor","name":"Text Editor","summary":"Edits zip archives too","systems":["windows-7"]}`)
	da.clock.Advance(time.Hour)
	da.create(t, `{"section":"programs","slug":"paint","name":"Paint","description":"Can open a zip of images","systems":["windows-11","linux"]}`)
	da.create(t, `{"section":"alavar","slug":"zip-game","name":"Zip Game"}`)
	da.create(t, `{"section":"programs","slug":"secret","name":"Secret Zip","hidden":true}`)
	// Releases: paint newest; editor most downloaded.
	for _, slug := range []string{"editor", "paint"} {
		da.clock.Advance(time.Hour)
		if resp, b := da.release(t, slug, adminToken, field("version", "1"), releasePart{"files", slug + ".exe", []byte(slug)},
			field("system", "windows"), field("arch", "x64")); resp.StatusCode != 201 {
			t.Fatalf("%d %s", resp.StatusCode, b)
		}
	}
	e, _ := da.svc.Get("editor")
	da.do(t, httptest.NewRequest(http.MethodGet, "/api/downloads/editor/files/"+e.Releases[0].Files[0].ID, nil))
	slugs := func(t *testing.T, url, token string) []string {
		t.Helper()
		resp, b := da.json(t, http.MethodGet, url, token, "")
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", url, resp.StatusCode, b)
		}
		var out struct {
			Entries    []downloads.SummaryView `json:"entries"`
			TotalCount int                     `json:"totalCount"`
		}
		json.Unmarshal(b, &out)
		var s []string
		for _, e := range out.Entries {
			s = append(s, e.Slug)
		}
		return append(s, fmt.Sprint(out.TotalCount))
	}
	for _, c := range []struct {
		name, url, token string
		want             []string
	}{
		{"section in the owner's order", "/api/downloads?section=programs", "", []string{"zip-tool", "editor", "paint", "3"}},
		{"admins see hidden entries", "/api/downloads?section=programs", adminToken, []string{"zip-tool", "editor", "paint", "secret", "4"}},
		{"system filter", "/api/downloads?section=programs&system=windows-11", "", []string{"zip-tool", "paint", "2"}},
		{"newest", "/api/downloads?section=programs&sort=newest", "", []string{"paint", "editor", "zip-tool", "3"}},
		{"popular", "/api/downloads?section=programs&sort=popular", "", []string{"editor", "paint", "zip-tool", "3"}},
		{"search ranks name, summary, description", "/api/downloads?section=programs&search=ZIP", "", []string{"zip-tool", "editor", "paint", "3"}},
		{"search in every section", "/api/downloads?search=zip%20game", "", []string{"zip-game", "1"}},
		{"paging", "/api/downloads?section=programs&limit=2&page=2", "", []string{"paint", "3"}},
		{"past the end", "/api/downloads?section=programs&page=99999999999", "", []string{"3"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := slugs(t, c.url, c.token); !slices.Equal(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
	// Reordering changes the owner's order.
	if resp, b := da.json(t, http.MethodPut, "/api/downloads/order", adminToken, `{"section":"programs","slugs":["paint","zip-tool","editor"]}`); resp.StatusCode != 204 {
		t.Fatalf("reorder: %d %s", resp.StatusCode, b)
	}
	if got := slugs(t, "/api/downloads?section=programs", ""); !slices.Equal(got, []string{"paint", "zip-tool", "editor", "3"}) {
		t.Fatalf("after reorder %v", got)
	}
}

// A hidden entry is not found for anyone but admins, on every route.
func TestDownloadsHiddenOnEveryRoute(t *testing.T) {
	da := newDownloadsTestApp(t, storage.Local)
	da.create(t, `{"section":"programs","slug":"tool","name":"Tool"}`)
	if resp, b := da.release(t, "tool", adminToken, field("version", "1"), releasePart{"files", "t.exe", []byte("bytes")},
		field("system", "windows"), field("arch", "x64")); resp.StatusCode != 201 {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	img, _ := da.do(t, uploadRequest("/api/downloads/tool/images", adminToken, releaseBody(field("kind", "screenshot"), releasePart{"files", "shot.png", testPNG})))
	if img.StatusCode != 201 {
		t.Fatalf("screenshot: %d", img.StatusCode)
	}
	e, _ := da.svc.Get("tool")
	fileURL := "/api/downloads/tool/files/" + e.Releases[0].Files[0].ID
	imgURL := "/api/downloads/tool/images/" + e.Screenshots[0].ID
	if resp, b := da.json(t, http.MethodPatch, "/api/downloads/tool", adminToken, `{"hidden":true}`); resp.StatusCode != 200 {
		t.Fatalf("hide: %d %s", resp.StatusCode, b)
	}
	for _, tok := range []string{"", userToken} {
		runScenarios(t, sameApp(da.testApp), []apiScenario{
			{Name: "detail " + tok, URL: "/api/downloads/tool", Token: tok, ExpectedStatus: 404},
			{Name: "file " + tok, URL: fileURL, Token: tok, ExpectedStatus: 404, NotExpectedContent: []string{"bytes"}},
			{Name: "image " + tok, URL: imgURL, Token: tok, ExpectedStatus: 404},
			{Name: "list " + tok, URL: "/api/downloads", Token: tok, ExpectedStatus: 200, NotExpectedContent: []string{`"tool"`}},
			{Name: "feed " + tok, URL: "/programs/feed.xml", Token: tok, ExpectedStatus: 200, NotExpectedContent: []string{"Tool"}},
		})
	}
	runScenarios(t, sameApp(da.testApp), []apiScenario{
		{Name: "admin detail", URL: "/api/downloads/tool", Token: adminToken, ExpectedStatus: 200, ExpectedContent: []string{`"hidden":true`}},
		{Name: "admin file", URL: fileURL, Token: adminToken, ExpectedStatus: 200},
		{Name: "admin image", URL: imgURL, Token: adminToken, ExpectedStatus: 200, ExpectedHeaders: map[string]string{"Content-Type": "image/png"}},
		{Name: "admin list", URL: "/api/downloads", Token: adminToken, ExpectedStatus: 200, ExpectedContent: []string{`"tool"`}},
	})
	// Shown again, the feed carries its release.
	da.json(t, http.MethodPatch, "/api/downloads/tool", adminToken, `{"hidden":false}`)
	runScenarios(t, sameApp(da.testApp), []apiScenario{
		{Name: "feed", URL: "/programs/feed.xml", ExpectedStatus: 200, ExpectedContent: []string{"<title type=\"text\">Tool 1</title>"},
			ExpectedHeaders: map[string]string{"Content-Type": "application/atom+xml; charset=utf-8"}},
	})
}

// Range and the counting rules: once per visitor and file per day; never
// for HEAD, a link-preview bot, a 304 or a 416.
func TestDownloadsRangeAndCounting(t *testing.T) {
	const metricsToken = "metrics-token-0123456789"
	da := newDownloadsTestAppWith(t, storage.Local, func(c *config.Config) {
		c.Metrics.Enabled, c.Metrics.Token = true, metricsToken
	})
	data := randomBytes(1000)
	f := da.releaseOneFile(t, data)
	da.countSteps(t, f, []countStep{
		{"HEAD", http.MethodHead, nil, 0, 200, 0},
		{"bot", http.MethodGet, []string{"User-Agent", "TelegramBot (like TwitterBot)"}, 0, 200, 0},
		{"304", http.MethodGet, []string{"If-None-Match", `"` + f.SHA256 + `"`}, 0, 304, 0},
		{"416", http.MethodGet, []string{"Range", "bytes=5000-"}, 0, 416, 0},
		{"range", http.MethodGet, []string{"Range", "bytes=100-199"}, 0, 206, 1},
		{"same visitor, whole file", http.MethodGet, nil, 0, 200, 0},
		// Not behind a trusted proxy, a forwarded address is the client's
		// claim: still the same visitor.
		{"a forged address", http.MethodGet, []string{"X-Forwarded-For", "10.9.9.9"}, 0, 200, 0},
		{"a signed-in visitor", http.MethodGet, []string{"Authorization", "Bearer " + userToken}, 25 * time.Hour, 200, 1},
		{"the next day", http.MethodGet, nil, 0, 200, 1},
	}, func(st countStep, resp *http.Response, body []byte) {
		if resp.StatusCode != st.want {
			t.Fatalf("%s: %d, want %d", st.name, resp.StatusCode, st.want)
		}
		if st.want == 206 && !bytes.Equal(body, data[100:200]) {
			t.Fatalf("range body differs")
		}
		if st.want == 200 && st.method == http.MethodGet && !bytes.Equal(body, data) {
			t.Fatalf("%s: body differs", st.name)
		}
	})
	// The bytes sent: five whole files (the bot's too: it got them, it
	// just is no download) and the 100-byte range; HEAD, 304 and 416 none.
	_, m := da.do(t, withToken(get("/metrics"), metricsToken))
	if want := "devhub_download_bytes_total 5100\n"; !strings.Contains(string(m), want) {
		t.Fatalf("metrics lack %q", want)
	}
}

// releaseOneFile publishes release 1 of a new entry "tool" with data as its
// one file, t.exe for windows/x64, and returns that file.
func (da *downloadsTestApp) releaseOneFile(t *testing.T, data []byte) downloads.File {
	t.Helper()
	da.create(t, `{"section":"programs","slug":"tool","name":"Tool"}`)
	da.release(t, "tool", adminToken, field("version", "1"), releasePart{"files", "t.exe", data}, field("system", "windows"), field("arch", "x64"))
	e, _ := da.svc.Get("tool")
	return e.Releases[0].Files[0]
}

// countStep is one request for a release file: its headers (name, value
// pairs), the status it must get, how many downloads it adds to the
// file's count, and how far the clock moves after it.
type countStep struct {
	name   string
	method string
	hdr    []string
	next   time.Duration
	want   int
	counts int64
}

// countSteps sends the steps in order for the file f of releaseOneFile;
// check looks at each answer, then the file's count must be the sum of the
// steps' so far.
func (da *downloadsTestApp) countSteps(t *testing.T, f downloads.File, steps []countStep, check func(st countStep, resp *http.Response, body []byte)) {
	t.Helper()
	var total int64
	for _, st := range steps {
		req := httptest.NewRequest(st.method, "/api/downloads/tool/files/"+f.ID, nil)
		for i := 0; i+1 < len(st.hdr); i += 2 {
			req.Header.Set(st.hdr[i], st.hdr[i+1])
		}
		resp, body := da.do(t, req)
		check(st, resp, body)
		total += st.counts
		e, _ := da.svc.Get("tool")
		if got := e.Releases[0].Files[0].Downloads; got != total {
			t.Fatalf("%s: %d downloads, want %d", st.name, got, total)
		}
		da.clock.Advance(st.next)
	}
}

// Deleting an entry deletes its bytes and nothing else's, on both
// backends.
func TestDownloadsDeleteRemovesBytes(t *testing.T) {
	for _, be := range backendsUnderTest {
		t.Run(be, func(t *testing.T) {
			da := newDownloadsTestApp(t, be)
			for _, slug := range []string{"one", "two"} {
				da.create(t, `{"section":"programs","slug":"`+slug+`","name":"N"}`)
				if resp, b := da.release(t, slug, adminToken, field("version", "1"), releasePart{"files", slug + ".exe", randomBytes(3000)},
					field("system", "windows"), field("arch", "x64"), releasePart{"files", slug + ".zip", randomBytes(100)},
					field("system", "any"), field("arch", "any")); resp.StatusCode != 201 {
					t.Fatalf("%d %s", resp.StatusCode, b)
				}
				if resp, _ := da.do(t, uploadRequest("/api/downloads/"+slug+"/images", adminToken,
					releaseBody(field("kind", "icon"), releasePart{"files", "icon.png", testPNG}))); resp.StatusCode != 201 {
					t.Fatalf("icon: %d", resp.StatusCode)
				}
			}
			cloud, err := da.files.Save(context.Background(), "keep.bin", bytes.NewReader([]byte("cloud")), files.Uploader{ID: 2})
			if err != nil {
				t.Fatal(err)
			}
			if n := len(da.keys(t)); n != 6 {
				t.Fatalf("%d objects, want 6", n)
			}
			two, _ := da.svc.Get("two")
			if resp, _ := da.json(t, http.MethodDelete, "/api/downloads/one", adminToken, ""); resp.StatusCode != 204 {
				t.Fatalf("delete: %d", resp.StatusCode)
			}
			want := []string{two.Icon.Key, two.Releases[0].Files[0].Key, two.Releases[0].Files[1].Key}
			slices.Sort(want)
			if got := da.keys(t); !slices.Equal(got, want) {
				t.Fatalf("left %v, want two's %v", got, want)
			}
			if _, r, err := da.files.Open(cloud.ID); err != nil {
				t.Fatalf("the file cloud's file went: %v", err)
			} else {
				r.Close()
			}
			// A release's deletion removes its files only.
			if resp, _ := da.json(t, http.MethodDelete, "/api/downloads/two/releases/1", adminToken, ""); resp.StatusCode != 200 {
				t.Fatalf("delete release: %d", resp.StatusCode)
			}
			if got := da.keys(t); !slices.Equal(got, []string{two.Icon.Key}) {
				t.Fatalf("left %v", got)
			}
		})
	}
}

func TestDownloadsImages(t *testing.T) {
	da := newDownloadsTestApp(t, storage.Local)
	da.create(t, `{"section":"alavar","slug":"game","name":"Game"}`)
	runScenarios(t, sameApp(da.testApp), []apiScenario{
		{Name: "SVG refused", Method: "POST", URL: "/api/downloads/game/images", Token: adminToken, ExpectedStatus: 400,
			Headers: map[string]string{"Content-Type": "multipart/form-data; boundary=" + testBoundary},
			Body:    string(releaseBody(field("kind", "icon"), releasePart{"files", "x.svg", []byte("<svg xmlns='http://www.w3.org/2000/svg'/>")}))},
		{Name: "no kind", Method: "POST", URL: "/api/downloads/game/images", Token: adminToken, ExpectedStatus: 400,
			Headers: map[string]string{"Content-Type": "multipart/form-data; boundary=" + testBoundary},
			Body:    string(releaseBody(releasePart{"files", "x.png", testPNG}))},
	})
	if ks := da.keys(t); len(ks) != 0 {
		t.Fatalf("refused images left %v", ks)
	}
	resp, b := da.do(t, uploadRequest("/api/downloads/game/images", adminToken, releaseBody(field("kind", "screenshot"),
		releasePart{"files", "a.png", testPNG}, releasePart{"files", "b.png", testPNG})))
	if resp.StatusCode != 201 || strings.Count(string(b), "/images/") != 2 {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	e, _ := da.svc.Get("game")
	if resp, _ := da.json(t, http.MethodDelete, "/api/downloads/game/images/"+e.Screenshots[0].ID, adminToken, ""); resp.StatusCode != 200 {
		t.Fatalf("delete: %d", resp.StatusCode)
	}
	if ks := da.keys(t); len(ks) != 1 || ks[0] != e.Screenshots[1].Key {
		t.Fatalf("left %v", ks)
	}
}
