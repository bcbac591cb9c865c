package profile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The shipped profile goes through Merge unchanged when nothing changed: every comment, the key
// order and the flow maps stay, and it still parses to the same profile.
func TestMergeRoundTripKeepsTheShippedFile(t *testing.T) {
	old, err := os.ReadFile("../../content/profile.yaml")
	if err != nil {
		t.Fatal(err)
	}
	l, err := Parse(FileName, old, "../../content", nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Merge(old, l.Profile)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(old), "\n") {
		if c := strings.TrimSpace(line); strings.HasPrefix(c, "#") && !bytes.Contains(out, []byte(c)) {
			t.Errorf("comment lost: %q", c)
		}
	}
	if !bytes.Contains(out, []byte("- name: { en: Backend services, uk: Бекенд-сервіси, ru: Бэкенд-сервиси }")) &&
		!bytes.Contains(out, []byte("name: {en: Backend services")) {
		t.Errorf("a flow map became a block map:\n%s", out)
	}
	if again, err := Parse(FileName, out, "../../content", nil); err != nil || again.Profile.Name["en"] != l.Profile.Name["en"] ||
		len(again.Profile.DevTools.Groups) != len(l.Profile.DevTools.Groups) {
		t.Fatalf("reparse: %v", err)
	}
}

// An edit changes what it says and nothing else: comments and order stay, a removed entry goes,
// a new key is added.
func TestMergeEdits(t *testing.T) {
	src := "# the owner\nname: { en: Ann } # short\nheadline:\n  en: Dev # old title\nbio: { en: Hello }\n" +
		"links:\n  # first link\n  - { label: A, url: \"https://a.example\", icon: github }\n  - { label: B, url: \"https://b.example\", icon: github }\n"
	var p Profile
	p.Name = Text{"en": "Ann", "uk": "Анна"}
	p.Headline = Text{"en": "Lead dev"}
	p.Bio = Text{"en": "Hello"}
	p.Links = []Link{{Label: "A2", URL: "https://a.example", Icon: "github"}}
	p.Location = Text{"en": "Lviv"}
	out, err := Merge([]byte(src), p)
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{"# the owner", "# short", "# old title", "# first link", "en: Lead dev", "uk: Анна", "label: A2", "location:"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in\n%s", want, s)
		}
	}
	if strings.Contains(s, "https://b.example") {
		t.Errorf("the removed link stayed:\n%s", s)
	}
	if strings.Index(s, "name:") > strings.Index(s, "headline:") || strings.Index(s, "bio:") > strings.Index(s, "links:") {
		t.Errorf("order changed:\n%s", s)
	}
}

// Save refuses what Load would refuse and leaves the file as it was; a good edit replaces it,
// keeps the previous version beside it and leaves no temporary file.
func TestSave(t *testing.T) {
	dir := writeDir(t, "# keep me\n"+valid, png)
	before, _ := os.ReadFile(filepath.Join(dir, FileName))
	l, err := Load(dir, icons)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		edit  func(p *Profile)
		field string
	}{
		{"an unknown icon", func(p *Profile) { p.Technologies[0].Icon = "nope" }, "technologies.0.icon"},
		{"no English name", func(p *Profile) { p.Name = Text{"uk": "Анна"} }, "name"},
		{"an unknown language", func(p *Profile) { p.Bio = Text{"en": "x", "xx": "y"} }, "bio.xx"},
		{"a javascript: link", func(p *Profile) { p.Links[0].URL = "javascript:alert(1)" }, "links.0.url"},
		{"no services", func(p *Profile) { p.Services = nil }, "services"},
		{"an avatar outside the directory", func(p *Profile) { p.Avatar = "../x.png" }, "avatar"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := clone(t, l.Profile)
			c.edit(&p)
			_, err := Save(dir, p, icons)
			var pe *Error
			if !errors.As(err, &pe) || pe.Field != c.field {
				t.Fatalf("err %v, want a problem with %s", err, c.field)
			}
			if now, _ := os.ReadFile(filepath.Join(dir, FileName)); !bytes.Equal(now, before) {
				t.Fatal("the file changed")
			}
			if _, err := os.Stat(filepath.Join(dir, PrevFileName)); err == nil {
				t.Fatal("a refused save kept a previous version")
			}
		})
	}
	p := clone(t, l.Profile)
	p.Headline["en"] = "Staff engineer"
	saved, err := Save(dir, p, icons)
	if err != nil || saved.Profile.Headline["en"] != "Staff engineer" {
		t.Fatalf("save: %v", err)
	}
	now, _ := os.ReadFile(filepath.Join(dir, FileName))
	prev, _ := os.ReadFile(filepath.Join(dir, PrevFileName))
	if !bytes.HasPrefix(now, []byte("# keep me\n")) || !bytes.Equal(prev, before) {
		t.Fatalf("file:\n%s\nprev:\n%s", now, prev)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// clone copies a profile deeply.
func clone(t *testing.T, p Profile) Profile {
	t.Helper()
	data, err := yaml.Marshal(&p)
	if err != nil {
		t.Fatal(err)
	}
	var out Profile
	if err := yaml.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
