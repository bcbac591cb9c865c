package profile

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// checker walks the decoded profile and finds the first problem; the YAML node tree gives each
// field's line.
type checker struct {
	file  string
	root  *yaml.Node
	icons IconExists
	err   *Error
}

// line finds the line of a dotted path such as "services.2.icon" (the nearest existing parent
// when the field is missing).
func (c *checker) line(path string) int {
	n := c.root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := n.Line
	for _, part := range strings.Split(path, ".") {
		var next *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == part {
					line = n.Content[i].Line
					next = n.Content[i+1]
				}
			}
		case yaml.SequenceNode:
			if i, err := strconv.Atoi(part); err == nil && i < len(n.Content) {
				next = n.Content[i]
				line = next.Line
			}
		}
		if next == nil {
			return line
		}
		n = next
	}
	return line
}

func (c *checker) fail(field, format string, a ...any) {
	if c.err == nil {
		c.err = &Error{File: c.file, Line: c.line(field), Field: field, Msg: fmt.Sprintf(format, a...)}
	}
}

// text checks a localised text: the required languages present, no unknown language.
func (c *checker) text(field string, t Text, required ...string) {
	if len(t) == 0 {
		c.fail(field, "required")
		return
	}
	for lang := range t {
		known := false
		for _, l := range Languages {
			known = known || l == lang
		}
		if !known {
			c.fail(field+"."+lang, "unknown language (use %s)", strings.Join(Languages, ", "))
		}
	}
	for _, lang := range required {
		if strings.TrimSpace(t[lang]) == "" {
			c.fail(field, "the %s text is required", lang)
		}
	}
}

func (c *checker) icon(field, name string) {
	switch {
	case name == "":
		c.fail(field, "required")
	case c.icons != nil && !c.icons(name):
		c.fail(field, "no icon named %q in the icon set (see docs/profile.md)", name)
	}
}

func (c *checker) url(field, s string) {
	u, err := url.Parse(s)
	if s == "" {
		c.fail(field, "required")
	} else if err != nil || (u.Scheme != "https" && u.Scheme != "http" && u.Scheme != "mailto") || (u.Scheme != "mailto" && u.Host == "") {
		c.fail(field, "must be an http(s) or mailto address")
	}
}

func (c *checker) items(field string, items []Item, min int, withDescription bool) {
	if len(items) < min {
		c.fail(field, "needs at least %d entries", min)
	}
	for i, it := range items {
		f := fmt.Sprintf("%s.%d", field, i)
		c.text(f+".name", it.Name, "en")
		if withDescription {
			c.text(f+".description", it.Description, "en")
		}
		c.icon(f+".icon", it.Icon)
	}
}

func (c *checker) profile(p *Profile) {
	c.text("name", p.Name, "en")
	c.text("headline", p.Headline, "en")
	c.text("bio", p.Bio, "en")
	if p.Location != nil {
		c.text("location", p.Location, "en")
	}
	for i, l := range p.Links {
		f := fmt.Sprintf("links.%d", i)
		if l.Label == "" {
			c.fail(f+".label", "required")
		}
		c.url(f+".url", l.URL)
		c.icon(f+".icon", l.Icon)
	}
	c.items("services", p.Services, 1, true)
	c.items("technologies", p.Technologies, 1, false)
	c.items("tools", p.Tools, 1, false)
	all := Languages
	c.text("devtools.intro", p.DevTools.Intro, all...)
	if len(p.DevTools.Groups) == 0 {
		c.fail("devtools.groups", "needs at least 1 entry")
	}
	for i, g := range p.DevTools.Groups {
		f := fmt.Sprintf("devtools.groups.%d", i)
		c.text(f+".title", g.Title, all...)
		c.items(f+".tools", g.Tools, 1, false)
	}
	c.text("devtools.philosophy", p.DevTools.Philosophy, all...)
	for i, pr := range p.Projects {
		f := fmt.Sprintf("projects.%d", i)
		if strings.TrimSpace(pr.Name) == "" {
			c.fail(f+".name", "required")
		}
		c.text(f+".description", pr.Description, "en")
		c.url(f+".link", pr.Link)
	}
	c.site(p.Site)
}
