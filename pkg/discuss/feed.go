package discuss

import (
	"io"
	"sort"
	"strconv"
	"time"

	"github.com/devhub/devhub/pkg/internal/atom"
	"github.com/devhub/devhub/pkg/internal/text"
)

// FeedSize is how many of the newest threads the forum's feed carries.
const FeedSize = 30

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
// (scheme://host; with none, relative links and URN ids: see atom.Site).
// site is the site's name: the feed is "<site> forum", and site its author.
func WriteFeed(w io.Writer, baseURL, site string, threads []FeedThread) error {
	at := atom.NewSite(baseURL)
	f := at.Feed(site+" forum", "/forum", "/forum/feed.xml", site)
	latest := time.Unix(0, 0)
	for _, t := range threads {
		path := "/forum/t/" + strconv.FormatUint(t.ID, 10)
		name := t.Author.Name
		if name == "" {
			name = "—"
		}
		f.Entries = append(f.Entries, atom.Entry{
			Title: atom.Plain(t.Title), ID: at.ID(path), Link: at.Page(path),
			Published: atom.Time(t.CreatedAt), Updated: atom.Time(t.CreatedAt),
			Author: &atom.Person{Name: name}, Summary: atom.Plain(t.Summary),
		})
		if t.CreatedAt.After(latest) {
			latest = t.CreatedAt
		}
	}
	f.Updated = atom.Time(latest)
	return atom.Write(w, f)
}
