package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/blog"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// Test tokens for the fake Authenticate seam.
const (
	blogAdminToken = "admin-token"
	blogUserToken  = "user-token"
)

func blogFakeAuth(tok string) (*auth.Principal, error) {
	switch tok {
	case blogAdminToken:
		return &auth.Principal{User: auth.User{ID: 1, Email: "admin@example.com", Role: "admin"}}, nil
	case blogUserToken:
		return &auth.Principal{User: auth.User{ID: 2, Email: "user@example.com", Role: "user"}}, nil
	}
	return nil, errors.New("bad token")
}

type blogTestApp struct {
	*testApp
	blog *blog.Service
}

func newBlogTestApp(t *testing.T, mutate func(*Options)) *blogTestApp {
	t.Helper()
	st := storetest.Open(t)
	b, err := blog.New(st)
	if err != nil {
		t.Fatal(err)
	}
	ta := newTestApp(t, func(o *Options) {
		o.Services = &Services{Store: st, Blog: b, Authenticate: blogFakeAuth}
		if mutate != nil {
			mutate(o)
		}
	})
	return &blogTestApp{testApp: ta, blog: b}
}

// do sends one request and returns the status and body.
func (ta *blogTestApp) do(t *testing.T, method, path, token, body string) (int, string) {
	t.Helper()
	resp, raw := ta.testApp.do(t, jsonRequest(method, path, token, body))
	return resp.StatusCode, string(raw)
}

// createArticles posts each JSON body to /api/blog as the admin; each must
// be created.
func (ta *blogTestApp) createArticles(t *testing.T, bodies ...string) {
	t.Helper()
	for _, body := range bodies {
		if code, resp := ta.do(t, "POST", "/api/blog", blogAdminToken, body); code != 201 {
			t.Fatalf("%d %s", code, resp)
		}
	}
}

func (ta *blogTestApp) seed(t *testing.T, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		_, err := ta.blog.Create(context.Background(), blog.Input{
			Name: fmt.Sprintf("Article %d", i), Excerpt: "e", Category: []string{"Go", "Новини"}[i%2], Content: fmt.Sprintf("body %d", i),
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

const validArticle = `{"name":"Hello","excerpt":"Short","content":"# Title\n\nText","category":"Go"}`

func TestBlogAuthz(t *testing.T) {
	ta := newBlogTestApp(t, nil)
	ta.seed(t, 1)
	const rename = `{"name":"x"}`
	// A sequence on one app: the refused attempts come first, then the
	// admin's changes, each on the canonical path and the spec's alias.
	runScenarios(t, sameApp(ta.testApp), []apiScenario{
		{Method: "POST", URL: "/api/blog", Body: validArticle, ExpectedStatus: 401},
		{Method: "POST", URL: "/api/blog", Token: "garbage", Body: validArticle, ExpectedStatus: 401},
		{Method: "POST", URL: "/api/blog", Token: blogUserToken, Body: validArticle, ExpectedStatus: 403},
		{Method: "POST", URL: "/api/api/blog", Body: validArticle, ExpectedStatus: 401},
		{Method: "POST", URL: "/api/api/blog", Token: blogUserToken, Body: validArticle, ExpectedStatus: 403},
		{Method: "PUT", URL: "/api/blog/1", Body: rename, ExpectedStatus: 401},
		{Method: "PUT", URL: "/api/blog/1", Token: blogUserToken, Body: rename, ExpectedStatus: 403,
			ExpectedContent: []string{"administrator rights required"}},
		{Method: "DELETE", URL: "/api/blog/1", ExpectedStatus: 401, ExpectedContent: []string{"authentication required"}},
		{Method: "DELETE", URL: "/api/blog/1", Token: blogUserToken, ExpectedStatus: 403},
		{Method: "DELETE", URL: "/api/api/blog/1", Token: blogUserToken, ExpectedStatus: 403},
		{Method: "POST", URL: "/api/blog", Token: blogAdminToken, Body: validArticle, ExpectedStatus: 201,
			ExpectedContent: []string{`"id":2`, `"name":"Hello"`}},
		{Method: "POST", URL: "/api/api/blog", Token: blogAdminToken, Body: validArticle, ExpectedStatus: 201,
			ExpectedContent: []string{`"id":3`}},
		{Method: "PUT", URL: "/api/blog/1", Token: blogAdminToken, Body: rename, ExpectedStatus: 200,
			ExpectedContent: []string{`"name":"x"`}},
		{Method: "PUT", URL: "/api/api/blog/1", Token: blogAdminToken, Body: `{"name":"y"}`, ExpectedStatus: 200},
		{Method: "DELETE", URL: "/api/api/blog/1", Token: blogAdminToken, ExpectedStatus: 204},
		{Method: "DELETE", URL: "/api/blog/2", Token: blogAdminToken, ExpectedStatus: 204},
		{Method: "DELETE", URL: "/api/blog/2", Token: blogAdminToken, ExpectedStatus: 404},
		{Name: "what is left", URL: "/api/blog?limit=50", ExpectedStatus: 200,
			ExpectedContent: []string{`"totalCount":1`, `"id":3`}, NotExpectedContent: []string{`"id":1,`, `"id":2,`}},
	})
	// Non-admin attempts changed nothing: one article left (id 3), named as created.
	_, body := ta.do(t, "GET", "/api/blog?limit=50", "", "")
	var page blog.Page
	json.Unmarshal([]byte(body), &page)
	if page.TotalCount != 1 || page.Articles[0].ID != 3 || page.Articles[0].Name != "Hello" {
		t.Fatalf("after authz table: %s", body)
	}
}

func TestBlogListAndAliases(t *testing.T) {
	ta := newBlogTestApp(t, nil)
	ta.seed(t, 12)
	tests := []struct {
		path      string
		want      int
		wantNames string
		wantTotal int
		wantField string
	}{
		{"/api/blog", 200, "Article 12,Article 11,Article 10,Article 9,Article 8", 12, ""},
		{"/api/api/blog?limit=5&page=1&category=all&search=", 200, "Article 12,Article 11,Article 10,Article 9,Article 8", 12, ""},
		{"/api/api/blog?limit=5&page=3", 200, "Article 2,Article 1", 12, ""},
		{"/api/blog?page=9", 200, "", 12, ""},
		{"/api/blog?limit=2&page=2&category=%D0%BD%D0%BE%D0%B2%D0%B8%D0%BD%D0%B8", 200, "Article 7,Article 5", 6, ""},
		{"/api/blog?search=ARTICLE%2011", 200, "Article 11", 1, ""},
		{"/api/blog?search=body%207", 200, "Article 7", 1, ""},
		{"/api/blog?limit=1000", 200, "", 12, ""},
		{"/api/blog?page=0", 400, "", 0, "page"},
		{"/api/blog?page=-1", 400, "", 0, "page"},
		{"/api/blog?page=abc", 400, "", 0, "page"},
		{"/api/blog?page=1.5", 400, "", 0, "page"},
		{"/api/blog?limit=abc", 400, "", 0, "limit"},
		{"/api/blog?limit=0", 400, "", 0, "limit"},
		{"/api/blog?limit=-3", 400, "", 0, "limit"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			code, body := ta.do(t, "GET", tt.path, "", "")
			if code != tt.want {
				t.Fatalf("status %d, want %d: %s", code, tt.want, body)
			}
			if tt.wantField != "" {
				var e APIError
				if err := json.Unmarshal([]byte(body), &e); err != nil || e.Status != 400 || e.Data[tt.wantField].Code == "" {
					t.Fatalf("error body %s lacks field %q", body, tt.wantField)
				}
				return
			}
			var raw map[string]json.RawMessage
			json.Unmarshal([]byte(body), &raw)
			if _, ok := raw["articles"]; !ok {
				t.Fatalf("no articles key: %s", body)
			}
			if strings.Contains(body, `"content"`) {
				t.Fatalf("list items carry content: %s", body)
			}
			var page blog.Page
			json.Unmarshal([]byte(body), &page)
			if page.TotalCount != tt.wantTotal {
				t.Fatalf("totalCount %d, want %d", page.TotalCount, tt.wantTotal)
			}
			if tt.path == "/api/blog?limit=1000" {
				if len(page.Articles) != 12 {
					t.Fatalf("got %d", len(page.Articles))
				}
				return
			}
			var names []string
			for _, a := range page.Articles {
				names = append(names, a.Name)
			}
			if strings.Join(names, ",") != tt.wantNames {
				t.Fatalf("names %v, want %s", names, tt.wantNames)
			}
		})
	}
}

func TestBlogGetAndCategories(t *testing.T) {
	ta := newBlogTestApp(t, nil)
	code, body := ta.do(t, "POST", "/api/api/blog", blogAdminToken,
		`{"name":"Code","excerpt":"x","category":"Go","content":"## Part\n\n`+"```go\\nfunc main() {}\\n```"+`\n\n<script>alert(1)</script>","image":"/img/a.png"}`)
	if code != 201 {
		t.Fatalf("create: %d %s", code, body)
	}
	var created blog.Article
	json.Unmarshal([]byte(body), &created)
	if created.ID != 1 || created.ImageURL != "/img/a.png" || created.Slug != "code" {
		t.Fatalf("created %+v", created)
	}
	for _, path := range []string{"/api/blog/1", "/api/api/blog/1"} {
		code, body = ta.do(t, "GET", path, "", "")
		if code != 200 {
			t.Fatalf("%s: %d %s", path, code, body)
		}
		var got struct {
			blog.Article
			ContentHTML string `json:"content_html"`
		}
		json.Unmarshal([]byte(body), &got)
		if got.Name != "Code" || !strings.Contains(got.Content, "<script>") ||
			!strings.Contains(got.ContentHTML, `<h2 id="part">Part</h2>`) ||
			!strings.Contains(got.ContentHTML, `class="chroma"`) || strings.Contains(got.ContentHTML, "<script") {
			t.Fatalf("%s: %s", path, body)
		}
	}
	for _, path := range []string{"/api/blog/99", "/api/blog/abc", "/api/blog/0", "/api/api/blog/99"} {
		if code, body := ta.do(t, "GET", path, "", ""); code != 404 || !strings.Contains(body, `"status":404`) {
			t.Fatalf("%s: %d %s", path, code, body)
		}
	}
	ta.do(t, "POST", "/api/blog", blogAdminToken, `{"name":"B","excerpt":"x","category":"go","content":"y"}`)
	ta.do(t, "POST", "/api/blog", blogAdminToken, `{"name":"C","excerpt":"x","category":"Files","content":"y"}`)
	code, body = ta.do(t, "GET", "/api/api/blog/categories", "", "")
	if code != 200 || body != `[{"name":"go","count":2},{"name":"Files","count":1}]` {
		t.Fatalf("categories: %d %s", code, body)
	}
}

func TestBlogCreateValidation(t *testing.T) {
	ta := newBlogTestApp(t, nil)
	tests := []struct {
		name, body, field string
		want              int
	}{
		{"empty body", "", "", 400},
		{"malformed json", `{"name":`, "", 400},
		{"missing all", `{}`, "name", 400},
		{"missing content", `{"name":"n","excerpt":"e","category":"c"}`, "content", 400},
		{"missing category", `{"name":"n","excerpt":"e","content":"c"}`, "category", 400},
		{"missing excerpt", `{"name":"n","category":"e","content":"c"}`, "excerpt", 400},
		{"blank name", `{"name":"  ","excerpt":"e","category":"c","content":"x"}`, "name", 400},
		{"javascript image", `{"name":"n","excerpt":"e","category":"c","content":"x","image_url":"javascript:alert(1)"}`, "image_url", 400},
		{"data html image", `{"name":"n","excerpt":"e","category":"c","content":"x","image_url":"data:text/html,<b>"}`, "image_url", 400},
		{"relative image", `{"name":"n","excerpt":"e","category":"c","content":"x","image_url":"a.png"}`, "image_url", 400},
		{"wrong type", `{"name":5,"excerpt":"e","category":"c","content":"x"}`, "", 400},
		{"too large", `{"name":"n","excerpt":"e","category":"c","content":"` + strings.Repeat("x", 2<<20) + `"}`, "", 413},
		{"svg image ok", `{"name":"n","excerpt":"e","category":"c","content":"x","image_url":"<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>"}`, "", 201},
		{"data png ok", `{"name":"n2","excerpt":"e","category":"c","content":"x","image_url":"data:image/png;base64,iVBORw0KGgo="}`, "", 201},
		{"role in body ignored", `{"name":"n3","excerpt":"e","category":"c","content":"x","role":"admin"}`, "", 201},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := ta.do(t, "POST", "/api/blog", blogAdminToken, tt.body)
			if code != tt.want {
				t.Fatalf("status %d, want %d: %.300s", code, tt.want, body)
			}
			if tt.field != "" && !strings.Contains(body, `"`+tt.field+`":{"code"`) {
				t.Fatalf("body lacks field %q: %s", tt.field, body)
			}
		})
	}
	// Edits validate the same way.
	if code, body := ta.do(t, "PUT", "/api/blog/1", blogAdminToken, `{"image_url":"JaVaScRiPt:alert(1)"}`); code != 400 || !strings.Contains(body, "image_url") {
		t.Fatalf("edit: %d %s", code, body)
	}
	if code, _ := ta.do(t, "PUT", "/api/blog/77", blogAdminToken, `{"name":"x"}`); code != 404 {
		t.Fatalf("edit unknown: %d", code)
	}
}

// TestBlogXSSThroughAPI: each of the XSS cases, created through the
// API and read back as content_html, carries no element or URL that runs
// script, while the visible text stays.
func TestBlogXSSThroughAPI(t *testing.T) {
	ta := newBlogTestApp(t, nil)
	tests := []struct{ name, md, keep string }{
		{"script", "<script>alert(1)</script>\n\nafter", "after"},
		{"img onerror", `<img src=x onerror="alert(1)"> after`, "after"},
		{"javascript link", "[x](javascript:alert(1))", ">x<"},
		{"mixed case scheme", "[x](JaVaScRiPt:alert(1))", ">x<"},
		{"leading space", "[x]( javascript:alert(1))", ">x<"},
		{"leading spaces in angle brackets", "[x](<   javascript:alert(1)>)", ">x<"},
		{"vbscript", "[x](vbscript:msgbox(1))", ">x<"},
		{"data html", "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)", ">x<"},
		{"data svg image", "![pic](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)", "pic"},
		{"raw anchor", `<a href="javascript:alert(1)">x</a>`, "x"},
		{"raw svg", `<svg onload="alert(1)"></svg> after`, "after"},
		{"autolink", "<JAVASCRIPT:alert(1)>", "JAVASCRIPT:alert(1)"},
		{"reference", "[x][r]\n\n[r]: javascript:alert(1)", ">x<"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, _ := json.Marshal(map[string]string{"name": fmt.Sprintf("x%d", i), "excerpt": "e", "category": "c", "content": tt.md})
			code, body := ta.do(t, "POST", "/api/api/blog", blogAdminToken, string(raw))
			if code != 201 {
				t.Fatalf("create: %d %s", code, body)
			}
			var created blog.Article
			json.Unmarshal([]byte(body), &created)
			code, body = ta.do(t, "GET", fmt.Sprintf("/api/blog/%d", created.ID), "", "")
			var got struct {
				Content     string `json:"content"`
				ContentHTML string `json:"content_html"`
			}
			if err := json.Unmarshal([]byte(body), &got); err != nil || code != 200 {
				t.Fatalf("get: %d %s", code, body)
			}
			if got.Content != tt.md {
				t.Errorf("stored Markdown changed: %q", got.Content)
			}
			lower := strings.ToLower(got.ContentHTML)
			for _, bad := range []string{"<script", "<img src=\"x", "onerror", "onload", "<svg", "<a href=\"javascript", "javascript:alert(1)\"", "vbscript:", "data:text/html", "svg+xml"} {
				if strings.Contains(lower, bad) {
					t.Errorf("content_html holds %q: %s", bad, got.ContentHTML)
				}
			}
			if !strings.Contains(got.ContentHTML, tt.keep) {
				t.Errorf("content_html lost %q: %s", tt.keep, got.ContentHTML)
			}
		})
	}
}

// TestBlogSVGImageOnlyAsDataURL: SVG markup with an onload handler is stored
// as given in image_url (the SPA turns it into a data: URL for an <img>),
// and nothing the server renders ever carries it as markup.
func TestBlogSVGImageOnlyAsDataURL(t *testing.T) {
	ta := newBlogTestApp(t, nil)
	svg := `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><circle r="3"/></svg>`
	raw, _ := json.Marshal(map[string]string{"name": "S", "excerpt": "e", "category": "c", "content": "x", "image_url": svg})
	if code, body := ta.do(t, "POST", "/api/blog", blogAdminToken, string(raw)); code != 201 {
		t.Fatalf("%d %s", code, body)
	}
	_, body := ta.do(t, "GET", "/api/blog/1", "", "")
	var got map[string]any
	json.Unmarshal([]byte(body), &got)
	if got["image_url"] != svg || strings.Contains(got["content_html"].(string), "svg") {
		t.Fatalf("got %s", body)
	}
	_, feed := ta.do(t, "GET", "/feed.xml", "", "")
	if strings.Contains(feed, "<svg") || strings.Contains(feed, "onload") {
		t.Fatalf("feed carries the svg: %s", feed)
	}
}

func TestBlogFeed(t *testing.T) {
	ta := newBlogTestApp(t, func(o *Options) { o.Config.Server.PublicURL = "https://hub.example" })
	raw, _ := json.Marshal(map[string]string{"name": `"><script>alert(1)</script>`, "excerpt": `<img src=x onerror=alert(1)>`, "category": "c", "content": "x"})
	if code, body := ta.do(t, "POST", "/api/blog", blogAdminToken, string(raw)); code != 201 {
		t.Fatalf("%d %s", code, body)
	}
	resp, body := ta.testApp.do(t, httptest.NewRequest("GET", "/feed.xml", nil))
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/atom+xml") {
		t.Fatalf("%d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	out := string(body)
	if strings.Contains(out, "<script") || strings.Contains(out, "<img") {
		t.Fatalf("unescaped markup in feed:\n%s", out)
	}
	for _, want := range []string{"&lt;script&gt;", "&lt;img src=x onerror=alert(1)&gt;", `href="https://hub.example/blog/1"`} {
		if !strings.Contains(out, want) {
			t.Fatalf("feed lacks %q:\n%s", want, out)
		}
	}
	// The feed is not the SPA even though the SPA catches other paths.
	if strings.Contains(out, "<div id=\"root\">") {
		t.Fatal("feed answered by the SPA")
	}
}

// The blog's reads, each answered for GET and (generated) HEAD alike, on a
// fresh app with three articles per scenario.
func TestBlogReadScenarios(t *testing.T) {
	app := func(t *testing.T) *testApp {
		ta := newBlogTestApp(t, nil)
		ta.seed(t, 3)
		return ta.testApp
	}
	runScenarios(t, app, []apiScenario{
		{URL: "/api/blog", ExpectedStatus: 200, ExpectedContent: []string{`"totalCount":3`, `"name":"Article 3"`}},
		{URL: "/api/api/blog?category=Go", ExpectedStatus: 200, ExpectedContent: []string{`"totalCount":1`, `"name":"Article 2"`}},
		{URL: "/api/blog?page=0", ExpectedStatus: 400, ExpectedContent: []string{`"page"`}},
		{URL: "/api/blog?limit=-1", ExpectedStatus: 400, ExpectedContent: []string{`"limit"`}},
		{URL: "/api/blog/categories", ExpectedStatus: 200, ExpectedContent: []string{`{"name":"Новини","count":2}`, `{"name":"Go","count":1}`}},
		{URL: "/api/blog/1", ExpectedStatus: 200, ExpectedContent: []string{`"content_html"`, `"name":"Article 1"`}},
		{URL: "/api/api/blog/2", ExpectedStatus: 200, ExpectedContent: []string{`"name":"Article 2"`}},
		{URL: "/api/blog/99", ExpectedStatus: 404, ExpectedContent: []string{`"status":404`}},
		{URL: "/api/blog/abc", ExpectedStatus: 404},
		{URL: "/api/blog/0", ExpectedStatus: 404},
		{URL: "/feed.xml", ExpectedStatus: 200, ExpectedContent: []string{"<feed", "Article 3"},
			NotExpectedContent: []string{`<div id="root">`}},
	})
}

// BenchmarkBlogAPI measures whole requests (routing, query parsing, JSON)
// against 10 000 articles of about 2 KB, imported from generated files.
func BenchmarkBlogAPI(b *testing.B) {
	st := storetest.Open(b)
	svc, err := blog.New(st)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	words := strings.Fields("go server article emulator cloud file стаття пошук сторінка статья поиск игра консоль хмара")
	for i := 0; i < 10000; i++ {
		var sb strings.Builder
		for j := 0; j < 300; j++ {
			sb.WriteString(words[(i*7+j*j)%len(words)])
			sb.WriteByte(' ')
		}
		body := fmt.Sprintf("---\nname: Article %d\nexcerpt: %s\ncategory: %s\n---\n%s\n", i, words[i%len(words)], words[i%5], sb.String())
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("a%05d.md", i)), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := svc.Import(context.Background(), dir); err != nil {
		b.Fatal(err)
	}
	app, err := New(Options{Config: config.Default(), Services: withRequired(b, &Services{Store: st, Blog: svc}),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	for _, path := range []string{"/api/blog?limit=5&page=1&category=all&search=", "/api/api/blog?page=40&category=cloud",
		"/api/blog?search=%D0%9F%D0%9E%D0%98%D0%A1%D0%9A", "/api/blog?search=nowhere"} {
		b.Run(path, func(b *testing.B) {
			for b.Loop() {
				resp, err := app.Test(httptest.NewRequest("GET", path, nil))
				if err != nil || resp.StatusCode != 200 {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
			}
		})
	}
}

// Without server.public_url the feed never builds links from the Host
// header a client sent (a cache in front would serve them to everyone):
// links are relative and ids are URNs.
func TestBlogFeedIgnoresHostHeader(t *testing.T) {
	ta := newBlogTestApp(t, nil)
	raw, _ := json.Marshal(map[string]string{"name": "Post", "excerpt": "e", "category": "c", "content": "x"})
	if code, body := ta.do(t, "POST", "/api/blog", blogAdminToken, string(raw)); code != 201 {
		t.Fatalf("%d %s", code, body)
	}
	req := httptest.NewRequest("GET", "/feed.xml", nil)
	req.Host = "evil.example"
	req.Header.Set("X-Forwarded-Host", "evil.example")
	resp, body := ta.testApp.do(t, req)
	out := string(body)
	if resp.StatusCode != 200 || strings.Contains(out, "evil.example") {
		t.Fatalf("feed built from the Host header:\n%s", out)
	}
	for _, want := range []string{`href="/blog/1"`, `<id>urn:devhub:blog:1</id>`, `href="/feed.xml"`} {
		if !strings.Contains(out, want) {
			t.Fatalf("feed lacks %q:\n%s", want, out)
		}
	}
}

// queryInt bounds pages and limits, so no list's page*limit can overflow
// into a negative offset: the file list sliced with one and panicked (500).
// With something on the first page, a page past the end is empty (not a
// wrap-around to the first).
func TestAbsurdPagesAreEmpty(t *testing.T) {
	blogApp := newBlogTestApp(t, nil)
	blogApp.seed(t, 3)
	filesApp := newFilesTestApp(t, 1<<20)
	filesApp.upload(t, filePart("a.png", testPNG), filePart("notes.txt", []byte("plain text")))
	apps := map[string]*testApp{"blog": blogApp.testApp, "files": filesApp.testApp}
	// count is how many items the answer lists.
	count := func(t *testing.T, app string, body []byte) int {
		t.Helper()
		if app == "blog" {
			var page struct{ Articles []json.RawMessage }
			if err := json.Unmarshal(body, &page); err != nil || page.Articles == nil {
				t.Fatalf("%v %s", err, body)
			}
			return len(page.Articles)
		}
		var groups map[string]json.RawMessage
		if err := json.Unmarshal(body, &groups); err != nil {
			t.Fatalf("%v %s", err, body)
		}
		n := 0
		for g, raw := range groups {
			var items []json.RawMessage
			if g != "totals" && json.Unmarshal(raw, &items) == nil {
				n += len(items)
			}
		}
		return n
	}
	tests := []struct {
		app, url string
		want     int
	}{
		{"blog", "/api/blog?page=1&limit=2", 2},
		{"blog", "/api/blog?page=9223372036854775807&limit=2", 0},
		{"blog", "/api/blog?page=3&limit=4611686018427387904", 0},
		{"files", "/api/files?type=images", 1},
		{"files", "/api/files?type=images&page=9223372036854775807&limit=2", 0},
		{"files", "/api/files?page=3&limit=9223372036854775807", 0},
	}
	for _, tc := range tests {
		t.Run(tc.url, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, tc.url, nil)
			if tc.app == "files" {
				req.Header.Set("Authorization", "Bearer "+userToken)
			}
			resp, body := apps[tc.app].do(t, req)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%d %s", resp.StatusCode, body)
			}
			if n := count(t, tc.app, body); n != tc.want {
				t.Fatalf("%d items, want %d: %s", n, tc.want, body)
			}
		})
	}
}
