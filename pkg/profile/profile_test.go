package profile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// icons is a small stand-in for the served icon set.
func icons(name string) bool {
	switch name {
	case "go", "react", "github", "docker", "git":
		return true
	}
	return false
}

const all6 = "{ en: E, uk: U, ru: R, es: S, fr: F, pt: P }"

// valid is the smallest profile that passes; each bad case below changes one thing in it.
const valid = `name: { en: Ann }
headline: { en: Developer }
bio: { en: Hello }
avatar: a.png
links:
  - { label: GitHub, url: "https://github.com/x", icon: github }
services:
  - name: { en: Backend }
    description: { en: APIs }
    icon: go
technologies:
  - { name: { en: Go }, icon: go }
tools:
  - { name: { en: Git }, icon: git }
devtools:
  intro: ` + all6 + `
  groups:
    - title: ` + all6 + `
      tools:
        - { name: { en: Docker }, icon: docker }
  philosophy: ` + all6 + `
projects:
  - name: p
    description: { en: d }
    link: "https://example.org"
    tags: [Go]
`

// png is the PNG signature plus a little, enough for content sniffing.
var png = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00")

func writeDir(t *testing.T, profile string, avatar []byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(profile), 0o600); err != nil {
		t.Fatal(err)
	}
	if avatar != nil {
		if err := os.WriteFile(filepath.Join(dir, "a.png"), avatar, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadValid(t *testing.T) {
	l, err := Load(writeDir(t, valid, png), icons)
	if err != nil {
		t.Fatal(err)
	}
	if l.Profile.Name["en"] != "Ann" || l.AvatarType != "image/png" || len(l.Profile.DevTools.Groups) != 1 || l.Profile.Projects[0].Tags[0] != "Go" {
		t.Fatalf("loaded %+v (%s)", l.Profile, l.AvatarType)
	}
}

func TestLoadMissingFile(t *testing.T) {
	if _, err := Load(t.TempDir(), icons); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want not exist", err)
	}
}

// Every bad case names the file, the line and the field.
func TestLoadRefuses(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(string) string
		avatar  []byte
		line    int
		field   string
		message string
	}{
		{"unknown key", func(s string) string { return s + "colour: red\n" }, png, 27, "colour", "unknown key"},
		{"unknown nested key", func(s string) string {
			return strings.Replace(s, "    icon: go\n", "    icon: go\n    price: 5\n", 1)
		}, png, 11, "price", "unknown key"},
		{"missing required name", func(s string) string { return strings.Replace(s, "name: { en: Ann }\n", "", 1) }, png, 1, "name", "required"},
		{"missing english headline", func(s string) string {
			return strings.Replace(s, "headline: { en: Developer }", "headline: { uk: Розробниця }", 1)
		}, png, 2, "headline", "the en text is required"},
		{"unknown language", func(s string) string {
			return strings.Replace(s, "bio: { en: Hello }", "bio: { en: Hello, de: Hallo }", 1)
		}, png, 3, "bio.de", "unknown language"},
		{"icon that does not exist", func(s string) string {
			return strings.Replace(s, "{ name: { en: Go }, icon: go }", "{ name: { en: Go }, icon: nosuchlogo }", 1)
		}, png, 12, "technologies.0.icon", `no icon named "nosuchlogo"`},
		{"missing icon", func(s string) string {
			return strings.Replace(s, "{ name: { en: Git }, icon: git }", "{ name: { en: Git } }", 1)
		}, png, 14, "tools.0.icon", "required"},
		{"dev tools text in one language only", func(s string) string {
			return strings.Replace(s, "  philosophy: "+all6, "  philosophy: { en: E }", 1)
		}, png, 21, "devtools.philosophy", "the uk text is required"},
		{"bad link", func(s string) string { return strings.Replace(s, `"https://github.com/x"`, `"javascript:alert(1)"`, 1) }, png, 6, "links.0.url", "http(s) or mailto"},
		{"missing avatar", func(s string) string { return s }, nil, 4, "avatar", `"a.png" does not exist`},
		{"avatar not an image", func(s string) string { return s }, []byte("just some text\n"), 4, "avatar", "is not an image"},
		{"avatar outside the content dir", func(s string) string { return strings.Replace(s, "avatar: a.png", "avatar: ../a.png", 1) }, png, 4, "avatar", "inside the content directory"},
		{"not YAML", func(s string) string { return "name: [unclosed\n" }, png, 0, "", ""},
		{"wrong type", func(s string) string { return strings.Replace(s, "tags: [Go]", "tags: { a: b }", 1) }, png, 26, "", "cannot unmarshal"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeDir(t, tc.edit(valid), tc.avatar)
			_, err := Load(dir, icons)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *profile.Error", err)
			}
			if !strings.HasSuffix(pe.File, FileName) {
				t.Errorf("file = %q", pe.File)
			}
			if tc.line != 0 && pe.Line != tc.line {
				t.Errorf("line = %d, want %d (%v)", pe.Line, tc.line, err)
			}
			if pe.Field != tc.field {
				t.Errorf("field = %q, want %q (%v)", pe.Field, tc.field, err)
			}
			if !strings.Contains(pe.Msg, tc.message) {
				t.Errorf("message = %q, want %q", pe.Msg, tc.message)
			}
		})
	}
}

// The shipped example is complete: it loads, and it has the spec's counts.
func TestShippedProfile(t *testing.T) {
	l, err := Load(filepath.Join("..", "..", "content"), nil)
	if err != nil {
		t.Fatal(err)
	}
	p := l.Profile
	if len(p.Services) != 6 || len(p.Technologies) != 12 || len(p.Tools) != 4 || len(p.DevTools.Groups) != 5 {
		t.Fatalf("counts: %d services, %d technologies, %d tools, %d groups", len(p.Services), len(p.Technologies), len(p.Tools), len(p.DevTools.Groups))
	}
	for _, s := range p.Services {
		for _, lang := range []string{"en", "uk", "ru"} {
			if s.Name[lang] == "" || s.Description[lang] == "" {
				t.Errorf("service %q lacks %s", s.Name["en"], lang)
			}
		}
	}
}
