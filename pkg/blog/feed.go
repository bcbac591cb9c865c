package blog

import (
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"time"
)

// FeedSize is how many of the newest articles the feed carries.
const FeedSize = 20

type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Title   string      `xml:"title"`
	ID      string      `xml:"id"`
	Updated string      `xml:"updated"`
	Links   []atomLink  `xml:"link"`
	Author  atomPerson  `xml:"author"`
	Entries []atomEntry `xml:"entry"`
}

type atomLink struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
}

type atomPerson struct {
	Name string `xml:"name"`
}

type atomText struct {
	Type string `xml:"type,attr"`
	Body string `xml:",chardata"`
}

type atomEntry struct {
	Title     atomText `xml:"title"`
	ID        string   `xml:"id"`
	Link      atomLink `xml:"link"`
	Published string   `xml:"published"`
	Updated   string   `xml:"updated"`
	Category  *struct {
		Term string `xml:"term,attr"`
	} `xml:"category,omitempty"`
	Summary atomText `xml:"summary"`
}

// WriteFeed writes an Atom feed of arts (newest first) for the site at
// baseURL (scheme://host, no trailing slash). Every text goes through
// encoding/xml, so titles and summaries are always escaped as plain text.
//
// With no baseURL (server.public_url unset) the links are relative — a feed
// reader resolves them against the address it fetched the feed from — and
// the ids are URNs. The alternative, the Host header, is whatever the client
// claims: a proxy or cache in front would hand the feed with the attacker's
// links to everyone. site is the site's name: the feed is "<site> blog",
// and site its author.
func WriteFeed(w io.Writer, baseURL, site string, arts []Summary) error {
	baseURL = strings.TrimRight(baseURL, "/")
	id := func(path string) string { return baseURL + path }
	if baseURL == "" {
		id = func(path string) string { return "urn:devhub" + strings.ReplaceAll(path, "/", ":") }
	}
	f := atomFeed{
		Title:  site + " blog",
		ID:     id("/blog"),
		Links:  []atomLink{{Href: baseURL + "/feed.xml", Rel: "self", Type: "application/atom+xml"}, {Href: baseURL + "/blog", Rel: "alternate", Type: "text/html"}},
		Author: atomPerson{Name: site},
	}
	var latest time.Time
	for _, a := range arts {
		path := "/blog/" + strconv.FormatUint(a.ID, 10)
		url := baseURL + path
		e := atomEntry{
			Title:     atomText{Type: "text", Body: a.Name},
			ID:        id(path),
			Link:      atomLink{Href: url, Rel: "alternate", Type: "text/html"},
			Published: a.CreatedAt.UTC().Format(time.RFC3339),
			Updated:   a.UpdatedAt.UTC().Format(time.RFC3339),
			Summary:   atomText{Type: "text", Body: a.Excerpt},
		}
		if a.Category != "" {
			e.Category = &struct {
				Term string `xml:"term,attr"`
			}{a.Category}
		}
		if a.UpdatedAt.After(latest) {
			latest = a.UpdatedAt
		}
		f.Entries = append(f.Entries, e)
	}
	if latest.IsZero() {
		latest = time.Unix(0, 0)
	}
	f.Updated = latest.UTC().Format(time.RFC3339)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(f); err != nil {
		return err
	}
	return enc.Close()
}
