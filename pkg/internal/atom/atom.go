// Package atom writes the Atom feeds devhub serves (the blog's, the
// forum's, each downloads section's): the one set of element types and
// the one rule for links and ids. Every text goes through encoding/xml,
// so titles and summaries are always escaped as plain text.
package atom

import (
	"encoding/xml"
	"io"
	"strings"
	"time"
)

// Feed is an Atom feed document.
type Feed struct {
	XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
	Title   string   `xml:"title"`
	ID      string   `xml:"id"`
	Updated string   `xml:"updated"`
	Links   []Link   `xml:"link"`
	Author  Person   `xml:"author"`
	Entries []Entry  `xml:"entry"`
}

// Link is an atom:link.
type Link struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
}

// Person is an author.
type Person struct {
	Name string `xml:"name"`
}

// Text is a text construct (always of type "text": Plain).
type Text struct {
	Type string `xml:"type,attr"`
	Body string `xml:",chardata"`
}

// Category is an entry's category.
type Category struct {
	Term string `xml:"term,attr"`
}

// Entry is one item of a feed; Published, Author and Category are left
// out when empty.
type Entry struct {
	Title     Text      `xml:"title"`
	ID        string    `xml:"id"`
	Link      Link      `xml:"link"`
	Published string    `xml:"published,omitempty"`
	Updated   string    `xml:"updated"`
	Author    *Person   `xml:"author,omitempty"`
	Category  *Category `xml:"category,omitempty"`
	Summary   Text      `xml:"summary"`
}

// Plain is s as a plain-text construct.
func Plain(s string) Text { return Text{Type: "text", Body: s} }

// Time is t as Atom writes it: RFC 3339 in UTC.
func Time(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// Site is where the feed's links point: the site's public address
// (scheme://host, no trailing slash), or "" when none is configured. Then
// the links are relative — a feed reader resolves them against the address
// it fetched the feed from — and the ids are URNs. The alternative, the
// Host header, is whatever the client claims: a proxy or cache in front
// would hand the feed with the attacker's links to everyone.
type Site string

// NewSite is the Site of a configured public address (server.public_url).
func NewSite(publicURL string) Site { return Site(strings.TrimRight(publicURL, "/")) }

// URL is the link to path (which starts with "/").
func (s Site) URL(path string) string { return string(s) + path }

// ID is the id of the thing at path: its URL, or with no public address
// "urn:devhub" and the path with its slashes as colons.
func (s Site) ID(path string) string {
	if s == "" {
		return "urn:devhub" + strings.ReplaceAll(path, "/", ":")
	}
	return s.URL(path)
}

// Page is the alternate (HTML) link to the page at path.
func (s Site) Page(path string) Link {
	return Link{Href: s.URL(path), Rel: "alternate", Type: "text/html"}
}

// Feed is a feed titled title about the page at path (its id and its
// alternate link), served at self, with author as its author.
func (s Site) Feed(title, path, self, author string) Feed {
	return Feed{
		Title:  title,
		ID:     s.ID(path),
		Links:  []Link{{Href: s.URL(self), Rel: "self", Type: "application/atom+xml"}, s.Page(path)},
		Author: Person{Name: author},
	}
}

// Write writes f, with the XML declaration, indented by two spaces.
func Write(w io.Writer, f Feed) error {
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
