package downloads

import (
	"io"
	"slices"
	"time"

	"github.com/devhub/devhub/pkg/internal/atom"
)

// FeedSize is how many of the newest releases a section's feed carries.
const FeedSize = 30

// WriteFeed writes the Atom feed of the newest releases of a section's
// visible entries, for the site at baseURL (scheme://host; with none,
// relative links and URN ids: see atom.Site). site is the site's name: the
// feed is "<site> <section>", and site its author.
func (s *Service) WriteFeed(w io.Writer, baseURL, site, section string) error {
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
	at := atom.NewSite(baseURL)
	f := at.Feed(site+" "+section, "/"+section, "/"+section+"/feed.xml", site)
	updated := time.Unix(0, 0).UTC()
	for _, it := range items {
		p := "/" + section + "/" + it.e.Slug
		f.Entries = append(f.Entries, atom.Entry{
			Title:   atom.Plain(it.e.Name + " " + it.r.Version),
			ID:      at.ID(p + "/" + it.r.Version),
			Link:    at.Page(p),
			Updated: atom.Time(it.r.Date),
			Summary: atom.Plain(it.r.Notes),
		})
		if it.r.Date.After(updated) {
			updated = it.r.Date.UTC()
		}
	}
	f.Updated = atom.Time(updated)
	return atom.Write(w, f)
}
