// Package blog stores Markdown articles in bbolt, renders them to safe HTML,
// lists and searches them from an in-memory index, and imports and exports
// the content/ folder of Markdown files with YAML front matter. The CLI and
// the HTTP API call the same Service.
package blog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/paging"
	"github.com/devhub/devhub/pkg/store"
)

// Buckets: articles by id (JSON), the slug → id lookup, and this package's
// own bookkeeping (whether content/ was seeded).
var (
	bucketArticles = []byte("articles")
	bucketSlugs    = []byte("article_slugs")
	bucketMeta     = []byte("blog_meta")
	keySeeded      = []byte("content_seeded")
)

// DefaultLang is the language of an article that names none: the site's
// default language (the interface falls back to English).
const DefaultLang = "en"

// Paging of the listing: 5 per page by default; a page may ask for at
// most MaxLimit articles (more is capped), and a negative page or limit is
// invalid.
const (
	DefaultLimit = 5
	MaxLimit     = 50
	// CategoryAll is the spec's "no category filter" value.
	CategoryAll = "all"
)

var listRule = paging.Rule{Default: DefaultLimit, Max: MaxLimit, Over: paging.Cap, Strict: true}

// Article is one blog post. Content is Markdown. Lang is the language the
// article is written in (a BCP 47 code such as "uk"); TranslationKey, when
// set, is shared by the articles that are translations of each other.
type Article struct {
	ID             uint64    `json:"id"`
	Slug           string    `json:"slug"`
	Name           string    `json:"name"`
	Excerpt        string    `json:"excerpt"`
	Content        string    `json:"content"`
	Category       string    `json:"category"`
	ImageURL       string    `json:"image_url"`
	Lang           string    `json:"lang"`
	TranslationKey string    `json:"translationKey"`
	CreatedAt      time.Time `json:"createdAt"`
	UpdatedAt      time.Time `json:"updatedAt"`
	// Status is draft, scheduled or published; PublishAt is when a
	// scheduled article goes public (nil otherwise). Version counts the
	// saves that changed the article (1 for a new one); an edit based on
	// an older version is refused.
	Status    string     `json:"status"`
	PublishAt *time.Time `json:"publishAt"`
	Version   int        `json:"version"`
	// EditedBy names who made the last save (an admin's e-mail or the
	// owner at the terminal); the API shows it to admins only.
	EditedBy string `json:"editedBy,omitempty"`
	// Newsletter is whether the article is mailed to the newsletter's
	// subscribers when it goes public (once; unset means yes).
	Newsletter *bool `json:"newsletter,omitempty"`
}

// SendsNewsletter reports whether a is to be mailed to the subscribers.
func (a *Article) SendsNewsletter() bool { return a.Newsletter == nil || *a.Newsletter }

// loaded fills what an article stored before a field existed lacks: one
// without a language is in the site's default language. Every read from the
// store goes through it. (Not an UnmarshalJSON: that method would be
// promoted to every struct that embeds an Article and swallow its fields.)
func (a *Article) loaded() *Article {
	if a.Lang == "" {
		a.Lang = DefaultLang
	}
	// Articles stored before drafts existed were public.
	if a.Status == "" {
		a.Status = StatusPublished
	}
	if a.Version == 0 {
		a.Version = 1
	}
	if a.Newsletter == nil {
		yes := true
		a.Newsletter = &yes
	}
	return a
}

// Summary is an article without its content, as lists show it.
type Summary struct {
	ID             uint64     `json:"id"`
	Slug           string     `json:"slug"`
	Name           string     `json:"name"`
	Excerpt        string     `json:"excerpt"`
	Category       string     `json:"category"`
	ImageURL       string     `json:"image_url"`
	Lang           string     `json:"lang"`
	TranslationKey string     `json:"translationKey"`
	CreatedAt      time.Time  `json:"createdAt"`
	UpdatedAt      time.Time  `json:"updatedAt"`
	Status         string     `json:"status"`
	PublishAt      *time.Time `json:"publishAt"`
	Version        int        `json:"version"`
}

// Summary drops the content.
func (a *Article) Summary() Summary {
	return Summary{ID: a.ID, Slug: a.Slug, Name: a.Name, Excerpt: a.Excerpt, Category: a.Category,
		ImageURL: a.ImageURL, Lang: a.Lang, TranslationKey: a.TranslationKey, CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt,
		Status: a.Status, PublishAt: a.PublishAt, Version: a.Version}
}

// Translation names another language version of an article.
type Translation struct {
	ID   uint64 `json:"id"`
	Slug string `json:"slug"`
	Name string `json:"name"`
	Lang string `json:"lang"`
}

// Category is a category name and how many articles carry it.
type Category struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// Query selects a page of articles. Page is 1-based; Limit 0 means
// DefaultLimit and is capped at MaxLimit; Category "" or "all" means any.
// Lang, when set, puts the articles in that language first (the reader's
// interface language), each group in the usual order.
type Query struct {
	Limit    int
	Page     int
	Category string
	Search   string
	Lang     string
	// Drafts includes the articles that are not public (an admin's view).
	Drafts bool
}

// Page is one page of a listing as the API answers it: {articles,
// totalCount}.
type Page struct {
	Articles   []Summary `json:"articles"`
	TotalCount int       `json:"totalCount"`
}

// NewPage is the API's shape of p.
func NewPage(p paging.Page[Summary]) Page {
	return Page{Articles: p.Items, TotalCount: p.Total}
}

// Service is the blog. Writes are serialised by mu so that the index
// follows the store in commit order.
type Service struct {
	st  *store.Store
	ix  *index
	mu  sync.Mutex
	now func() time.Time
}

// New opens the blog on st and loads the index from it.
func New(st *store.Store) (*Service, error) {
	if err := st.EnsureBuckets(string(bucketArticles), string(bucketSlugs), string(bucketMeta), string(bucketRevisions)); err != nil {
		return nil, err
	}
	s := &Service{st: st, ix: newIndex(), now: func() time.Time { return time.Now().UTC() }}
	err := st.View(func(tx *bolt.Tx) error {
		return store.ForEachJSON(tx.Bucket(bucketArticles), func(_ []byte, a *Article) error {
			s.ix.put(a.loaded())
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("load articles: %w", err)
	}
	return s, nil
}

// SetClock replaces the time source (tests).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// Count is the number of articles.
func (s *Service) Count() int { return s.ix.len() }

// Get returns the article with id, or store.ErrNotFound.
func (s *Service) Get(id uint64) (*Article, error) {
	var a Article
	err := s.st.View(func(tx *bolt.Tx) error {
		return store.GetJSON(tx.Bucket(bucketArticles), store.Itob(id), &a)
	})
	if err != nil {
		return nil, err
	}
	return s.atRead(a.loaded()), nil
}

// GetBySlug returns the article with slug, or store.ErrNotFound.
func (s *Service) GetBySlug(slug string) (*Article, error) {
	var a Article
	err := s.st.View(func(tx *bolt.Tx) error {
		id := tx.Bucket(bucketSlugs).Get([]byte(slug))
		if id == nil {
			return store.ErrNotFound
		}
		return store.GetJSON(tx.Bucket(bucketArticles), id, &a)
	})
	if err != nil {
		return nil, err
	}
	return s.atRead(a.loaded()), nil
}

// ParseID reads an article id from a path or command argument; anything
// that is not a positive number is an unknown article.
func ParseID(s string) (uint64, error) {
	id, err := strconv.ParseUint(s, 10, 64)
	if err != nil || id == 0 {
		return 0, store.ErrNotFound
	}
	return id, nil
}

// List answers a page of the newest-first listing, filtered by category
// (case-insensitive) and search words (all must occur in the name, excerpt
// or content, case-insensitively in any script).
func (s *Service) List(q Query) (Page, error) {
	pq, err := listRule.Normalize(paging.Query{Page: q.Page, Limit: q.Limit})
	if err != nil {
		return Page{}, err
	}
	arts, total := s.ix.query(categoryKey(q.Category), searchTerms(q.Search), langKey(q.Lang), pq.Offset(), pq.Limit,
		s.seer(q.Drafts))
	return NewPage(paging.Page[Summary]{Items: arts, Total: total, Page: pq.Page, Limit: pq.Limit}), nil
}

// All lists every matching article, newest first: the public ones, and
// with drafts the others too (the CLI's list).
func (s *Service) All(category, search string, drafts bool) []Summary {
	arts, _ := s.ix.query(categoryKey(category), searchTerms(search), "", 0, -1, s.seer(drafts))
	return arts
}

// seer is the index's view for a reader now.
func (s *Service) seer(drafts bool) seer { return seer{now: s.now(), drafts: drafts} }

// Translations lists the other articles that share a's translation key, in
// language order; none when a has no key. Without drafts only the public
// ones.
func (s *Service) Translations(a *Article, drafts bool) []Translation {
	out := []Translation{}
	if a.TranslationKey == "" {
		return out
	}
	for _, sum := range s.ix.withKey(a.TranslationKey, s.seer(drafts)) {
		if sum.ID != a.ID {
			out = append(out, Translation{ID: sum.ID, Slug: sum.Slug, Name: sum.Name, Lang: sum.Lang})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Lang < out[j].Lang })
	return out
}

// langKey is a language query value as stored ("" for none).
func langKey(l string) string { return strings.ToLower(strings.TrimSpace(l)) }

func categoryKey(c string) string {
	f := Fold(strings.TrimSpace(c))
	if f == CategoryAll {
		return ""
	}
	return f
}

// Categories lists categories with their article counts, most used first;
// without drafts only the public articles count.
func (s *Service) Categories(drafts bool) []Category { return s.ix.categories(s.seer(drafts)) }

// Create validates in and stores a new article. A slug is derived from the
// name when none is given and made unique with a numeric suffix; an
// explicit slug that is taken is a conflict.
func (s *Service) Create(ctx context.Context, in Input) (*Article, error) {
	in.normalize()
	if in.Status == "" {
		in.Status = StatusPublished
	}
	now := s.now()
	a := &Article{Slug: in.Slug, Name: in.Name, Excerpt: in.Excerpt, Content: in.Content, Category: in.Category,
		ImageURL: in.ImageURL, Lang: in.Lang, TranslationKey: in.TranslationKey, CreatedAt: now, UpdatedAt: now,
		Status: in.Status, PublishAt: in.PublishAt, Version: 1, EditedBy: in.EditedBy, Newsletter: in.Newsletter}
	if err := in.validateSave(a, nil, now); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil { // gone while waiting for the writer
		return nil, err
	}
	err := s.st.Update(func(tx *bolt.Tx) error { return s.insertTx(tx, a, in.Slug == "") })
	if err != nil {
		return nil, err
	}
	s.ix.put(a)
	return s.atRead(copyArticle(a)), nil
}

// copyArticle is a copy the caller may change without touching the index's.
func copyArticle(a *Article) *Article {
	c := *a
	return &c
}

// insertTx assigns an id (and a slug when auto) and writes a new article.
func (s *Service) insertTx(tx *bolt.Tx, a *Article, autoSlug bool) error {
	arts, slugs := tx.Bucket(bucketArticles), tx.Bucket(bucketSlugs)
	if autoSlug {
		a.Slug = uniqueSlug(slugs, Slugify(a.Name), 0)
	} else if slugs.Get([]byte(a.Slug)) != nil {
		return fmt.Errorf("%w: an article with slug %q", store.ErrConflict, a.Slug)
	}
	seq, err := arts.NextSequence()
	if err != nil {
		return err
	}
	a.ID = seq
	a.loaded()
	if err := store.PutJSON(arts, store.Itob(a.ID), a); err != nil {
		return err
	}
	return slugs.Put([]byte(a.Slug), store.Itob(a.ID))
}

// uniqueSlug returns base, or base-2, base-3, … whichever is free (or owned
// by the article self).
func uniqueSlug(slugs *bolt.Bucket, base string, self uint64) string {
	if base == "" {
		base = "article"
	}
	for n := 1; ; n++ {
		cand := base
		if n > 1 {
			suffix := "-" + strconv.Itoa(n)
			cand = Slugify(base[:min(len(base), MaxSlugLen-len(suffix))]) + suffix
		}
		id := slugs.Get([]byte(cand))
		if id == nil || store.Btoi(id) == self {
			return cand
		}
	}
}

// Update applies p to the article with id. A save that changes the text
// keeps the previous text as a revision; p.Version, when set, must be the
// current version (else a conflict: someone saved in between).
func (s *Service) Update(ctx context.Context, id uint64, p Patch) (*Article, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out *Article
	err := s.st.Update(func(tx *bolt.Tx) error {
		var a Article
		if err := store.GetJSON(tx.Bucket(bucketArticles), store.Itob(id), &a); err != nil {
			return err
		}
		a.loaded()
		if p.Version != nil && *p.Version != a.Version {
			return store.Refuse(store.KindConflict, fmt.Sprintf(
				"the article was saved by someone else meanwhile (version %d, this edit is based on %d); reload it", a.Version, *p.Version))
		}
		in := Input{Slug: a.Slug, Name: a.Name, Excerpt: a.Excerpt, Content: a.Content, Category: a.Category, ImageURL: a.ImageURL,
			Lang: a.Lang, TranslationKey: a.TranslationKey, Status: a.Status, PublishAt: a.PublishAt}
		for _, f := range []struct {
			dst *string
			src *string
		}{{&in.Slug, p.Slug}, {&in.Name, p.Name}, {&in.Excerpt, p.Excerpt}, {&in.Content, p.Content},
			{&in.Category, p.Category}, {&in.ImageURL, p.ImageURL}, {&in.Lang, p.Lang}, {&in.TranslationKey, p.TranslationKey},
			{&in.Status, p.Status}} {
			if f.src != nil {
				*f.dst = *f.src
			}
		}
		if p.PublishAt != nil {
			in.PublishAt = p.PublishAt
		}
		in.normalize()
		next := a
		next.Slug, next.Name, next.Excerpt, next.Content, next.Category, next.ImageURL, next.Lang, next.TranslationKey =
			in.Slug, in.Name, in.Excerpt, in.Content, in.Category, in.ImageURL, in.Lang, in.TranslationKey
		next.Status, next.PublishAt = in.Status, in.PublishAt
		if p.Newsletter != nil {
			v := *p.Newsletter
			next.Newsletter = &v
		}
		if err := in.validateSave(&next, &a, s.now()); err != nil {
			return err
		}
		if sameArticle(&next, &a) {
			out = &a
			return nil
		}
		next.UpdatedAt = s.now()
		next.EditedBy = p.EditedBy
		if err := s.replaceTx(tx, &a, &next); err != nil {
			return err
		}
		out = &next
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.ix.put(out)
	return s.atRead(copyArticle(out)), nil
}

// replaceTx writes next over old, moving the slug entry when it changed,
// counting the version on and keeping old's text as a revision when the
// text changed.
func (s *Service) replaceTx(tx *bolt.Tx, old, next *Article) error {
	slugs := tx.Bucket(bucketSlugs)
	if next.Slug == "" {
		next.Slug = uniqueSlug(slugs, Slugify(next.Name), next.ID)
	}
	if next.Slug != old.Slug {
		if id := slugs.Get([]byte(next.Slug)); id != nil && store.Btoi(id) != next.ID {
			return fmt.Errorf("%w: an article with slug %q", store.ErrConflict, next.Slug)
		}
		if err := slugs.Delete([]byte(old.Slug)); err != nil {
			return err
		}
		if err := slugs.Put([]byte(next.Slug), store.Itob(next.ID)); err != nil {
			return err
		}
	}
	if textChanged(old, next) {
		if err := keepRevisionTx(tx, old); err != nil {
			return err
		}
	}
	next.Version = old.Version + 1
	return store.PutJSON(tx.Bucket(bucketArticles), store.Itob(next.ID), next)
}

// Delete removes the article with id, or returns store.ErrNotFound.
func (s *Service) Delete(ctx context.Context, id uint64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	err := s.st.Update(func(tx *bolt.Tx) error {
		arts := tx.Bucket(bucketArticles)
		var a Article
		if err := store.GetJSON(arts, store.Itob(id), &a); err != nil {
			return err
		}
		if err := tx.Bucket(bucketSlugs).Delete([]byte(a.Slug)); err != nil {
			return err
		}
		if err := deleteRevisionsTx(tx, id); err != nil {
			return err
		}
		return arts.Delete(store.Itob(id))
	})
	if err != nil {
		return err
	}
	s.ix.remove(id)
	return nil
}

// sameArticle compares every stored field (times by instant).
func sameArticle(a, b *Article) bool {
	return a.ID == b.ID && a.Slug == b.Slug && a.Name == b.Name && a.Excerpt == b.Excerpt &&
		a.Content == b.Content && a.Category == b.Category && a.ImageURL == b.ImageURL &&
		a.Lang == b.Lang && a.TranslationKey == b.TranslationKey &&
		a.CreatedAt.Equal(b.CreatedAt) && a.UpdatedAt.Equal(b.UpdatedAt) &&
		a.Status == b.Status && sameTime(a.PublishAt, b.PublishAt) && a.SendsNewsletter() == b.SendsNewsletter()
}

func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

// Render returns the article's content as safe HTML.
func (s *Service) Render(a *Article) (string, error) { return RenderMarkdown(a.Content) }

// WithHTML is an article together with its rendered content and its other
// language versions, as the API's GET /api/blog/:id answers it.
type WithHTML struct {
	*Article
	ContentHTML  string        `json:"content_html"`
	Translations []Translation `json:"translations"`
}

// MarshalJSON keeps the embedded article's fields at the top level.
func (w WithHTML) MarshalJSON() ([]byte, error) {
	type plain Article
	tr := w.Translations
	if tr == nil {
		tr = []Translation{}
	}
	return json.Marshal(struct {
		*plain
		ContentHTML  string        `json:"content_html"`
		Translations []Translation `json:"translations"`
	}{(*plain)(w.Article), w.ContentHTML, tr})
}

// seeded reports whether content/ was imported into this store before.
func (s *Service) seeded() (bool, error) {
	var ok bool
	err := s.st.View(func(tx *bolt.Tx) error {
		ok = tx.Bucket(bucketMeta).Get(keySeeded) != nil
		return nil
	})
	return ok, err
}

// SeedFrom imports dir once for a new store: only when the store has no
// articles and was never seeded, so articles the owner deleted do not come
// back on the next start. A missing dir is not an error.
func (s *Service) SeedFrom(ctx context.Context, dir string) (ImportResult, bool, error) {
	if s.Count() > 0 {
		return ImportResult{}, false, nil
	}
	done, err := s.seeded()
	if err != nil || done {
		return ImportResult{}, false, err
	}
	res, err := s.Import(ctx, dir)
	if errors.Is(err, errNoDir) {
		return ImportResult{}, false, nil
	}
	if err != nil {
		return res, false, err
	}
	err = s.st.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keySeeded, []byte(s.now().Format(time.RFC3339)))
	})
	return res, true, err
}
