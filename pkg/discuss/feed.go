package discuss

import (
	"encoding/xml"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/devhub/devhub/pkg/internal/text"
)

// FeedSize is how many of the newest threads the forum's feed carries.
const FeedSize = 30

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
	Title     atomText   `xml:"title"`
	ID        string     `xml:"id"`
	Link      atomLink   `xml:"link"`
	Published string     `xml:"published"`
	Updated   string     `xml:"updated"`
	Author    atomPerson `xml:"author"`
	Summary   atomText   `xml:"summary"`
}

// FeedThread is a thread with the start of its first post, for the feed.
type FeedThread struct {
	Thread
	Summary string
}

// RecentThreads are the newest published threads with the start of their
// first post, newest first.
func (s *Service) RecentThreads(n int) ([]FeedThread, error) {
	page, err := s.Threads(ThreadQuery{Sort: Newest, Limit: 100})
	if err != nil {
		return nil, err
	}
	var out []FeedThread
	for _, t := range page.Threads {
		summary := ""
		if p, err := s.Post(t.FirstPostID); err == nil {
			summary = text.Truncate(p.Content, 500)
		}
		out = append(out, FeedThread{Thread: t, Summary: summary})
	}
	// A list puts pinned threads first; the feed goes by time only.
	sort.SliceStable(out, func(i, j int) bool { return out[i].CreatedAt.After(out[j].CreatedAt) })
	if len(out) > n {
		out = out[:n]
	}
	return out, nil
}

// WriteFeed writes an Atom feed of the threads for the site at baseURL
// (scheme://host, or "" for relative links and URN ids). Every text goes
// through encoding/xml as plain text. site is the site's name: the feed is
// "<site> forum", and site its author.
func WriteFeed(w io.Writer, baseURL, site string, threads []FeedThread) error {
	baseURL = strings.TrimRight(baseURL, "/")
	id := func(path string) string { return baseURL + path }
	if baseURL == "" {
		id = func(path string) string { return "urn:devhub" + strings.ReplaceAll(path, "/", ":") }
	}
	f := atomFeed{
		Title: site + " forum",
		ID:    id("/forum"),
		Links: []atomLink{{Href: baseURL + "/forum/feed.xml", Rel: "self", Type: "application/atom+xml"},
			{Href: baseURL + "/forum", Rel: "alternate", Type: "text/html"}},
		Author: atomPerson{Name: site},
	}
	latest := time.Unix(0, 0)
	for _, t := range threads {
		path := "/forum/t/" + strconv.FormatUint(t.ID, 10)
		name := t.Author.Name
		if name == "" {
			name = "—"
		}
		f.Entries = append(f.Entries, atomEntry{
			Title: atomText{Type: "text", Body: t.Title}, ID: id(path),
			Link:      atomLink{Href: baseURL + path, Rel: "alternate", Type: "text/html"},
			Published: t.CreatedAt.UTC().Format(time.RFC3339), Updated: t.CreatedAt.UTC().Format(time.RFC3339),
			Author: atomPerson{Name: name}, Summary: atomText{Type: "text", Body: t.Summary},
		})
		if t.CreatedAt.After(latest) {
			latest = t.CreatedAt
		}
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
