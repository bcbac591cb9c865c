package server

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/profile"
)

// An admin edits the portfolio from the site: a bad edit is refused by its field and leaves the
// file alone; a good one is written keeping the file's comments, and GET /api/profile answers it
// at once.
func TestPutPortfolio(t *testing.T) {
	dir := t.TempDir()
	src := "# my portfolio\nname: { en: Ann } # who\nheadline: { en: Dev }\nbio: { en: Hi }\navatar: ''\n" +
		"services:\n  - { name: { en: Backend }, description: { en: APIs }, icon: go }\n" +
		"technologies:\n  - { name: { en: Go }, icon: go }\ntools:\n  - { name: { en: Git }, icon: git }\n" +
		"devtools:\n  intro: { en: i, uk: i, ru: i, es: i, fr: i, pt: i }\n  groups:\n" +
		"    - title: { en: g, uk: g, ru: g, es: g, fr: g, pt: g }\n      tools:\n        - { name: { en: Git }, icon: git }\n" +
		"  philosophy: { en: p, uk: p, ru: p, es: p, fr: p, pt: p }\n"
	path := filepath.Join(dir, profile.FileName)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	icons := func(name string) bool { return name == "go" || name == "git" || name == "github" }
	loaded, err := profile.Load(dir, icons)
	if err != nil {
		t.Fatal(err)
	}
	ta := newTestApp(t, func(o *Options) {
		o.Services = &Services{Profile: loaded, PortfolioDir: dir, PortfolioIcons: icons, Authenticate: fakeAuthenticate}
	})
	_, raw := ta.do(t, jsonRequest(http.MethodGet, "/api/profile", "", ""))
	edit := func(change func(m map[string]any)) string {
		var m map[string]any
		json.Unmarshal(raw, &m)
		change(m)
		b, _ := json.Marshal(m)
		return string(b)
	}
	good := edit(func(m map[string]any) {
		m["headline"] = map[string]string{"en": "Staff engineer", "uk": "Провідна інженерка"}
		m["links"] = []map[string]string{{"label": "GitHub", "url": "https://github.com/ann", "icon": "github"}}
	})
	runScenarios(t, sameApp(ta), []apiScenario{
		{Name: "a guest", Method: "PUT", URL: "/api/profile", Body: good, ExpectedStatus: 401},
		{Name: "a user", Method: "PUT", URL: "/api/profile", Token: userToken, Body: good, ExpectedStatus: 403},
		{Name: "an unknown icon", Method: "PUT", URL: "/api/profile", Token: adminToken,
			Body: edit(func(m map[string]any) {
				m["links"] = []map[string]string{{"label": "X", "url": "https://x.example", "icon": "nope"}}
			}), ExpectedStatus: 400, ExpectedContent: []string{`"links.0.icon"`}, NotExpectedContent: []string{dir}},
		{Name: "no English headline", Method: "PUT", URL: "/api/profile", Token: adminToken,
			Body: edit(func(m map[string]any) { m["headline"] = map[string]string{"uk": "x"} }), ExpectedStatus: 400,
			ExpectedContent: []string{`"headline"`}},
		{Name: "not JSON", Method: "PUT", URL: "/api/profile", Token: adminToken, Body: "{", ExpectedStatus: 400},
		{Name: "an admin's edit", Method: "PUT", URL: "/api/profile", Token: adminToken, Body: good, ExpectedStatus: 200,
			ExpectedContent: []string{"Staff engineer"}},
		{Name: "served at once", URL: "/api/profile", ExpectedStatus: 200, ExpectedContent: []string{"Провідна інженерка", "https://github.com/ann"}},
	})
	now, _ := os.ReadFile(path)
	prev, _ := os.ReadFile(path + ".prev")
	if !strings.HasPrefix(string(now), "# my portfolio\n") || !strings.Contains(string(now), "# who") || string(prev) != src {
		t.Fatalf("file:\n%s\nprev:\n%s", now, prev)
	}
}
