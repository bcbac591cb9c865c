package downloads

import (
	"encoding/xml"
	"io"
	"slices"
	"strings"
	"time"
)

// FeedSize is how many of the newest releases a section's feed carries.
const FeedSize = 30

type atomFeed struct {
	XMLName xml.Name   `xml:"http://www.w3.org/2005/Atom feed"`
	Title   string     `xml:"title"`
	ID      string     `xml:"id"`
	Updated string     `xml:"updated"`
	Links   []atomLink `xml:"link"`
	Author  struct {
		Name string `xml:"name"`
	} `xml:"author"`
	Entries []atomEntry `xml:"entry"`
}

type atomLink struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
}

type atomText struct {
	Type string `xml:"type,attr"`
	Body string `xml:",chardata"`
}

type atomEntry struct {
	Title   atomText `xml:"title"`
	ID      string   `xml:"id"`
	Link    atomLink `xml:"link"`
	Updated string   `xml:"updated"`
	Summary atomText `xml:"summary"`
}

// WriteFeed writes the Atom feed of the newest releases of a section's
// visible entries, for the site at baseURL (relative links and URN ids
// without one, as the blog's feed: never the client's Host header). Every
// text goes through encoding/xml as plain text. site is the site's name: the
// feed is "<site> <section>", and site its author.
func (s *Service) WriteFeed(w io.Writer, baseURL, site, section string) error {
	baseURL = strings.TrimRight(baseURL, "/")
	id := func(p string) string { return baseURL + p }
	if baseURL == "" {
		id = func(p string) string { return "urn:devhub" + strings.ReplaceAll(p, "/", ":") }
	}
	type item struct {
		e Entry
		r Release
	}
	var items []item
	s.mu.RLock()
	for _, ix := range s.entries {
		if ix.e.Section != section || ix.e.Hidden {
			continue
		}
		for _, r := range ix.e.Releases {
			items = append(items, item{ix.e, r})
		}
	}
	s.mu.RUnlock()
	slices.SortFunc(items, func(a, b item) int { return b.r.Date.Compare(a.r.Date) })
	items = items[:min(len(items), FeedSize)]
	f := atomFeed{Title: site + " " + section, ID: id("/" + section),
		Links: []atomLink{{Href: baseURL + "/" + section + "/feed.xml", Rel: "self", Type: "application/atom+xml"},
			{Href: baseURL + "/" + section, Rel: "alternate", Type: "text/html"}}}
	f.Author.Name = site
	updated := time.Unix(0, 0).UTC()
	for _, it := range items {
		p := "/" + section + "/" + it.e.Slug
		f.Entries = append(f.Entries, atomEntry{
			Title:   atomText{Type: "text", Body: it.e.Name + " " + it.r.Version},
			ID:      id(p + "/" + it.r.Version),
			Link:    atomLink{Href: baseURL + p, Rel: "alternate", Type: "text/html"},
			Updated: it.r.Date.UTC().Format(time.RFC3339),
			Summary: atomText{Type: "text", Body: it.r.Notes},
		})
		if it.r.Date.After(updated) {
			updated = it.r.Date.UTC()
		}
	}
	f.Updated = updated.Format(time.RFC3339)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	return enc.Encode(f)
}
