package blog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/store/storetest"
)

func newTestService(t testing.TB) *Service {
	t.Helper()
	st := storetest.Open(t)
	s, err := New(st)
	if err != nil {
		t.Fatal(err)
	}
	// A clock that ticks one minute per call keeps "newest first" deterministic.
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	n := 0
	s.SetClock(func() time.Time { n++; return base.Add(time.Duration(n) * time.Minute) })
	return s
}

func mustCreate(t testing.TB, s *Service, in Input) *Article {
	t.Helper()
	a, err := s.Create(context.Background(), in)
	if err != nil {
		t.Fatalf("create %q: %v", in.Name, err)
	}
	return a
}

func article(name, category, content string) Input {
	return Input{Name: name, Excerpt: "About " + name, Category: category, Content: content}
}

func names(arts []Summary) []string {
	out := make([]string, len(arts))
	for i, a := range arts {
		out[i] = a.Name
	}
	return out
}

func fieldOf(err error) string {
	var v *store.ValidationError
	if !errors.As(err, &v) {
		return ""
	}
	keys := []string{}
	for k := range v.Fields {
		keys = append(keys, k)
	}
	return strings.Join(keys, ",")
}

func TestPaging(t *testing.T) {
	s := newTestService(t)
	for i := 1; i <= 12; i++ {
		mustCreate(t, s, article(fmt.Sprintf("a%02d", i), "Go", "body"))
	}
	tests := []struct {
		name      string
		q         Query
		want      []string
		wantField string
	}{
		{"defaults: 5 newest", Query{}, []string{"a12", "a11", "a10", "a09", "a08"}, ""},
		{"page 2", Query{Page: 2}, []string{"a07", "a06", "a05", "a04", "a03"}, ""},
		{"last partial page", Query{Page: 3}, []string{"a02", "a01"}, ""},
		{"past the end is empty", Query{Page: 4}, []string{}, ""},
		{"limit 3 page 4", Query{Limit: 3, Page: 4}, []string{"a03", "a02", "a01"}, ""},
		{"limit over the cap is capped", Query{Limit: 1000}, nil, ""},
		{"huge page", Query{Page: 1 << 40}, []string{}, ""},
		{"negative page", Query{Page: -1}, nil, "page"},
		{"negative limit", Query{Limit: -5}, nil, "limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := s.List(tt.q)
			if tt.wantField != "" {
				if got := fieldOf(err); got != tt.wantField {
					t.Fatalf("error field = %q (err %v), want %q", got, err, tt.wantField)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.TotalCount != 12 {
				t.Errorf("totalCount = %d, want 12", p.TotalCount)
			}
			if tt.want == nil {
				if len(p.Articles) != 12 {
					t.Errorf("got %d articles, want all 12", len(p.Articles))
				}
				return
			}
			if got := names(p.Articles); strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCapAt50(t *testing.T) {
	s := newTestService(t)
	for i := 0; i < 60; i++ {
		mustCreate(t, s, article(fmt.Sprintf("n%d", i), "x", "y"))
	}
	p, err := s.List(Query{Limit: 100})
	if err != nil || len(p.Articles) != MaxLimit || p.TotalCount != 60 {
		t.Fatalf("got %d articles, total %d, err %v; want %d of 60", len(p.Articles), p.TotalCount, err, MaxLimit)
	}
}

func TestCategoryFilterAndCounts(t *testing.T) {
	s := newTestService(t)
	mustCreate(t, s, article("one", "Go", "x"))
	mustCreate(t, s, article("two", "Guides", "x"))
	mustCreate(t, s, article("three", "go", "x"))
	mustCreate(t, s, article("four", "Новини", "x"))
	tests := []struct {
		category string
		want     []string
	}{
		{"", []string{"four", "three", "two", "one"}},
		{"all", []string{"four", "three", "two", "one"}},
		{"ALL", []string{"four", "three", "two", "one"}},
		{"Go", []string{"three", "one"}},
		{"GO", []string{"three", "one"}},
		{" go ", []string{"three", "one"}},
		{"Guides", []string{"two"}},
		{"НОВИНИ", []string{"four"}},
		{"nothing", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.category, func(t *testing.T) {
			p, err := s.List(Query{Category: tt.category, Limit: 50})
			if err != nil {
				t.Fatal(err)
			}
			if got := names(p.Articles); strings.Join(got, ",") != strings.Join(tt.want, ",") || p.TotalCount != len(tt.want) {
				t.Errorf("got %v (total %d), want %v", got, p.TotalCount, tt.want)
			}
		})
	}
	cats := s.Categories(false)
	want := []Category{{"go", 2}, {"Guides", 1}, {"Новини", 1}}
	if fmt.Sprint(cats) != fmt.Sprint(want) {
		t.Errorf("categories = %v, want %v", cats, want)
	}
}

func TestSearchCaseFolding(t *testing.T) {
	s := newTestService(t)
	mustCreate(t, s, Input{Name: "Привіт, Світ", Excerpt: "Українська стаття", Category: "uk", Content: "Їжак їсть яблука."})
	mustCreate(t, s, Input{Name: "Ёлка и ЗИМА", Excerpt: "Русская статья", Category: "ru", Content: "Большой текст про ПРОГРАММИРОВАНИЕ."})
	mustCreate(t, s, Input{Name: "Go generics", Excerpt: "Type parameters", Category: "en", Content: "Use `any` and constraints. STRASSE"})
	// Decomposed й (и + U+0306) in the content must match a composed query.
	mustCreate(t, s, Input{Name: "Decomposed", Excerpt: "x", Category: "uk", Content: "Мои\u0306 текст"})
	tests := []struct {
		search string
		want   []string
	}{
		{"привіт", []string{"Привіт, Світ"}},
		{"СВІТ", []string{"Привіт, Світ"}},
		{"їжак", []string{"Привіт, Світ"}},
		{"ЇЖАК ЯБЛУКА", []string{"Привіт, Світ"}},
		{"ёлка", []string{"Ёлка и ЗИМА"}},
		{"елка", []string{"Ёлка и ЗИМА"}},
		{"зима", []string{"Ёлка и ЗИМА"}},
		{"программирование", []string{"Ёлка и ЗИМА"}},
		{"GENERICS", []string{"Go generics"}},
		{"type PARAMETERS", []string{"Go generics"}},
		{"straße", []string{"Go generics"}},
		{"мой", []string{"Decomposed"}},
		{"стаття", []string{"Привіт, Світ"}},
		{"статья", []string{"Ёлка и ЗИМА"}},
		{"  ", []string{"Decomposed", "Go generics", "Ёлка и ЗИМА", "Привіт, Світ"}},
		{"nothing-like-this", []string{}},
		{"привіт зима", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.search, func(t *testing.T) {
			p, err := s.List(Query{Search: tt.search, Limit: 50})
			if err != nil {
				t.Fatal(err)
			}
			if got := names(p.Articles); strings.Join(got, ",") != strings.Join(tt.want, ",") || p.TotalCount != len(tt.want) {
				t.Errorf("got %v (total %d), want %v", got, p.TotalCount, tt.want)
			}
		})
	}
	// Search and category together.
	p, _ := s.List(Query{Search: "текст", Category: "uk"})
	if got := names(p.Articles); strings.Join(got, ",") != "Decomposed" {
		t.Errorf("search+category = %v", got)
	}
}

func TestCreateValidation(t *testing.T) {
	s := newTestService(t)
	ok := Input{Name: "n", Excerpt: "e", Category: "c", Content: "body"}
	with := func(f func(*Input)) Input { in := ok; f(&in); return in }
	tests := []struct {
		name  string
		in    Input
		field string
	}{
		{"no name", with(func(i *Input) { i.Name = "  " }), "name"},
		{"no excerpt", with(func(i *Input) { i.Excerpt = "" }), "excerpt"},
		{"no category", with(func(i *Input) { i.Category = "" }), "category"},
		{"no content", with(func(i *Input) { i.Content = "\n \n" }), "content"},
		{"name too long", with(func(i *Input) { i.Name = strings.Repeat("я", MaxNameLen+1) }), "name"},
		{"control char in name", with(func(i *Input) { i.Name = "a\x00b" }), "name"},
		{"bad slug", with(func(i *Input) { i.Slug = "Bad Slug" }), "slug"},
		{"image javascript:", with(func(i *Input) { i.ImageURL = "javascript:alert(1)" }), "image_url"},
		{"image JaVaScRiPt:", with(func(i *Input) { i.ImageURL = "JaVaScRiPt:alert(1)" }), "image_url"},
		{"image data:text/html", with(func(i *Input) { i.ImageURL = "data:text/html,<script>alert(1)</script>" }), "image_url"},
		{"image data:image/svg+xml", with(func(i *Input) { i.ImageURL = "data:image/svg+xml,<svg onload=alert(1)>" }), "image_url"},
		{"image ftp", with(func(i *Input) { i.ImageURL = "ftp://example.com/a.png" }), "image_url"},
		{"image relative", with(func(i *Input) { i.ImageURL = "images/a.png" }), "image_url"},
		{"image protocol-relative", with(func(i *Input) { i.ImageURL = "//evil.example/a.png" }), "image_url"},
		{"image http without host", with(func(i *Input) { i.ImageURL = "http:///a.png" }), "image_url"},
		{"image with space", with(func(i *Input) { i.ImageURL = "https://x.test/a b.png" }), "image_url"},
		{"image svg not closed", with(func(i *Input) { i.ImageURL = "<svg><script>" }), "image_url"},
		{"image html", with(func(i *Input) { i.ImageURL = "<img src=x onerror=alert(1)>" }), "image_url"},
		{"all missing", Input{}, "category,content,excerpt,name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Create(context.Background(), tt.in)
			got := strings.Split(fieldOf(err), ",")
			want := strings.Split(tt.field, ",")
			if len(got) != len(want) || !containsEvery(got, want) {
				t.Fatalf("error fields = %v (err %v), want %v", got, err, want)
			}
		})
	}
	if s.Count() != 0 {
		t.Fatalf("invalid input stored %d articles", s.Count())
	}
}

func containsEvery(got, want []string) bool {
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || g == w
		}
		if !found {
			return false
		}
	}
	return true
}

// TestSingleLineFields: line breaks and tabs in the name, excerpt and
// category become spaces instead of failing validation.
func TestSingleLineFields(t *testing.T) {
	s := newTestService(t)
	a := mustCreate(t, s, Input{Name: "Two\nlines", Excerpt: "First line\r\nsecond\tline\n", Category: "Go\n", Content: "x"})
	if a.Name != "Two lines" || a.Excerpt != "First line second line" || a.Category != "Go" {
		t.Fatalf("got %q %q %q", a.Name, a.Excerpt, a.Category)
	}
	if _, err := s.Create(context.Background(), Input{Name: "n", Excerpt: "bell\a", Category: "c", Content: "x"}); fieldOf(err) != "excerpt" {
		t.Fatalf("other control characters are still refused: %v", err)
	}
}

func TestImageURLAccepted(t *testing.T) {
	for _, v := range []string{
		"", "https://example.com/a.png", "HTTP://example.com/a.png?x=1", "/images/a.png",
		"data:image/png;base64,iVBORw0KGgo=", "DATA:IMAGE/JPEG;base64,/9j/", "data:image/gif,GIF89a", "data:image/webp;base64,UklGR",
		`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><circle r="4"/></svg>`,
		`<?xml version="1.0"?><svg viewBox="0 0 1 1"/>`,
	} {
		if msg := ValidateImageURL(v); msg != "" {
			t.Errorf("ValidateImageURL(%q) = %q, want accepted", v, msg)
		}
	}
}

func TestCreateGetUpdateDelete(t *testing.T) {
	s := newTestService(t)
	ctx := context.Background()
	a := mustCreate(t, s, Input{Name: "Hello, Світ!", Excerpt: "e", Category: "c", Content: "body\r\n\r\n"})
	if a.ID != 1 || a.Slug != "hello-світ" || a.Content != "body" {
		t.Fatalf("created %+v", a)
	}
	b := mustCreate(t, s, Input{Name: "Hello Світ", Excerpt: "e", Category: "c", Content: "x"})
	if b.ID != 2 || b.Slug != "hello-світ-2" {
		t.Fatalf("second article: id %d slug %q", b.ID, b.Slug)
	}
	if _, err := s.Create(ctx, Input{Slug: "hello-світ", Name: "x", Excerpt: "e", Category: "c", Content: "x"}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("duplicate explicit slug: %v, want conflict", err)
	}
	got, err := s.Get(a.ID)
	if err != nil || got.Name != a.Name {
		t.Fatalf("get: %+v %v", got, err)
	}
	name, cat := "Renamed", "Other"
	up, err := s.Update(ctx, a.ID, Patch{Name: &name, Category: &cat})
	if err != nil {
		t.Fatal(err)
	}
	if up.Name != "Renamed" || up.Category != "Other" || up.Excerpt != "e" || up.Slug != a.Slug || !up.UpdatedAt.After(a.UpdatedAt) {
		t.Fatalf("updated %+v", up)
	}
	empty := ""
	if _, err := s.Update(ctx, a.ID, Patch{Excerpt: &empty}); fieldOf(err) != "excerpt" {
		t.Fatalf("update with empty excerpt: %v", err)
	}
	if p, _ := s.List(Query{Search: "renamed"}); p.TotalCount != 1 {
		t.Fatalf("index not updated after edit: %+v", p)
	}
	if p, _ := s.List(Query{Category: "c"}); p.TotalCount != 1 {
		t.Fatalf("old category still counted: %+v", p)
	}
	if _, err := s.Update(ctx, 99, Patch{Name: &name}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("update unknown: %v", err)
	}
	if err := s.Delete(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, a.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	if _, err := s.Get(a.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("get deleted: %v", err)
	}
	if p, _ := s.List(Query{}); p.TotalCount != 1 || p.Articles[0].ID != b.ID {
		t.Fatalf("after delete list = %+v", p)
	}
	// The slug is free again.
	c := mustCreate(t, s, Input{Name: "Hello Світ", Excerpt: "e", Category: "c", Content: "x"})
	if c.Slug != "hello-світ" || c.ID != 3 {
		t.Fatalf("reused slug: %+v", c)
	}
}

// The writes honour their context: a request that has gone (or a Ctrl-C)
// changes nothing.
func TestWritesHonourContext(t *testing.T) {
	s := newTestService(t)
	a := mustCreate(t, s, Input{Name: "Kept", Excerpt: "e", Category: "c", Content: "x"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	name := "Changed"
	if _, err := s.Create(ctx, Input{Name: "New", Excerpt: "e", Category: "c", Content: "x"}); !errors.Is(err, context.Canceled) {
		t.Errorf("create: %v", err)
	}
	if _, err := s.Update(ctx, a.ID, Patch{Name: &name}); !errors.Is(err, context.Canceled) {
		t.Errorf("update: %v", err)
	}
	if err := s.Delete(ctx, a.ID); !errors.Is(err, context.Canceled) {
		t.Errorf("delete: %v", err)
	}
	if p, _ := s.List(Query{}); p.TotalCount != 1 || p.Articles[0].Name != "Kept" {
		t.Fatalf("after cancelled writes: %+v", p)
	}
}

func TestIndexReloadMatchesStore(t *testing.T) {
	s := newTestService(t)
	ctx := context.Background()
	for i := 0; i < 7; i++ {
		mustCreate(t, s, article(fmt.Sprintf("a%d", i), "c", "text"))
	}
	s.Delete(ctx, 3)
	n := "changed"
	s.Update(ctx, 5, Patch{Name: &n})
	fresh, err := New(s.st)
	if err != nil {
		t.Fatal(err)
	}
	p1, _ := s.List(Query{Limit: 50})
	p2, _ := fresh.List(Query{Limit: 50})
	if fmt.Sprint(p1) != fmt.Sprint(p2) {
		t.Fatalf("live index %v\nreloaded %v", p1, p2)
	}
}

// TestWordIndexMatchesText: the index keeps only each article's distinct
// words, so a search must find exactly what a substring test on the whole
// folded text finds, for terms inside words, across punctuation and at
// word edges.
func TestWordIndexMatchesText(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pieces := strings.Fields("go Go GO- fetch-cores.mjs статья СТАТЬЯ ёлка елка ї й a b ab ba . , : 10 100 x\ty")
	seps := []string{" ", "\n", "\t", "  ", "\u00a0"}
	for i := 0; i < 300; i++ {
		var b strings.Builder
		for j := 0; j < 2+r.IntN(12); j++ {
			b.WriteString(pieces[r.IntN(len(pieces))])
			b.WriteString(seps[r.IntN(len(seps))])
		}
		text := b.String()
		words := distinctWords(Fold(text))
		var ix index
		for k := 0; k < 20; k++ {
			a, c := pieces[r.IntN(len(pieces))], pieces[r.IntN(len(pieces))]
			term := Fold(a + c)[:min(len(Fold(a+c)), 1+r.IntN(6))]
			if !utf8.ValidString(term) || strings.ContainsFunc(term, unicode.IsSpace) {
				continue
			}
			m := ix.newMatcher(term)
			if got, want := m.in(words), strings.Contains(Fold(text), term); got != want {
				t.Fatalf("term %q in %q: index says %v, text says %v", term, text, got, want)
			}
		}
	}
}

func TestSlugify(t *testing.T) {
	for in, want := range map[string]string{
		"Hello, World!":           "hello-world",
		"  Привіт   Світ  ":       "привіт-світ",
		"Go 1.26 — what's new?":   "go-1-26-what-s-new",
		"!!!":                     "",
		strings.Repeat("ab ", 99): strings.TrimSuffix(strings.Repeat("ab-", 40), "-"),
	} {
		if got := Slugify(in); got != want {
			t.Errorf("Slugify(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSeedOnlyOnce(t *testing.T) {
	s := newTestService(t)
	dir := t.TempDir()
	writeFile(t, dir, "first.md", "---\nname: First\nexcerpt: e\ncategory: c\n---\nBody\n")
	ctx := context.Background()
	res, seeded, err := s.SeedFrom(ctx, dir)
	if err != nil || !seeded || res.Created != 1 {
		t.Fatalf("seed: %+v %v %v", res, seeded, err)
	}
	s.Delete(ctx, 1)
	if _, seeded, err := s.SeedFrom(ctx, dir); err != nil || seeded || s.Count() != 0 {
		t.Fatalf("second seed ran: seeded=%v err=%v count=%d", seeded, err, s.Count())
	}
	other := newTestService(t)
	if _, seeded, err := other.SeedFrom(ctx, filepath.Join(dir, "missing")); err != nil || seeded {
		t.Fatalf("missing dir: seeded=%v err=%v", seeded, err)
	}
}

// TestConcurrentReadsAndWrites: lists and searches run while articles are
// created, edited and deleted (run with -race); afterwards the index agrees
// with a fresh load from the store.
func TestConcurrentReadsAndWrites(t *testing.T) {
	s := newTestService(t)
	s.SetClock(func() time.Time { return time.Now().UTC() })
	ctx := context.Background()
	done := make(chan struct{})
	errs := make(chan error, 4)
	for r := 0; r < 3; r++ {
		go func() {
			for {
				select {
				case <-done:
					errs <- nil
					return
				default:
				}
				if _, err := s.List(Query{Search: "стаття", Limit: 10}); err != nil {
					errs <- err
					return
				}
				s.Categories(false)
			}
		}()
	}
	for i := 0; i < 40; i++ {
		a := mustCreate(t, s, Input{Name: fmt.Sprintf("Стаття %d", i), Excerpt: "e", Category: fmt.Sprintf("c%d", i%3), Content: "x"})
		if i%3 == 0 {
			n := "Змінена стаття"
			if _, err := s.Update(ctx, a.ID, Patch{Name: &n}); err != nil {
				t.Fatal(err)
			}
		}
		if i%4 == 0 {
			if err := s.Delete(ctx, a.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	close(done)
	for r := 0; r < 3; r++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	fresh, err := New(s.st)
	if err != nil {
		t.Fatal(err)
	}
	p1, _ := s.List(Query{Limit: 50})
	p2, _ := fresh.List(Query{Limit: 50})
	if p1.TotalCount != 30 || fmt.Sprint(p1) != fmt.Sprint(p2) {
		t.Fatalf("live %d vs reloaded %d articles", p1.TotalCount, p2.TotalCount)
	}
}

// Search ranks by relevance, then date: the exact phrase in the title, every
// term in the title, in the excerpt, then in the content; newest first in a
// rank. Without a search the order stays newest first.
func TestSearchRanksByRelevance(t *testing.T) {
	s := newTestService(t)
	for i := 0; i < 30; i++ { // titles that contain every term but not the phrase
		mustCreate(t, s, Input{Name: fmt.Sprintf("Post number %d", 9870+i), Excerpt: "e", Category: "c", Content: "body"})
	}
	mustCreate(t, s, Input{Name: "Post number 8", Excerpt: "e", Category: "c", Content: "body"})
	mustCreate(t, s, Input{Name: "Number 8 post", Excerpt: "e", Category: "c", Content: "body"})
	mustCreate(t, s, Input{Name: "In the excerpt", Excerpt: "the post number 8", Category: "c", Content: "body"})
	mustCreate(t, s, Input{Name: "In the content", Excerpt: "e", Category: "c", Content: "see post number 8"})
	mustCreate(t, s, Input{Name: "Ёжик в тумане", Excerpt: "e", Category: "c", Content: "body"})

	tests := []struct {
		search string
		page   Query
		want   []string
		total  int
	}{
		{"Post number 8", Query{Limit: 4}, []string{"Post number 8", "Number 8 post", "Post number 9899", "Post number 9898"}, 34},
		{"post NUMBER 8", Query{Page: 9, Limit: 4}, []string{"In the excerpt", "In the content"}, 34},
		{"ежик", Query{Limit: 4}, []string{"Ёжик в тумане"}, 1},
		{"ёжик", Query{Limit: 4}, []string{"Ёжик в тумане"}, 1},
		{"", Query{Limit: 2}, []string{"Ёжик в тумане", "In the content"}, 35},
	}
	for _, tt := range tests {
		t.Run(tt.search, func(t *testing.T) {
			q := tt.page
			q.Search = tt.search
			p, err := s.List(q)
			if err != nil {
				t.Fatal(err)
			}
			if got := names(p.Articles); strings.Join(got, "|") != strings.Join(tt.want, "|") || p.TotalCount != tt.total {
				t.Errorf("got %v (total %d), want %v (total %d)", got, p.TotalCount, tt.want, tt.total)
			}
		})
	}
}

// TestImageURLRuleTable checks the rule against the table the SPA's display
// rule reads too (testdata/rules/image_url.json), so the two cannot drift.
func TestImageURLRuleTable(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "rules", "image_url.json"))
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Cases []struct {
			Value string `json:"value"`
			Valid bool   `json:"valid"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Cases) < 10 {
		t.Fatalf("only %d cases in the table", len(table.Cases))
	}
	for _, tc := range table.Cases {
		msg := ValidateImageURL(strings.TrimSpace(tc.Value))
		if (msg == "") != tc.Valid {
			t.Errorf("ValidateImageURL(%q) = %q, table says valid=%v", tc.Value, msg, tc.Valid)
		}
	}
}
