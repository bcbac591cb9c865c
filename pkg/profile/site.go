package profile

import (
	"strings"
	"unicode/utf8"
)

// Site is the site's own name and subtitle (the header's brand, page titles, feeds, letters), per
// language. Both are optional, and so is each language: a language without a text takes the
// English one, and without that the default (DefaultSiteName, DefaultSiteSubtitle).
type Site struct {
	Name     Text `yaml:"name,omitempty" json:"name,omitempty"`
	Subtitle Text `yaml:"subtitle,omitempty" json:"subtitle,omitempty"`
}

// The defaults of the site's name and subtitle: what the interface says when the profile names
// none (the SPA's locales carry the same texts).
var (
	DefaultSiteName     = Text{"en": "DevHub", "uk": "DevHub", "ru": "DevHub"}
	DefaultSiteSubtitle = Text{"en": "Developer hub", "uk": "Хаб розробника", "ru": "Хаб разработчика"}
)

// The longest site name and subtitle, in characters: they share one line of the header.
const (
	MaxSiteName     = 40
	MaxSiteSubtitle = 80
)

// localised is t in lang, else t in English, else def in lang, else def in English.
func localised(t, def Text, lang string) string {
	for _, s := range []string{t[lang], t["en"], def[lang], def["en"]} {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}

// SiteName is the site's name in lang (see Site). A nil profile has the default.
func (p *Profile) SiteName(lang string) string {
	if p == nil {
		return localised(nil, DefaultSiteName, lang)
	}
	return localised(p.Site.Name, DefaultSiteName, lang)
}

// SiteSubtitle is the site's subtitle in lang (see Site). A nil profile has the default.
func (p *Profile) SiteSubtitle(lang string) string {
	if p == nil {
		return localised(nil, DefaultSiteSubtitle, lang)
	}
	return localised(p.Site.Subtitle, DefaultSiteSubtitle, lang)
}

// site checks the site block: known languages only, each text non-blank, on one line and no
// longer than its limit.
func (c *checker) site(s Site) {
	for _, f := range []struct {
		field string
		text  Text
		max   int
	}{{"site.name", s.Name, MaxSiteName}, {"site.subtitle", s.Subtitle, MaxSiteSubtitle}} {
		if len(f.text) == 0 { // no text in any language: the default
			continue
		}
		c.text(f.field, f.text)
		for _, lang := range Languages {
			v, ok := f.text[lang]
			switch {
			case !ok:
			case strings.TrimSpace(v) == "":
				c.fail(f.field+"."+lang, "must not be blank (leave the language out to use the default)")
			case strings.ContainsAny(v, "\r\n"):
				c.fail(f.field+"."+lang, "must be one line")
			case utf8.RuneCountInString(v) > f.max:
				c.fail(f.field+"."+lang, "must be at most %d characters", f.max)
			}
		}
	}
}
