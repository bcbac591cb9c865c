package blog

import (
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/devhub/devhub/pkg/internal/text"
)

// index keeps every article's list fields and its search text in memory,
// newest first, so listing and searching never read the store. The service
// changes it only after the bbolt transaction that made the same change has
// committed, while holding its write lock, so readers see the store's state.
type index struct {
	mu    sync.RWMutex
	byID  map[uint64]*entry
	order []*entry // newest first (CreatedAt desc, then id desc)
	// bytes counts every byte value over all texts; a search anchors each
	// term on its rarest byte (see matcher).
	bytes [256]int64
}

type entry struct {
	sum Summary
	// cat is the folded category. text holds each distinct word (run of
	// non-space characters) of the folded name, excerpt and content once,
	// one per line: a search term has no spaces, so it occurs in the
	// article exactly when it occurs in one of its words, and scanning the
	// distinct words is a fraction of scanning the whole text.
	cat  string
	text string
	// name and excerpt are folded for ranking (see rank); nameWords are the
	// name's words for the exact-phrase test.
	name, excerpt string
	nameWords     []string
	// grams is a Bloom filter of the text's 1-, 2- and 3-rune sequences
	// (see grams.go): a term whose sequences are not all in it cannot
	// occur in the text, so most articles are rejected without a scan.
	grams bloom
}

func newIndex() *index { return &index{byID: map[uint64]*entry{}} }

func newEntry(a *Article) *entry {
	words := distinctWords(Fold(a.Name + "\n" + a.Excerpt + "\n" + a.Content))
	name := Fold(a.Name)
	return &entry{sum: a.Summary(), cat: Fold(a.Category), text: words, grams: newBloom(words),
		name: name, excerpt: Fold(a.Excerpt), nameWords: strings.Fields(name)}
}

// distinctWords returns the distinct words of text (split as searchTerms
// splits a query), one per line, in order of first appearance.
func distinctWords(text string) string {
	words := strings.Fields(text)
	seen := make(map[string]struct{}, len(words))
	var b strings.Builder
	b.Grow(len(text) / 2)
	for _, w := range words {
		if _, dup := seen[w]; dup {
			continue
		}
		seen[w] = struct{}{}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(w)
	}
	return b.String()
}

// newer reports whether a sorts before b in the newest-first order.
func newer(a, b *entry) bool {
	if !a.sum.CreatedAt.Equal(b.sum.CreatedAt) {
		return a.sum.CreatedAt.After(b.sum.CreatedAt)
	}
	return a.sum.ID > b.sum.ID
}

// put inserts or replaces the article's entry.
func (ix *index) put(a *Article) {
	e := newEntry(a)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.removeLocked(a.ID)
	i := sort.Search(len(ix.order), func(i int) bool { return newer(e, ix.order[i]) })
	ix.order = append(ix.order, nil)
	copy(ix.order[i+1:], ix.order[i:])
	ix.order[i] = e
	ix.byID[a.ID] = e
	ix.count(e.text, 1)
}

func (ix *index) count(text string, sign int64) {
	for i := 0; i < len(text); i++ {
		ix.bytes[text[i]] += sign
	}
}

func (ix *index) remove(id uint64) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.removeLocked(id)
}

func (ix *index) removeLocked(id uint64) {
	old, ok := ix.byID[id]
	if !ok {
		return
	}
	delete(ix.byID, id)
	ix.count(old.text, -1)
	i := sort.Search(len(ix.order), func(i int) bool { return !newer(ix.order[i], old) })
	for ; i < len(ix.order); i++ {
		if ix.order[i] == old {
			ix.order = append(ix.order[:i], ix.order[i+1:]...)
			return
		}
	}
}

func (ix *index) len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return len(ix.order)
}

// Relevance ranks of a search hit, best first: the exact phrase (whole,
// consecutive words) in the title, every term in the title, every term in
// the title or excerpt, and the rest (found in the content).
const (
	rankPhrase = iota
	rankTitle
	rankExcerpt
	rankContent
	nRanks
)

// rank places a matching entry in one of the relevance ranks.
// The terms' matchers find them (see matcher: strings.Contains crawls
// through Cyrillic).
func (e *entry) rank(terms []string, ms []matcher) int {
	inName, inExcerpt := true, true
	for i := range ms {
		if ms[i].in(e.name) {
			continue
		}
		inName = false
		if !ms[i].in(e.excerpt) {
			inExcerpt = false
			break
		}
	}
	switch {
	case inName && text.PhraseIn(terms, e.nameWords):
		return rankPhrase
	case inName:
		return rankTitle
	case inExcerpt:
		return rankExcerpt
	}
	return rankContent
}

// query returns the page [offset, offset+limit) of the matching articles
// and how many match in all. limit < 0 means no limit. The terms must all
// occur (folded) in an article's name, excerpt or content. Without terms
// the order is newest first; with terms it is by relevance rank, newest
// first within a rank. With a lang, the articles in that language come
// first, each group in that order.
func (ix *index) query(category string, terms []string, lang string, offset, limit int, see seer) ([]Summary, int) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	ms := make([]matcher, len(terms))
	for i, t := range terms {
		ms[i] = ix.newMatcher(t)
	}
	// ix.order is newest first, so appending to per-rank buckets keeps the
	// date order inside each rank.
	var ranked [2 * nRanks][]*entry
	for _, e := range ix.order {
		if category != "" && e.cat != category {
			continue
		}
		if !see.sees(e) {
			continue
		}
		if !matchAll(e, ms) {
			continue
		}
		r := rankContent
		if len(terms) > 0 {
			r = e.rank(terms, ms)
		}
		if lang != "" && e.sum.Lang != lang {
			r += nRanks
		}
		ranked[r] = append(ranked[r], e)
	}
	out := []Summary{}
	total := 0
	for _, list := range ranked {
		for _, e := range list {
			if total >= offset && (limit < 0 || len(out) < limit) {
				out = append(out, see.summary(e))
			}
			total++
		}
	}
	return out, total
}

func matchAll(e *entry, ms []matcher) bool {
	for i := range ms {
		if !e.grams.mayContain(ms[i].hashes) {
			return false
		}
	}
	for i := range ms {
		if !ms[i].in(e.text) {
			return false
		}
	}
	return true
}

// matcher finds one folded term in a text. It jumps between occurrences of
// the term's rarest byte (by the index's byte counts) with IndexByte, which
// is vectorised, and compares the whole term only there. strings.Contains
// anchors on the first byte, which for Cyrillic is one of the two lead bytes
// (0xD0/0xD1) of almost every letter and makes it crawl.
type matcher struct {
	pat    string
	anchor int  // offset of the rarest byte in pat
	c      byte // pat[anchor]
	hashes []uint64
}

func (ix *index) newMatcher(term string) matcher {
	m := matcher{pat: term, hashes: termHashes(term)}
	best := int64(-1)
	for i := 0; i < len(term); i++ {
		if n := ix.bytes[term[i]]; best < 0 || n < best {
			best, m.anchor = n, i
		}
	}
	if len(term) > 0 {
		m.c = term[m.anchor]
	}
	return m
}

func (m *matcher) in(text string) bool {
	n := len(m.pat)
	if n == 0 {
		return true
	}
	for i := m.anchor; i <= len(text)-(n-m.anchor); {
		j := strings.IndexByte(text[i:len(text)-(n-m.anchor)+1], m.c)
		if j < 0 {
			return false
		}
		start := i + j - m.anchor
		if text[start:start+n] == m.pat {
			return true
		}
		i += j + 1
	}
	return false
}

// withKey lists the articles that share a translation key.
func (ix *index) withKey(key string, see seer) []Summary {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var out []Summary
	for _, e := range ix.order {
		if e.sum.TranslationKey == key && see.sees(e) {
			out = append(out, see.summary(e))
		}
	}
	return out
}

// seer is who reads a listing and when: everyone sees the public articles
// at now; drafts (an admin) sees every article too.
type seer struct {
	now    time.Time
	drafts bool
}

func (v seer) sees(e *entry) bool { return v.drafts || public(e.sum.Status, e.sum.PublishAt, v.now) }

// summary is the entry's summary as it reads at now (a scheduled article
// whose time has come is published).
func (v seer) summary(e *entry) Summary {
	s := e.sum
	s.Status = effectiveStatus(s.Status, s.PublishAt, v.now)
	return s
}

// categories counts articles per category. Categories that differ only in
// letter case are one; the spelling of the newest article names it.
func (ix *index) categories(see seer) []Category {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	pos := map[string]int{}
	out := []Category{}
	for _, e := range ix.order {
		if !see.sees(e) {
			continue
		}
		if i, ok := pos[e.cat]; ok {
			out[i].Count++
			continue
		}
		pos[e.cat] = len(out)
		out = append(out, Category{Name: e.sum.Category, Count: 1})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return Fold(out[i].Name) < Fold(out[j].Name)
	})
	return out
}

// Fold is the search folding blog and games share (see text.Fold).
func Fold(s string) string { return text.Fold(s) }

// searchTerms splits a query into folded words; all must match.
func searchTerms(q string) []string {
	return strings.Fields(Fold(q))
}
