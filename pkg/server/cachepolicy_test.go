package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/storage"
)

// cacheCase is one request and the caching it must be answered with.
type cacheCase struct {
	name, method, url string
	// who: "" a guest, "cookie" a guest's browser that holds a cookie,
	// else a bearer token.
	who    string
	status int
	// want: "public" (cachePublicPage, cachePublicHTML for a page, a strong ETag, Vary on the
	// credentials), "private" (private, never public or s-maxage), "no-store",
	// or an exact Cache-Control value the handler chose.
	want string
}

func runCacheCases(t *testing.T, ta *testApp, cases []cacheCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			method := tc.method
			if method == "" {
				method = http.MethodGet
			}
			req := httptest.NewRequest(method, tc.url, nil)
			switch tc.who {
			case "":
			case "cookie":
				req.Header.Set("Cookie", "devhub_refresh=x")
			default:
				req.Header.Set("Authorization", "Bearer "+tc.who)
			}
			resp, body := ta.do(t, req)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %.200s", resp.StatusCode, tc.status, body)
			}
			cc, vary, etag := resp.Header.Get("Cache-Control"), resp.Header.Values("Vary"), resp.Header.Get("ETag")
			varies := strings.Join(vary, ",")
			switch tc.want {
			case "public":
				want := cachePublicPage
				if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
					want = cachePublicHTML
				}
				if cc != want {
					t.Fatalf("Cache-Control %q, want %q", cc, want)
				}
				if !strings.Contains(varies, "Authorization") || !strings.Contains(varies, "Cookie") {
					t.Fatalf("Vary %q lacks the credentials", varies)
				}
				if etag == "" || strings.HasPrefix(etag, "W/") {
					t.Fatalf("ETag %q, want a strong one", etag)
				}
				// The validator works: the same request with it is a 304.
				again := httptest.NewRequest(method, tc.url, nil)
				again.Header.Set("If-None-Match", etag)
				r2, b2 := ta.do(t, again)
				if r2.StatusCode != http.StatusNotModified || len(b2) != 0 || r2.Header.Get("Cache-Control") != want {
					t.Fatalf("If-None-Match: %d, %d bytes, Cache-Control %q", r2.StatusCode, len(b2), r2.Header.Get("Cache-Control"))
				}
			case "private":
				if !strings.HasPrefix(cc, "private") || strings.Contains(cc, "public") || strings.Contains(cc, "s-maxage") {
					t.Fatalf("Cache-Control %q, want private", cc)
				}
			default:
				if cc != tc.want {
					t.Fatalf("Cache-Control %q, want %q", cc, tc.want)
				}
			}
		})
	}
}

// The blog's routes, as a guest, a user and an admin: the same URL answers
// an admin with drafts, so that answer is private while the guest's is public.
func TestCachePolicyBlog(t *testing.T) {
	ta, _, _ := newWritingApp(t)
	runCacheCases(t, ta.testApp, []cacheCase{
		{name: "list, guest", url: "/api/blog?limit=50", status: 200, want: "public"},
		{name: "list alias, guest", url: "/api/api/blog", status: 200, want: "public"},
		{name: "list, HEAD", method: http.MethodHead, url: "/api/blog", status: 200, want: "public"},
		{name: "list, user", url: "/api/blog?limit=50", who: blogUserToken, status: 200, want: "private"},
		{name: "list with drafts, admin", url: "/api/blog?limit=50", who: blogAdminToken, status: 200, want: "private"},
		{name: "list, a browser with a cookie", url: "/api/blog?limit=50", who: "cookie", status: 200, want: "private"},
		{name: "categories, guest", url: "/api/blog/categories", status: 200, want: "public"},
		{name: "categories with hidden ones, admin", url: "/api/blog/categories", who: blogAdminToken, status: 200, want: "private"},
		{name: "article, guest", url: "/api/blog/1", status: 200, want: "public"},
		{name: "article with translations, admin", url: "/api/blog/1", who: blogAdminToken, status: 200, want: "private"},
		{name: "draft, admin", url: "/api/blog/2", who: blogAdminToken, status: 200, want: "private"},
		{name: "draft, guest", url: "/api/blog/2", status: 404, want: "private, no-cache"},
		{name: "revisions, admin", url: "/api/blog/1/revisions", who: blogAdminToken, status: 200, want: "private"},
		{name: "feed", url: "/feed.xml", status: 200, want: "public"},
		{name: "sitemap", url: "/sitemap.xml", status: 200, want: "public"},
		{name: "robots keeps its own lifetime", url: "/robots.txt", status: 200, want: cacheShort},
		{name: "article page (SSR)", url: "/blog/1", status: 200, want: "public"},
		{name: "list page (SSR)", url: "/blog", status: 200, want: "public"},
		{name: "home page", url: "/", status: 200, want: "public"},
		{name: "article page, a browser with a cookie", url: "/blog/1", who: "cookie", status: 200, want: "private"},
		{name: "first-run page", url: "/setup?token=abc", status: 200, want: cacheNoCache},
		{name: "a share link's page", url: "/s/sometoken", status: 404, want: cacheNoCache},
	})
}

// Accounts: nothing under /api/auth is stored anywhere; the site's assets
// keep their lifetimes, made private when a token comes with them.
func TestCachePolicyAuth(t *testing.T) {
	a := newAuthApp(t, nil)
	tok := a.register(t, "cache@example.com", "a long enough password 1").Tokens.AccessToken
	runCacheCases(t, a.testApp, []cacheCase{
		{name: "own profile", url: "/api/auth/profile", who: tok, status: 200, want: "no-store"},
		{name: "registration policy, guest", url: "/api/auth/registration", status: 200, want: "no-store"},
		{name: "refused", url: "/api/auth/profile", status: 401, want: "no-store"},
		{name: "own sessions", url: "/api/auth/sessions", who: tok, status: 200, want: "no-store"},
		{name: "a hashed asset stays immutable", url: "/assets/index-abc123.js", status: 200, want: cacheImmutable},
		{name: "a hashed asset, with a token", url: "/assets/index-abc123.js", who: tok, status: 200,
			want: "private, max-age=31536000, immutable"},
		{name: "home page, guest", url: "/", status: 200, want: "public"},
		{name: "home page, with a token", url: "/", who: tok, status: 200, want: "private"},
	})
}

// Downloads, the file cloud and ROM lists: lists and entries are public to
// guests and private to the signed-in; file bytes are private to everyone.
func TestCachePolicyDownloadsAndFiles(t *testing.T) {
	da := newDownloadsTestApp(t, storage.Local)
	da.create(t, `{"section":"programs","slug":"tool","name":"Tool"}`)
	da.release(t, "tool", adminToken, field("version", "1"), releasePart{"files", "t.exe", randomBytes(100)}, field("system", "windows"), field("arch", "x64"))
	e, _ := da.svc.Get("tool")
	fileURL := "/api/downloads/tool/files/" + e.Releases[0].Files[0].ID
	runCacheCases(t, da.testApp, []cacheCase{
		{name: "downloads list, guest", url: "/api/downloads?section=programs", status: 200, want: "public"},
		{name: "downloads list, admin", url: "/api/downloads?section=programs", who: adminToken, status: 200, want: "private"},
		{name: "entry, guest", url: "/api/downloads/tool", status: 200, want: "public"},
		{name: "entry, user", url: "/api/downloads/tool", who: userToken, status: 200, want: "private"},
		{name: "feed", url: "/programs/feed.xml", status: 200, want: "public"},
		{name: "release file, guest", url: fileURL, status: 200, want: "private, no-cache"},
		{name: "release file, admin", url: fileURL, who: adminToken, status: 200, want: "private, no-cache"},
	})

	fa := newFilesTestApp(t, 1<<20)
	pub := fa.upload(t, filePart("a.bin", randomBytes(100)))[0]
	runCacheCases(t, fa.testApp, []cacheCase{
		{name: "files list, guest", url: "/api/files", status: 200, want: "public"},
		{name: "files list with own private files, user", url: "/api/files", who: userToken, status: 200, want: "private"},
		{name: "file record, guest", url: "/api/files/" + itoa(pub.ID), status: 200, want: "public"},
		{name: "file bytes, guest", url: "/api/files/" + itoa(pub.ID) + "/download", status: 200, want: "private, no-cache"},
		{name: "file bytes, owner", url: "/api/files/" + itoa(pub.ID) + "/download", who: userToken, status: 200, want: "private, no-cache"},
		{name: "quota", url: "/api/auth/quota", who: userToken, status: 200, want: "no-store"},
	})
}
