package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/devhub/devhub/pkg/profile"
)

// brandProfile is a minimal valid portfolio plus extra (a site block).
func brandProfile(t *testing.T, extra string) (string, *profile.Loaded, profile.IconExists) {
	t.Helper()
	dir := t.TempDir()
	src := "name: { en: Ann }\nheadline: { en: Dev }\nbio: { en: Hi }\navatar: ''\n" +
		"services:\n  - { name: { en: Backend }, description: { en: APIs }, icon: go }\n" +
		"technologies:\n  - { name: { en: Go }, icon: go }\ntools:\n  - { name: { en: Git }, icon: git }\n" +
		"devtools:\n  intro: { en: i, uk: i, ru: i, es: i, fr: i, pt: i }\n  groups:\n" +
		"    - title: { en: g, uk: g, ru: g, es: g, fr: g, pt: g }\n      tools:\n        - { name: { en: Git }, icon: git }\n" +
		"  philosophy: { en: p, uk: p, ru: p, es: p, fr: p, pt: p }\n" + extra
	if err := os.WriteFile(filepath.Join(dir, profile.FileName), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	icons := func(name string) bool { return name == "go" || name == "git" }
	l, err := profile.Load(dir, icons)
	if err != nil {
		t.Fatal(err)
	}
	return dir, l, icons
}

// The site's name in the heads, the manifest and the feeds is the portfolio's, DevHub by
// default, and an admin's edit of it shows from the next request on.
func TestSiteNameInHeadsAndFeeds(t *testing.T) {
	dir, loaded, icons := brandProfile(t, "")
	ta := newBlogTestApp(t, func(o *Options) {
		o.Services.Profile, o.Services.PortfolioDir, o.Services.PortfolioIcons = loaded, dir, icons
		o.Site = fstest.MapFS{"index.html": {Data: []byte(`<!doctype html><html><head><title>DevHub</title>` +
			`<meta name="description" content="The site." /></head><body><div id="root"></div></body></html>`)}}
	})
	raw, _ := json.Marshal(map[string]string{"name": "Hello", "excerpt": "e", "category": "c", "content": "x"})
	if code, body := ta.do(t, "POST", "/api/blog", blogAdminToken, string(raw)); code != 201 {
		t.Fatalf("%d %s", code, body)
	}
	check := func(t *testing.T, name, raw, subtitle string) { // name as HTML and XML escape it, raw as JSON has it
		t.Helper()
		for _, tc := range []struct{ path, want string }{
			{"/", "<title>" + name + " — portfolio, tools, blog, file cloud and games</title>"},
			{"/skills", "<title>Skills — " + name + "</title>"},
			{"/skills", `<meta property="og:site_name" content="` + name + `" />`},
			{"/blog/1", "<title>Hello — " + name + "</title>"},
			{"/blog/1", `<a href="/">` + name + `</a>`},
			{"/no/such/page", "<title>Not found — " + name + "</title>"},
			{"/feed.xml", "<title>" + name + " blog</title>"},
		} {
			_, body := ta.testApp.do(t, get(tc.path))
			if !strings.Contains(string(body), tc.want) {
				t.Errorf("%s lacks %s:\n%.600s", tc.path, tc.want, body)
			}
		}
		_, body := ta.testApp.do(t, get("/manifest.webmanifest"))
		var m struct{ Name, ShortName, Description string }
		if err := json.Unmarshal(body, &struct {
			Name        *string `json:"name"`
			ShortName   *string `json:"short_name"`
			Description *string `json:"description"`
		}{&m.Name, &m.ShortName, &m.Description}); err != nil || m.Name != raw || m.ShortName != raw || m.Description != subtitle {
			t.Errorf("manifest %s (%v), want %s / %s", body, err, name, subtitle)
		}
	}
	t.Run("default", func(t *testing.T) { check(t, "DevHub", "DevHub", "Developer hub") })

	_, cur := ta.testApp.do(t, get("/api/profile"))
	var p map[string]any
	if err := json.Unmarshal(cur, &p); err != nil {
		t.Fatal(err)
	}
	p["site"] = map[string]any{"name": map[string]string{"en": `Ann's "hub"`, "uk": "Хаб Анни"}, "subtitle": map[string]string{"en": "Notes & tools"}}
	body, _ := json.Marshal(p)
	if code, out := ta.do(t, "PUT", "/api/profile", blogAdminToken, string(body)); code != 200 || !strings.Contains(out, "Хаб Анни") {
		t.Fatalf("PUT /api/profile: %d %s", code, out)
	}
	t.Run("edited", func(t *testing.T) { check(t, "Ann&#39;s &#34;hub&#34;", `Ann's "hub"`, "Notes & tools") })

	p["site"] = map[string]any{"name": map[string]string{"en": strings.Repeat("x", profile.MaxSiteName+1)}}
	body, _ = json.Marshal(p)
	if code, out := ta.do(t, "PUT", "/api/profile", blogAdminToken, string(body)); code != 400 || !strings.Contains(out, `"site.name.en"`) {
		t.Fatalf("a too long name: %d %s", code, out)
	}
}

// Letters call the site by the name its owner gave it, in the letter's language, and by its
// address while it has none.
func TestOwnSiteNameForLetters(t *testing.T) {
	for _, tc := range []struct {
		name, extra, lang, want string
	}{
		{"no site block", "", "uk", ""},
		{"a subtitle only", "site:\n  subtitle: { en: Notes }\n", "en", ""},
		{"the letter's language", "site:\n  name: { en: Ann's, uk: Анни }\n", "uk", "Анни"},
		{"English otherwise", "site:\n  name: { en: Ann's, uk: Анни }\n", "ru", "Ann's"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, loaded, _ := brandProfile(t, tc.extra)
			pa, err := newProfileAssets(loaded)
			if err != nil {
				t.Fatal(err)
			}
			s := &Server{}
			s.portfolio.set(pa)
			if got := s.ownSiteName(tc.lang); got != tc.want {
				t.Errorf("ownSiteName(%s) = %q, want %q", tc.lang, got, tc.want)
			}
		})
	}
}
