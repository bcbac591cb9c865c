package downloads

import (
	"slices"
	"strings"
	"time"

	"github.com/devhub/devhub/pkg/internal/paging"
	"github.com/devhub/devhub/pkg/internal/text"
	"github.com/devhub/devhub/pkg/store"
)

// Paging of the list: a limit above MaxLimit, or a negative page or
// limit, is invalid.
const (
	DefaultLimit = 20
	MaxLimit     = 100
)

var listRule = paging.Rule{Default: DefaultLimit, Max: MaxLimit, Over: paging.Refuse, Strict: true}

// indexed is an entry with its texts folded once for search.
type indexed struct {
	e Entry
	// name and summary are folded; rest holds the description and the
	// translations, folded.
	name, summary, rest string
	nameWords           []string
	downloads           int64
}

func index(e Entry) *indexed {
	ix := &indexed{e: e, name: text.Fold(e.Name), summary: text.Fold(e.Summary), downloads: e.TotalDownloads()}
	var rest strings.Builder
	rest.WriteString(text.Fold(e.Description))
	for _, t := range e.Translations {
		rest.WriteString("\n" + text.Fold(t.Summary) + "\n" + text.Fold(t.Description))
	}
	ix.rest = rest.String()
	ix.nameWords = strings.Fields(ix.name)
	return ix
}

// Relevance ranks of a search hit, best first, as the blog ranks its
// articles: the exact phrase in the name, every term in the name, every
// term in the name or summary, the rest.
const (
	rankPhrase = iota
	rankName
	rankSummary
	rankOther
	nRanks
)

func (ix *indexed) rank(terms []string) (int, bool) {
	inName, inSummary := true, true
	for _, t := range terms {
		if strings.Contains(ix.name, t) {
			continue
		}
		inName = false
		if strings.Contains(ix.summary, t) {
			continue
		}
		inSummary = false
		if !strings.Contains(ix.rest, t) {
			return 0, false
		}
	}
	switch {
	case len(terms) == 0:
		return rankOther, true
	case inName && text.PhraseIn(terms, ix.nameWords):
		return rankPhrase, true
	case inName:
		return rankName, true
	case inSummary:
		return rankSummary, true
	}
	return rankOther, true
}

// Query selects a page of the list.
type Query struct {
	Section string
	Search  string
	// System keeps the entries that run on it (one of Systems).
	System string
	// Sort is SortName (the owner's order, then by name), SortNewest
	// (latest release first) or SortPopular (most downloaded first); a
	// search orders by relevance first.
	Sort  string
	Page  int
	Limit int
	// WithHidden lists hidden entries too (admins).
	WithHidden bool
}

// Check validates q and fills its defaults.
func (q *Query) Check() error {
	var v store.Validator
	if q.Section != "" && !slices.Contains(Sections, q.Section) {
		v.Add("section", "invalid", "section must be one of "+strings.Join(Sections, ", "))
	}
	if q.System != "" && !slices.Contains(Systems, q.System) {
		v.Add("system", "invalid", "system must be one of "+strings.Join(Systems, ", "))
	}
	switch q.Sort {
	case "":
		q.Sort = SortName
	case SortName, SortNewest, SortPopular:
	default:
		v.Add("sort", "invalid", "sort must be name, newest or popular")
	}
	pq := listRule.Check(paging.Query{Page: q.Page, Limit: q.Limit}, &v)
	if len(q.Search) > 200 {
		v.Add("search", "too_long", "search is longer than 200 bytes")
	}
	q.Page, q.Limit = pq.Page, pq.Limit
	return v.Err()
}

// List returns the page of entries q selects and how many match in all.
func (s *Service) List(q Query) ([]Entry, int, error) {
	if err := q.Check(); err != nil {
		return nil, 0, err
	}
	terms := strings.Fields(text.Fold(q.Search))
	type hit struct {
		ix   *indexed
		rank int
	}
	s.mu.RLock()
	hits := make([]hit, 0, len(s.entries))
	for _, ix := range s.entries {
		if (q.Section != "" && ix.e.Section != q.Section) || (ix.e.Hidden && !q.WithHidden) {
			continue
		}
		if q.System != "" && !slices.Contains(ix.e.Systems, q.System) {
			continue
		}
		r, ok := ix.rank(terms)
		if !ok {
			continue
		}
		hits = append(hits, hit{ix, r})
	}
	s.mu.RUnlock()
	slices.SortFunc(hits, func(a, b hit) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		x, y := a.ix, b.ix
		switch q.Sort {
		case SortNewest:
			if c := latestDate(y).Compare(latestDate(x)); c != 0 {
				return c
			}
		case SortPopular:
			if x.downloads != y.downloads {
				if x.downloads > y.downloads {
					return -1
				}
				return 1
			}
		default:
			if x.e.Order != y.e.Order {
				return x.e.Order - y.e.Order
			}
		}
		if c := strings.Compare(x.name, y.name); c != 0 {
			return c
		}
		return strings.Compare(x.e.Slug, y.e.Slug)
	})
	p := paging.Map(hits, paging.Query{Page: q.Page, Limit: q.Limit}, func(h hit) Entry { return clone(h.ix.e) })
	return p.Items, p.Total, nil
}

func latestDate(ix *indexed) time.Time {
	if r := ix.e.Latest(); r != nil {
		return r.Date
	}
	return ix.e.CreatedAt
}
