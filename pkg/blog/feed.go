package blog

import (
	"io"
	"strconv"
	"time"

	"github.com/devhub/devhub/pkg/internal/atom"
)

// FeedSize is how many of the newest articles the feed carries.
const FeedSize = 20

// WriteFeed writes an Atom feed of arts (newest first) for the site at
// baseURL (scheme://host; with none, relative links and URN ids: see
// atom.Site). site is the site's name: the feed is "<site> blog", and site
// its author.
func WriteFeed(w io.Writer, baseURL, site string, arts []Summary) error {
	at := atom.NewSite(baseURL)
	f := at.Feed(site+" blog", "/blog", "/feed.xml", site)
	var latest time.Time
	for _, a := range arts {
		path := "/blog/" + strconv.FormatUint(a.ID, 10)
		e := atom.Entry{
			Title:     atom.Plain(a.Name),
			ID:        at.ID(path),
			Link:      at.Page(path),
			Published: atom.Time(a.CreatedAt),
			Updated:   atom.Time(a.UpdatedAt),
			Summary:   atom.Plain(a.Excerpt),
		}
		if a.Category != "" {
			e.Category = &atom.Category{Term: a.Category}
		}
		if a.UpdatedAt.After(latest) {
			latest = a.UpdatedAt
		}
		f.Entries = append(f.Entries, e)
	}
	if latest.IsZero() {
		latest = time.Unix(0, 0)
	}
	f.Updated = atom.Time(latest)
	return atom.Write(w, f)
}
