package server

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/devhub/devhub/pkg/blog"
)

func TestSEOFiles(t *testing.T) {
	ta := newBlogTestApp(t, func(o *Options) { o.Config.Server.PublicURL = "https://hub.example" })
	raw, _ := json.Marshal(map[string]string{"name": `Fast "Go" <servers>`, "excerpt": "How & why", "category": "c", "content": "x",
		"image_url": "https://img.example/cover.png"})
	if code, body := ta.do(t, "POST", "/api/blog", blogAdminToken, string(raw)); code != 201 {
		t.Fatalf("%d %s", code, body)
	}

	resp, body := ta.testApp.do(t, get("/robots.txt"))
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") ||
		!strings.Contains(string(body), "Sitemap: https://hub.example/sitemap.xml") || !strings.Contains(string(body), "Disallow: /api/") {
		t.Fatalf("robots.txt: %d %s", resp.StatusCode, body)
	}

	resp, body = ta.testApp.do(t, get("/sitemap.xml"))
	var sm struct {
		URLs []struct {
			Loc     string `xml:"loc"`
			LastMod string `xml:"lastmod"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal(body, &sm); err != nil || resp.StatusCode != 200 {
		t.Fatalf("sitemap: %d %v %s", resp.StatusCode, err, body)
	}
	locs := map[string]string{}
	for _, u := range sm.URLs {
		locs[u.Loc] = u.LastMod
	}
	for _, want := range []string{"https://hub.example/", "https://hub.example/blog", "https://hub.example/tools/ip", "https://hub.example/privacy"} {
		if _, ok := locs[want]; !ok {
			t.Errorf("sitemap lacks %s", want)
		}
	}
	if lm, ok := locs["https://hub.example/blog/1"]; !ok || lm == "" {
		t.Errorf("sitemap lacks the article with its lastmod: %v", locs)
	}
	if _, ok := locs["https://hub.example/profile"]; ok {
		t.Error("the profile is in the sitemap")
	}

	// The favicon at its classic address is a picture, and the manifest one a browser can use.
	if resp, _ := ta.testApp.do(t, get("/favicon.ico")); resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "image/") {
		t.Errorf("/favicon.ico: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	resp, body = ta.testApp.do(t, get("/manifest.webmanifest"))
	var manifest struct {
		Name      string `json:"name"`
		ShortName string `json:"short_name"`
		StartURL  string `json:"start_url"`
		Display   string `json:"display"`
		Icons     []struct{ Src, Sizes, Type string }
	}
	if err := json.Unmarshal(body, &manifest); err != nil || resp.StatusCode != 200 ||
		resp.Header.Get("Content-Type") != "application/manifest+json" {
		t.Fatalf("manifest: %d %s %v %s", resp.StatusCode, resp.Header.Get("Content-Type"), err, body)
	}
	if manifest.Name == "" || manifest.ShortName == "" || manifest.StartURL != "/" || manifest.Display == "" || len(manifest.Icons) == 0 {
		t.Errorf("manifest: %+v", manifest)
	}
	for _, icon := range manifest.Icons {
		if r, _ := ta.testApp.do(t, get(icon.Src)); r.StatusCode != 200 || r.Header.Get("Content-Type") != icon.Type {
			t.Errorf("manifest icon %s: %d %s", icon.Src, r.StatusCode, r.Header.Get("Content-Type"))
		}
	}

	// An article's page carries its head in the HTML the server sends.
	resp, body = ta.testApp.do(t, get("/blog/1"))
	page := string(body)
	for _, want := range []string{
		"<title>Fast &#34;Go&#34; &lt;servers&gt; — DevHub</title>",
		`<meta name="description" content="How &amp; why" />`,
		`<link rel="canonical" href="https://hub.example/blog/1" />`,
		`<meta property="og:type" content="article" />`,
		`<meta property="og:image" content="https://img.example/cover.png" />`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("article page lacks %s", want)
		}
	}
	if resp.StatusCode != 200 || strings.Contains(page, "<servers>") {
		t.Fatalf("article page: %d", resp.StatusCode)
	}
	// Its slug moves to its address by number (the one the SPA shows); a
	// missing one is a 404.
	resp, _ = ta.testApp.do(t, get("/blog/fast-go-servers"))
	if resp.StatusCode != 301 || resp.Header.Get("Location") != "/blog/1" {
		t.Fatalf("article by slug: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	// A shared link's query (a campaign's tags) comes along.
	resp, _ = ta.testApp.do(t, get("/blog/fast-go-servers?utm_source=chat&x=1"))
	if resp.StatusCode != 301 || resp.Header.Get("Location") != "/blog/1?utm_source=chat&x=1" {
		t.Fatalf("article by slug with a query: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if resp, _ := ta.testApp.do(t, get("/blog/no-such-article")); resp.StatusCode != 404 {
		t.Fatalf("missing article: %d", resp.StatusCode)
	}
	resp, body = ta.testApp.do(t, get("/skills"))
	if resp.StatusCode != 200 || !strings.Contains(string(body), "<title>Skills — DevHub</title>") {
		t.Fatalf("skills: %d", resp.StatusCode)
	}
}

// Every page of the SPA's router is a page to the server too: opened by
// its address (a link in a mail, a bookmark, a reload) it answers 200 with
// its own title, never the not-found head.
func TestEveryRouteIsAPage(t *testing.T) {
	ta := newBlogTestApp(t, nil)
	for path, title := range map[string]string{
		"/blog/new": "New article", "/blog/1/edit": "Edit article", "/forum": "Forum", "/forum/c/1": "Forum category",
		"/forum/t/2": "Forum thread", "/forum/moderation": "Moderation", "/contact": "Contact", "/setup": "First run",
		"/forgot-password": "Forgot password", "/reset-password": "New password", "/profile/portfolio": "Portfolio editor",
		"/programs": "Programs for Windows", "/alavar/some-game": "Game",
	} {
		resp, body := ta.testApp.do(t, get(path))
		if resp.StatusCode != 200 || !strings.Contains(string(body), "<title>"+title+" — DevHub</title>") {
			t.Errorf("%s: %d, want 200 titled %q", path, resp.StatusCode, title)
		}
	}
}

func TestArticleAlternates(t *testing.T) {
	href := func(id uint64) string { return "https://hub.example/blog/" + strconv.FormatUint(id, 10) }
	art := func(id uint64, lang, key string) blog.Summary {
		return blog.Summary{ID: id, Lang: lang, TranslationKey: key}
	}
	alt := func(lang string, id uint64) sitemapAlternate {
		return sitemapAlternate{Rel: "alternate", HrefLang: lang, Href: href(id)}
	}
	cases := []struct {
		name string
		arts []blog.Summary
		want map[uint64][]sitemapAlternate
	}{
		{"no articles", nil, map[uint64][]sitemapAlternate{}},
		{"no translation keys", []blog.Summary{art(1, "en", ""), art(2, "uk", "")}, map[uint64][]sitemapAlternate{}},
		{"a key with one article", []blog.Summary{art(1, "en", "run")}, map[uint64][]sitemapAlternate{}},
		{"a key in one language only", []blog.Summary{art(1, "en", "run"), art(2, "en", "run")}, map[uint64][]sitemapAlternate{}},
		{"a pair: each lists both, itself included, by language",
			[]blog.Summary{art(2, "uk", "run"), art(1, "en", "run")},
			map[uint64][]sitemapAlternate{1: {alt("en", 1), alt("uk", 2)}, 2: {alt("en", 1), alt("uk", 2)}}},
		{"three languages, another key and an article without one",
			[]blog.Summary{art(1, "en", "run"), art(2, "uk", "run"), art(3, "ru", "run"), art(4, "en", "other"), art(5, "uk", "other"), art(6, "uk", "")},
			map[uint64][]sitemapAlternate{
				1: {alt("en", 1), alt("ru", 3), alt("uk", 2)},
				2: {alt("en", 1), alt("ru", 3), alt("uk", 2)},
				3: {alt("en", 1), alt("ru", 3), alt("uk", 2)},
				4: {alt("en", 4), alt("uk", 5)},
				5: {alt("en", 4), alt("uk", 5)},
			}},
		{"two versions in one language: each names itself, the lowest id stands for it elsewhere",
			[]blog.Summary{art(7, "en", "run"), art(3, "en", "run"), art(5, "uk", "run")},
			map[uint64][]sitemapAlternate{
				3: {alt("en", 3), alt("uk", 5)},
				5: {alt("en", 3), alt("uk", 5)},
				7: {alt("en", 7), alt("uk", 5)},
			}},
		{"no language is the default; case does not matter",
			[]blog.Summary{art(1, "", "run"), art(2, "UK", "run")},
			map[uint64][]sitemapAlternate{1: {alt("en", 1), alt("uk", 2)}, 2: {alt("en", 1), alt("uk", 2)}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := articleAlternates(tc.arts, href); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v\nwant %v", got, tc.want)
			}
		})
	}
}

// The sitemap links translated articles to each other with xhtml:link hreflang entries.
func TestSitemapHreflang(t *testing.T) {
	ta := newBlogTestApp(t, func(o *Options) { o.Config.Server.PublicURL = "https://hub.example" })
	ta.createArticles(t,
		`{"name":"Run","excerpt":"e","category":"c","content":"x","translationKey":"run"}`,
		`{"name":"Запуск","excerpt":"e","category":"c","content":"x","lang":"uk","translationKey":"run"}`,
		`{"name":"Alone","excerpt":"e","category":"c","content":"x","lang":"ru"}`,
	)
	resp, body := ta.testApp.do(t, get("/sitemap.xml"))
	if resp.StatusCode != 200 || !strings.Contains(string(body), `xmlns:xhtml="http://www.w3.org/1999/xhtml"`) {
		t.Fatalf("sitemap: %d %s", resp.StatusCode, body)
	}
	var sm struct {
		URLs []struct {
			Loc   string `xml:"loc"`
			Links []struct {
				Rel      string `xml:"rel,attr"`
				HrefLang string `xml:"hreflang,attr"`
				Href     string `xml:"href,attr"`
			} `xml:"http://www.w3.org/1999/xhtml link"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal(body, &sm); err != nil {
		t.Fatalf("%v\n%s", err, body)
	}
	got := map[string]string{}
	for _, u := range sm.URLs {
		var links []string
		for _, l := range u.Links {
			links = append(links, l.Rel+" "+l.HrefLang+" "+l.Href)
		}
		got[u.Loc] = strings.Join(links, ", ")
	}
	pair := "alternate en https://hub.example/blog/1, alternate uk https://hub.example/blog/2"
	want := map[string]string{
		"https://hub.example/blog/1": pair,
		"https://hub.example/blog/2": pair,
		"https://hub.example/blog/3": "",
		"https://hub.example/blog":   "",
	}
	for loc, links := range want {
		if l, ok := got[loc]; !ok || l != links {
			t.Errorf("%s: links %q (listed: %v), want %q", loc, l, ok, links)
		}
	}
}

// An article's page states its language in the HTML the server sends (the
// document's lang, og:locale) and links its translations, so a crawler or a
// chat's link preview that runs no script sees them.
func TestArticleHeadLanguage(t *testing.T) {
	ta := newBlogTestApp(t, func(o *Options) { o.Config.Server.PublicURL = "https://hub.example" })
	ta.createArticles(t,
		`{"name":"Run","excerpt":"e","category":"c","content":"x","translationKey":"run"}`,
		`{"name":"Запуск","excerpt":"e","category":"c","content":"x","lang":"uk","translationKey":"run"}`,
		`{"name":"Один","excerpt":"e","category":"c","content":"x","lang":"ru"}`,
		`{"name":"Solo","excerpt":"e","category":"c","content":"x","lang":"de","translationKey":"solo"}`,
	)
	pair := []string{
		`<link rel="alternate" hreflang="en" href="https://hub.example/blog/1" />`,
		`<link rel="alternate" hreflang="uk" href="https://hub.example/blog/2" />`,
	}
	for _, tc := range []struct {
		path      string
		want, not []string
	}{
		{"/blog/1", append([]string{`<html lang="en"`, `<meta property="og:locale" content="en_US" />`,
			`<meta property="og:locale:alternate" content="uk_UA" />`}, pair...), []string{`<meta property="og:locale:alternate" content="en_US" />`}},
		{"/blog/2", append([]string{`<html lang="uk"`, `<meta property="og:locale" content="uk_UA" />`,
			`<meta property="og:locale:alternate" content="en_US" />`}, pair...), []string{`<html lang="en"`}},
		{"/blog/3", []string{`<html lang="ru"`, `<meta property="og:locale" content="ru_RU" />`},
			[]string{`hreflang=`, `og:locale:alternate`}},
		// a language outside the interface's: no og:locale, alone in its group: no links
		{"/blog/4", []string{`<html lang="de"`}, []string{`og:locale`, `hreflang=`}},
		{"/skills", nil, []string{`og:locale`, `hreflang=`, `<html lang=`}},
	} {
		resp, body := ta.testApp.do(t, get(tc.path))
		page := string(body)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", tc.path, resp.StatusCode)
		}
		for _, w := range tc.want {
			if !strings.Contains(page, w) {
				t.Errorf("%s lacks %s", tc.path, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(page, n) {
				t.Errorf("%s has %s", tc.path, n)
			}
		}
	}
}

// TestSPADescriptionsMatchServer: the server's HTML and the running SPA say
// the same English description of each route (the server's spaPages and the
// SPA's locales/descriptions/en.json), so a visitor reading English sees no
// change when the script takes over and a crawler reads what the page says.
func TestSPADescriptionsMatchServer(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "site", "src", "locales", "descriptions", "en.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spa map[string]string
	if err := json.Unmarshal(raw, &spa); err != nil {
		t.Fatal(err)
	}
	// A path of each route with its description's key (site/src/lib/pageDescription.ts).
	keys := map[string]string{
		"/": "home", "/skills": "skills", "/tools": "tools", "/tools/camera": "camera",
		"/tools/microphone": "microphone", "/tools/ip": "ip", "/tools/tone_generator": "tone",
		"/chat": "chat", "/games": "games", "/blog": "blog", "/filecloud": "filecloud",
		"/filecloud/1": "file", "/s/abc": "share", "/profile": "profile", "/privacy": "privacy",
		"/terms": "terms",
	}
	for path, key := range map[string]string{"/programs": "programs", "/programs/tool": "program", "/alavar": "alavar", "/alavar/game": "alavarGame", "/blog/new": "articleNew", "/blog/1/edit": "articleEdit", "/forum": "forum", "/forum/c/1": "forumCategory", "/forum/t/1": "forumThread", "/forum/moderation": "moderation", "/contact": "contact", "/setup": "setup", "/forgot-password": "forgotPassword", "/reset-password": "resetPassword", "/verify-email": "verifyEmail", "/profile/portfolio": "portfolioEditor"} {
		keys[path] = key
	}
	for _, p := range spaPages {
		if p.desc == "" {
			continue // an article: its own excerpt
		}
		found := false
		for path, key := range keys {
			if p.pattern.MatchString(path) {
				found = true
				if spa[key] != p.desc {
					t.Errorf("%s: the server says %q, the SPA's %q says %q", path, p.desc, key, spa[key])
				}
			}
		}
		if !found {
			t.Errorf("route %s has no path in this test", p.pattern)
		}
	}
}

// An article's title and excerpt go into the page's head as they are: a
// "$5" or "${0}" in them is text, not a reference to the replaced tag.
func TestArticleHeadKeepsDollarSigns(t *testing.T) {
	tests := []struct {
		name, excerpt string
		wantTitle     string
		wantDesc      string
	}{
		{"Save $5 now", "cost $1 only", "<title>Save $5 now — DevHub</title>", `<meta name="description" content="cost $1 only" />`},
		{"Whole ${0} match", "$0 and ${1}", "<title>Whole ${0} match — DevHub</title>", `<meta name="description" content="$0 and ${1}" />`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// The built index.html has both tags; the head replaces them.
			ta := newBlogTestApp(t, func(o *Options) {
				o.Site = fstest.MapFS{"index.html": {Data: []byte(`<!doctype html><html><head><title>DevHub</title>` +
					`<meta name="description" content="The site." /></head><body><div id="root"></div></body></html>`)}}
			})
			raw, _ := json.Marshal(map[string]string{"name": tc.name, "excerpt": tc.excerpt, "category": "c", "content": "x"})
			if code, body := ta.do(t, "POST", "/api/blog", blogAdminToken, string(raw)); code != 201 {
				t.Fatalf("%d %s", code, body)
			}
			_, body := ta.testApp.do(t, get("/blog/1"))
			if page := string(body); !strings.Contains(page, tc.wantTitle) || !strings.Contains(page, tc.wantDesc) {
				t.Fatalf("head lacks %s or %s:\n%s", tc.wantTitle, tc.wantDesc, page)
			}
		})
	}
}
