package server

import (
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
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

	for _, p := range []string{"/favicon.ico", "/manifest.webmanifest"} {
		if resp, _ := ta.testApp.do(t, get(p)); resp.StatusCode != 200 {
			t.Errorf("%s: %d", p, resp.StatusCode)
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
	// Its slug finds it too; a missing one is a 404.
	if resp, _ := ta.testApp.do(t, get("/blog/no-such-article")); resp.StatusCode != 404 {
		t.Fatalf("missing article: %d", resp.StatusCode)
	}
	resp, body = ta.testApp.do(t, get("/skills"))
	if resp.StatusCode != 200 || !strings.Contains(string(body), "<title>Skills — DevHub</title>") {
		t.Fatalf("skills: %d", resp.StatusCode)
	}
}
