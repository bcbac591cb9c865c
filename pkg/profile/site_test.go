package profile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The site block is optional; a language it lacks takes English, then the default.
func TestSiteNameDefaults(t *testing.T) {
	tests := []struct {
		name         string
		site         Site
		lang         string
		wantName     string
		wantSubtitle string
	}{
		{"no block, en", Site{}, "en", "DevHub", "Developer hub"},
		{"no block, uk", Site{}, "uk", "DevHub", "Хаб розробника"},
		{"no block, ru", Site{}, "ru", "DevHub", "Хаб разработчика"},
		{"no block, another language", Site{}, "de", "DevHub", "Developer hub"},
		{"own language", Site{Name: Text{"en": "Ann's", "uk": "Анни"}, Subtitle: Text{"uk": "Нотатки"}}, "uk", "Анни", "Нотатки"},
		{"English when the language has none", Site{Name: Text{"en": "Ann's"}, Subtitle: Text{"en": "Notes"}}, "ru", "Ann's", "Notes"},
		{"default when neither has one", Site{Name: Text{"uk": "Анни"}}, "ru", "DevHub", "Хаб разработчика"},
		{"blank counts as none", Site{Name: Text{"en": "  "}}, "en", "DevHub", "Developer hub"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Profile{Site: tc.site}
			if got := p.SiteName(tc.lang); got != tc.wantName {
				t.Errorf("SiteName = %q, want %q", got, tc.wantName)
			}
			if got := p.SiteSubtitle(tc.lang); got != tc.wantSubtitle {
				t.Errorf("SiteSubtitle = %q, want %q", got, tc.wantSubtitle)
			}
		})
	}
	var none *Profile
	if none.SiteName("uk") != "DevHub" || none.SiteSubtitle("uk") != "Хаб розробника" {
		t.Error("a missing profile does not have the defaults")
	}
}

// A bad site block is refused with its file, line and field, as the rest of the file is.
func TestSiteRefuses(t *testing.T) {
	long := strings.Repeat("я", MaxSiteName+1)
	tests := []struct {
		name    string
		block   string
		line    int
		field   string
		message string
	}{
		{"unknown language", "site:\n  name: { en: Mine, de: Meins }\n", 28, "site.name.de", "unknown language"},
		{"blank text", "site:\n  name: { en: Mine, uk: \" \" }\n", 28, "site.name.uk", "must not be blank"},
		{"two lines", "site:\n  subtitle: { en: \"a\\nb\" }\n", 28, "site.subtitle.en", "one line"},
		{"too long", "site:\n  name: { uk: " + long + " }\n", 28, "site.name.uk", "at most 40 characters"},
		{"unknown key", "site:\n  slogan: { en: Hi }\n", 28, "slogan", "unknown key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(writeDir(t, valid+tc.block, png), icons)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *profile.Error", err)
			}
			if pe.Field != tc.field || !strings.Contains(pe.Msg, tc.message) {
				t.Errorf("got %v, want %s: %s", err, tc.field, tc.message)
			}
			if pe.Line != tc.line {
				t.Errorf("line = %d, want %d (%v)", pe.Line, tc.line, err)
			}
		})
	}
	for _, ok := range []string{"site: {}\n", "site:\n  name: { uk: Моє }\n", "site:\n  name: {}\n  subtitle: { en: Notes, pt: Notas }\n"} {
		if _, err := Load(writeDir(t, valid+ok, png), icons); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
}

// Saving a site block keeps the file's comments, and saving without one leaves no empty block.
func TestSaveSiteRoundTrip(t *testing.T) {
	dir := writeDir(t, "# keep me\n"+valid+"# the brand\nsite:\n  name: { en: Old } # short\n", png)
	l, err := Load(dir, icons)
	if err != nil {
		t.Fatal(err)
	}
	if l.Profile.SiteName("uk") != "Old" {
		t.Fatalf("loaded site %+v", l.Profile.Site)
	}
	p := clone(t, l.Profile)
	p.Site.Name = Text{"en": "Ann's hub", "uk": "Хаб Анни"}
	p.Site.Subtitle = Text{"ru": "Заметки"}
	saved, err := Save(dir, p, icons)
	if err != nil {
		t.Fatal(err)
	}
	if saved.Profile.SiteName("uk") != "Хаб Анни" || saved.Profile.SiteSubtitle("ru") != "Заметки" || saved.Profile.SiteSubtitle("en") != "Developer hub" {
		t.Fatalf("saved site %+v", saved.Profile.Site)
	}
	data, _ := os.ReadFile(filepath.Join(dir, FileName))
	for _, want := range []string{"# keep me", "# the brand", "# short", "uk: Хаб Анни", "ru: Заметки"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("%q missing from:\n%s", want, data)
		}
	}
	again, err := Load(dir, icons)
	if err != nil || again.Profile.SiteName("en") != "Ann's hub" {
		t.Fatalf("reload: %v %+v", err, again)
	}

	p = clone(t, again.Profile)
	p.Site = Site{}
	if _, err := Save(dir, p, icons); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(filepath.Join(dir, FileName))
	if strings.Contains(string(data), "site:") || strings.Contains(string(data), "subtitle") {
		t.Errorf("an empty site block was written:\n%s", data)
	}
}
