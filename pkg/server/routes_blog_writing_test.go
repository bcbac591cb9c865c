package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/devhub/devhub/pkg/blog"
	"github.com/devhub/devhub/pkg/config"
)

// blogClock is a settable clock the blog reads on every request.
type blogClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *blogClock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *blogClock) set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// writingIndex is a built index.html as the SPA's pages are served from.
var writingIndex = fstest.MapFS{"index.html": {Data: []byte(`<!doctype html><html><head><title>DevHub</title>` +
	`<meta name="description" content="The site." /></head><body><div id="root"></div></body></html>`)}}

// newWritingApp is the blog with a fake clock and a built page, holding a
// published, a draft and a scheduled (in an hour) article, in categories of
// their own.
func newWritingApp(t *testing.T) (*blogTestApp, *blogClock, time.Time) {
	t.Helper()
	start := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	clock := &blogClock{t: start}
	ta := newBlogTestApp(t, func(o *Options) { o.Site = writingIndex })
	ta.blog.SetClock(clock.now)
	at := start.Add(time.Hour)
	for _, in := range []blog.Input{
		{Name: "Public piece", Excerpt: "pub", Category: "Open", Content: "visible body", TranslationKey: "k"},
		{Name: "Secret draft", Excerpt: "drafty", Category: "Hidden", Content: "draft body", Status: blog.StatusDraft, TranslationKey: "k", Lang: "uk"},
		{Name: "Future piece", Excerpt: "later", Category: "Later", Content: "future body", Status: blog.StatusScheduled, PublishAt: &at},
	} {
		if _, err := ta.blog.Create(context.Background(), in); err != nil {
			t.Fatal(err)
		}
	}
	return ta, clock, at
}

func TestBlogStatusVisibilityOnEveryReadRoute(t *testing.T) {
	ta, _, _ := newWritingApp(t)
	hidden := []string{"Secret draft", "Future piece", "Hidden", "Later", "drafty"}
	runScenarios(t, sameApp(ta.testApp), []apiScenario{
		{Name: "list, guest", URL: "/api/blog?limit=50", ExpectedStatus: 200, ExpectedContent: []string{`"totalCount":1`, "Public piece"}, NotExpectedContent: hidden},
		{Name: "list, user", URL: "/api/blog", Token: blogUserToken, ExpectedStatus: 200, ExpectedContent: []string{`"totalCount":1`}, NotExpectedContent: hidden},
		{Name: "list alias, guest", URL: "/api/api/blog", ExpectedStatus: 200, ExpectedContent: []string{`"totalCount":1`}, NotExpectedContent: hidden},
		{Name: "search, guest", URL: "/api/blog?search=body", ExpectedStatus: 200, ExpectedContent: []string{`"totalCount":1`}, NotExpectedContent: hidden},
		{Name: "category, guest", URL: "/api/blog?category=Hidden", ExpectedStatus: 200, ExpectedContent: []string{`"totalCount":0`}, NotExpectedContent: hidden},
		{Name: "categories, guest", URL: "/api/blog/categories", ExpectedStatus: 200, ExpectedContent: []string{"Open"}, NotExpectedContent: hidden},
		{Name: "draft, guest", URL: "/api/blog/2", ExpectedStatus: 404, NotExpectedContent: hidden},
		{Name: "draft, user", URL: "/api/blog/2", Token: blogUserToken, ExpectedStatus: 404, NotExpectedContent: hidden},
		{Name: "scheduled, guest", URL: "/api/blog/3", ExpectedStatus: 404, NotExpectedContent: hidden},
		{Name: "translations, guest", URL: "/api/blog/1", ExpectedStatus: 200, ExpectedContent: []string{`"translations":[]`}, NotExpectedContent: append(hidden, "editedBy")},
		{Name: "feed", URL: "/feed.xml", ExpectedStatus: 200, ExpectedContent: []string{"Public piece"}, NotExpectedContent: hidden},
		{Name: "sitemap", URL: "/sitemap.xml", ExpectedStatus: 200, ExpectedContent: []string{"/blog/1"}, NotExpectedContent: []string{"/blog/2<", "/blog/3<"}},
		{Name: "draft page", URL: "/blog/2", ExpectedStatus: 404, NotExpectedContent: hidden},
		{Name: "draft by slug", URL: "/blog/secret-draft", ExpectedStatus: 404, NotExpectedContent: hidden},
		{Name: "scheduled page", URL: "/blog/3", ExpectedStatus: 404, NotExpectedContent: hidden},
		{Name: "list page", URL: "/blog", ExpectedStatus: 200, ExpectedContent: []string{"Public piece"}, NotExpectedContent: hidden},
		{Name: "list, admin", URL: "/api/blog?limit=50", Token: blogAdminToken, ExpectedStatus: 200, ExpectedContent: []string{`"totalCount":3`, `"status":"draft"`, `"status":"scheduled"`, `"publishAt":"2030-01-01T13:00:00Z"`}},
		{Name: "categories, admin", URL: "/api/blog/categories", Token: blogAdminToken, ExpectedStatus: 200, ExpectedContent: []string{"Hidden", "Later"}},
		{Name: "draft, admin", URL: "/api/blog/2", Token: blogAdminToken, ExpectedStatus: 200, ExpectedContent: []string{`"status":"draft"`, `"version":1`}},
		{Name: "translations, admin", URL: "/api/blog/1", Token: blogAdminToken, ExpectedStatus: 200, ExpectedContent: []string{"Secret draft"}},
	})
}

func TestBlogScheduledArticleAppearsAtItsTime(t *testing.T) {
	ta, clock, at := newWritingApp(t)
	_, pageBefore := ta.testApp.do(t, get("/blog"))
	etagBefore := ""
	{
		resp, _ := ta.testApp.do(t, get("/blog"))
		etagBefore = resp.Header.Get("ETag")
	}
	steps := []struct {
		now     time.Time
		visible bool
	}{
		{at.Add(-time.Second), false},
		{at, true},
		{at.Add(time.Hour), true},
	}
	for _, st := range steps {
		clock.set(st.now)
		for _, url := range []string{"/api/blog", "/feed.xml", "/sitemap.xml", "/blog", "/api/blog/3", "/blog/3"} {
			_, body := ta.do(t, "GET", url, "", "")
			if got := strings.Contains(body, "Future piece") || strings.Contains(body, "/blog/3<"); got != st.visible {
				t.Errorf("at %s %s shows the scheduled article: %v, want %v", st.now.Format(time.TimeOnly), url, got, st.visible)
			}
		}
	}
	_, body := ta.do(t, "GET", "/api/blog/3", "", "")
	if !strings.Contains(body, `"status":"published"`) {
		t.Errorf("a scheduled article past its time reads as published: %s", body)
	}
	// The list page's validator follows its text: a cached copy from before
	// the publication time is not fresh any more.
	req := get("/blog")
	req.Header.Set("If-None-Match", etagBefore)
	resp, pageAfter := ta.testApp.do(t, req)
	if resp.StatusCode != 200 || bytes.Equal(pageBefore, pageAfter) {
		t.Fatalf("the list page still answers its old copy (%d)", resp.StatusCode)
	}
}

func TestBlogPatchVersionAndStatus(t *testing.T) {
	ta := newBlogTestApp(t, nil)
	if code, body := ta.do(t, "POST", "/api/blog", blogAdminToken, `{"name":"A","excerpt":"e","category":"c","content":"one","status":"draft"}`); code != 201 || !strings.Contains(body, `"status":"draft"`) {
		t.Fatalf("%d %s", code, body)
	}
	tests := []struct {
		name, token, body string
		status            int
		want              string
	}{
		{"guest", "", `{"content":"x"}`, 401, ""},
		{"user", blogUserToken, `{"content":"x"}`, 403, ""},
		{"current version", blogAdminToken, `{"content":"two","version":1}`, 200, `"version":2`},
		{"stale version", blogAdminToken, `{"content":"three","version":1}`, 409, "reload"},
		{"no version", blogAdminToken, `{"excerpt":"e2"}`, 200, `"version":3`},
		{"bad status", blogAdminToken, `{"status":"hidden"}`, 400, `"status"`},
		{"scheduled without time", blogAdminToken, `{"status":"scheduled"}`, 400, `"publishAt"`},
		{"bad time", blogAdminToken, `{"status":"scheduled","publishAt":"tomorrow"}`, 400, `"publishAt"`},
		{"schedule", blogAdminToken, `{"status":"scheduled","publishAt":"2099-01-02T03:04:05Z","version":3}`, 200, `"publishAt":"2099-01-02T03:04:05Z"`},
		{"publish drops the time", blogAdminToken, `{"status":"published"}`, 200, `"publishAt":null`},
		{"unchanged save keeps the version", blogAdminToken, `{"content":"two","version":5}`, 200, `"version":5`},
		{"unknown article", blogAdminToken, `{"content":"x"}`, 404, ""},
		{"malformed", blogAdminToken, `{"content":`, 400, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			url := "/api/blog/1"
			if tc.name == "unknown article" {
				url = "/api/blog/99"
			}
			code, body := ta.do(t, "PATCH", url, tc.token, tc.body)
			if code != tc.status || !strings.Contains(body, tc.want) {
				t.Fatalf("status %d (want %d), body %s (want %q)", code, tc.status, body, tc.want)
			}
		})
	}
}

func TestBlogRevisionsKeepTheLast20(t *testing.T) {
	ta := newBlogTestApp(t, nil)
	if code, body := ta.do(t, "POST", "/api/blog", blogAdminToken, `{"name":"A","excerpt":"e","category":"c","content":"text 0"}`); code != 201 {
		t.Fatalf("%d %s", code, body)
	}
	for i := 1; i <= 25; i++ {
		if code, body := ta.do(t, "PATCH", "/api/blog/1", blogAdminToken, fmt.Sprintf(`{"content":"text %d"}`, i)); code != 200 {
			t.Fatalf("%d %s", code, body)
		}
	}
	// A save that changes no text keeps no revision.
	ta.do(t, "PATCH", "/api/blog/1", blogAdminToken, `{"category":"d"}`)
	code, body := ta.do(t, "GET", "/api/blog/1/revisions", blogAdminToken, "")
	if code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	var out struct{ Revisions []blog.Revision }
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Revisions) != blog.MaxRevisions {
		t.Fatalf("%d revisions, want %d", len(out.Revisions), blog.MaxRevisions)
	}
	if first, last := out.Revisions[0], out.Revisions[len(out.Revisions)-1]; first.Content != "text 24" || last.Content != "text 5" ||
		first.Author != "admin@example.com" || first.SavedAt.IsZero() {
		t.Fatalf("newest %+v, oldest %+v", first, last)
	}
	rev := out.Revisions[len(out.Revisions)-1].ID
	restore := fmt.Sprintf("/api/blog/1/revisions/%d/restore", rev)
	for _, tc := range []struct {
		name, token, url, body string
		status                 int
		want                   string
	}{
		{"guest", "", restore, "", 401, ""},
		{"user", blogUserToken, restore, "", 403, ""},
		{"user reads revisions", blogUserToken, "/api/blog/1/revisions", "", 403, ""},
		{"stale version", blogAdminToken, restore, `{"version":1}`, 409, ""},
		{"unknown revision", blogAdminToken, "/api/blog/1/revisions/9999/restore", "", 404, ""},
		{"restore", blogAdminToken, restore, `{"version":27}`, 200, `"content":"text 5"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			method := "POST"
			if strings.HasSuffix(tc.url, "/revisions") {
				method = "GET"
			}
			code, body := ta.do(t, method, tc.url, tc.token, tc.body)
			if code != tc.status || !strings.Contains(body, tc.want) {
				t.Fatalf("status %d (want %d): %s", code, tc.status, body)
			}
		})
	}
	if code, _ := ta.do(t, "GET", "/api/blog/99/revisions", blogAdminToken, ""); code != 404 {
		t.Fatalf("revisions of an unknown article: %d", code)
	}
	// Deleting the article deletes its revisions.
	ta.do(t, "DELETE", "/api/blog/1", blogAdminToken, "")
	if code, _ := ta.do(t, "GET", "/api/blog/1/revisions", blogAdminToken, ""); code != 404 {
		t.Fatalf("revisions of a deleted article: %d", code)
	}
}

func TestBlogPreviewSanitises(t *testing.T) {
	ta := newBlogTestApp(t, nil)
	xss := []string{
		"<script>alert(1)</script>",
		"[click](javascript:alert(1))",
		"[click](JaVaScRiPt:alert(1))",
		"[click](\tjavascript:alert(1))",
		"![x](javascript:alert(1))",
		"<img src=x onerror=alert(1)>",
		"<iframe src=//evil></iframe>",
		"[x](data:text/html,<script>alert(1)</script>)",
		"<a href=\"javascript:alert(1)\">x</a>",
		"<svg onload=alert(1)>",
	}
	for _, in := range xss {
		t.Run(in, func(t *testing.T) {
			raw, _ := json.Marshal(map[string]string{"content": "# T\n\n" + in})
			code, body := ta.do(t, "POST", "/api/blog/preview", blogAdminToken, string(raw))
			if code != 200 {
				t.Fatalf("%d %s", code, body)
			}
			var out struct{ HTML string }
			_ = json.Unmarshal([]byte(body), &out)
			low := strings.ToLower(out.HTML)
			for _, bad := range []string{"<script", "javascript:", "onerror", "<iframe", "onload", "data:text/html"} {
				if strings.Contains(low, bad) {
					t.Errorf("preview carries %q: %s", bad, out.HTML)
				}
			}
			if !strings.Contains(out.HTML, "<h1") {
				t.Errorf("preview did not render: %s", out.HTML)
			}
		})
	}
	big, _ := json.Marshal(map[string]string{"content": strings.Repeat("a", blog.MaxContentLen+1)})
	for _, tc := range []struct {
		name, token, body string
		status            int
	}{
		{"guest", "", `{"content":"x"}`, 401},
		{"user", blogUserToken, `{"content":"x"}`, 403},
		{"no content", blogAdminToken, `{}`, 400},
		{"malformed", blogAdminToken, `{"content"`, 400},
		{"too long", blogAdminToken, string(big), 413},
		{"same as publishing", blogAdminToken, `{"content":"**b**"}`, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, body := ta.do(t, "POST", "/api/blog/preview", tc.token, tc.body); code != tc.status {
				t.Fatalf("%d, want %d: %s", code, tc.status, body)
			}
		})
	}
}

func TestBlogImageUpload(t *testing.T) {
	ta := newFilesTestAppWithOptions(t, func(c *config.Config) { c.Files.MaxUploadBytes = 64 << 20 }, func(o *Options) {
		b, err := blog.New(o.Services.Store)
		if err != nil {
			t.Fatal(err)
		}
		o.Services.Blog = b
		wireThumbs(t, o)
	})
	pic := testImagePNG(t, 64, 48)
	tests := []struct {
		name, token, url string
		body             []byte
		status           int
		want             string
	}{
		{"png", adminToken, "/api/blog/images?name=pasted.png", pic, 201, `"thumbnailUrl":"/api/files/1/thumbnail"`},
		{"guest", "", "/api/blog/images", pic, 401, ""},
		{"user", userToken, "/api/blog/images", pic, 403, ""},
		{"text named png", adminToken, "/api/blog/images?name=x.png", []byte("hello, not a picture"), 400, `"file"`},
		{"svg", adminToken, "/api/blog/images?name=x.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>`), 400, "PNG"},
		{"html", adminToken, "/api/blog/images?name=x.png", []byte("<html><script>alert(1)</script></html>"), 400, ""},
		{"empty", adminToken, "/api/blog/images", nil, 400, ""},
		{"too large", adminToken, "/api/blog/images?name=big.png", append(pic, make([]byte, 10<<20)...), 413, "MiB"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", tc.url, bytes.NewReader(tc.body))
			req.Header.Set("Content-Type", "image/png")
			if tc.token != "" {
				req.Header.Set("Authorization", "Bearer "+tc.token)
			}
			resp, body := ta.testApp.do(t, req)
			if resp.StatusCode != tc.status || !strings.Contains(string(body), tc.want) {
				t.Fatalf("status %d (want %d): %s", resp.StatusCode, tc.status, body)
			}
		})
	}
	// The stored picture is served as an image, and thumbnailed.
	resp, _ := ta.testApp.do(t, get("/api/files/1/download"))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("download: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	// The thumbnail is made in the background: wait for it.
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, _ = ta.testApp.do(t, get("/api/files/1/thumbnail"))
		if resp.StatusCode == http.StatusOK && strings.HasPrefix(resp.Header.Get("Content-Type"), "image/") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("thumbnail: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		runtime.Gosched()
	}
	if n := ta.svc.Count(); n != 1 {
		t.Fatalf("%d files stored, want only the accepted one", n)
	}
}

func TestBlogPagesCarryTheirText(t *testing.T) {
	ta := newBlogTestApp(t, func(o *Options) { o.Site = writingIndex })
	ctx := context.Background()
	for _, in := range []blog.Input{
		{Name: `<script>alert("n")</script> & Co`, Excerpt: `<b>ex</b>`, Category: `<i>c</i>`,
			Content: "Intro **bold** text.\n\n<script>alert(1)</script>\n\n[x](javascript:alert(2))"},
		{Name: "Draft only", Excerpt: "d", Category: "c", Content: "draft words", Status: blog.StatusDraft},
	} {
		if _, err := ta.blog.Create(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	// A page that carries the article's text carries it after the app root.
	textAfterRoot := func(t *testing.T, _ *http.Response, body string) {
		if i, j := strings.Index(body, `id="root"`), strings.Index(body, "ssr-page"); j < i {
			t.Errorf("the text is not after the app root")
		}
	}
	runScenarios(t, sameApp(ta.testApp), []apiScenario{
		{URL: "/blog/1", ExpectedStatus: 200,
			ExpectedContent:    []string{`id="ssr-page"`, "&lt;script&gt;alert(&#34;n&#34;)&lt;/script&gt; &amp; Co", "<strong>bold</strong>", "&lt;b&gt;ex&lt;/b&gt;", `<time datetime="`},
			NotExpectedContent: []string{`<script>alert`, "javascript:", "<b>ex</b>", "Draft only"}, AfterTest: textAfterRoot},
		{URL: "/blog", ExpectedStatus: 200,
			ExpectedContent:    []string{`id="ssr-page"`, `<a href="/blog/1">`, "&lt;b&gt;ex&lt;/b&gt;"},
			NotExpectedContent: []string{"Draft only", "<script>alert"}, AfterTest: textAfterRoot},
		{URL: "/blog/2", ExpectedStatus: 404, NotExpectedContent: []string{"Draft only", "draft words", "ssr-page"}},
		{URL: "/filecloud", ExpectedStatus: 200, NotExpectedContent: []string{"ssr-page"}},
	})
}
