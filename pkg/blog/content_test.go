package blog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

func writeFile(t testing.TB, dir, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

const goodFile = `---
name: Running devhub
excerpt: "One binary: build, serve, done."
category: Guides
image: /images/run.png
date: 2025-02-03
---

# Run it

` + "```sh\nmake build\n```\n"

func TestParseContentFile(t *testing.T) {
	in, stamps, err := ParseContentFile("content/running-devhub.md", []byte(goodFile))
	if err != nil {
		t.Fatal(err)
	}
	if in.Slug != "running-devhub" || in.Name != "Running devhub" || in.Excerpt != "One binary: build, serve, done." ||
		in.Category != "Guides" || in.ImageURL != "/images/run.png" || !strings.HasPrefix(in.Content, "# Run it") ||
		!strings.HasSuffix(in.Content, "```") {
		t.Fatalf("parsed %+v", in)
	}
	if !stamps.Created.Equal(time.Date(2025, 2, 3, 0, 0, 0, 0, time.UTC)) || !stamps.Updated.IsZero() {
		t.Fatalf("stamps = %+v", stamps)
	}
	_, stamps, err = ParseContentFile("x.md", []byte(strings.Replace(goodFile, "date: 2025-02-03", "date: 2025-02-03\nupdated: 2025-02-04T10:00:00+02:00", 1)))
	if err != nil || !stamps.Updated.Equal(time.Date(2025, 2, 4, 8, 0, 0, 0, time.UTC)) {
		t.Fatalf("updated: %+v %v", stamps, err)
	}
}

func TestParseContentFileErrors(t *testing.T) {
	tests := []struct {
		name, body, field, msg string
	}{
		{"no front matter", "# Just markdown\n", "", "front matter"},
		{"not closed", "---\nname: x\n", "", "not closed"},
		{"bad yaml", "---\nname: [x\n---\nbody\n", "name", "bad front matter: line 2:"},
		{"unquoted colon", "---\nname: n\nexcerpt: One binary: build, serve\ncategory: c\n---\nbody\n", "excerpt", `line 3: mapping values are not allowed in this context (quote a value that holds ": ")`},
		{"bad yaml indentation", "---\nname: x\n  excerpt: y\n---\nbody\n", "", "line 3"},
		{"unknown key", "---\nname: x\ntitle: y\n---\nbody\n", "title", "line 3: unknown field; the fields are name, excerpt, category, image, date, updated, slug"},
		{"list instead of text", "---\nname:\n  - a\nexcerpt: e\ncategory: c\n---\nbody\n", "name", "line 2: must be a single text value"},
		{"map instead of text", "---\nname: n\nexcerpt: e\ncategory: {a: b}\n---\nbody\n", "category", "line 4: must be a single text value"},
		{"key twice", "---\nname: n\nexcerpt: e\ncategory: c\nname: m\n---\nbody\n", "name", "line 5: given twice (first on line 2)"},
		{"not a mapping", "---\n- a\n- b\n---\nbody\n", "", "key: value"},
		{"empty header", "---\n---\nbody\n", "name", "required"},
		{"null name", "---\nname: ~\nexcerpt: e\ncategory: c\n---\nbody\n", "name", "required"},
		{"missing name", "---\nexcerpt: e\ncategory: c\n---\nbody\n", "name", "required"},
		{"missing excerpt", "---\nname: n\ncategory: c\n---\nbody\n", "excerpt", "required"},
		{"missing category", "---\nname: n\nexcerpt: e\n---\nbody\n", "category", "required"},
		{"empty body", "---\nname: n\nexcerpt: e\ncategory: c\n---\n\n", "content", "Markdown body"},
		{"bad image", "---\nname: n\nexcerpt: e\ncategory: c\nimage: javascript:alert(1)\n---\nbody\n", "image", "image must be an http(s) URL"},
		{"bad date", "---\nname: n\nexcerpt: e\ncategory: c\ndate: yesterday\n---\nbody\n", "date", "not a date"},
		{"bad updated", "---\nname: n\nexcerpt: e\ncategory: c\ndate: 2025-01-01\nupdated: soon\n---\nbody\n", "updated", "not a date"},
		{"updated without date", "---\nname: n\nexcerpt: e\ncategory: c\nupdated: 2025-01-01\n---\nbody\n", "updated", "needs date"},
		{"updated before date", "---\nname: n\nexcerpt: e\ncategory: c\ndate: 2025-01-02\nupdated: 2025-01-01\n---\nbody\n", "updated", "before date"},
		{"bad slug", "---\nname: n\nexcerpt: e\ncategory: c\nslug: Not A Slug\n---\nbody\n", "slug", "slug"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ParseContentFile("content/x.md", []byte(tt.body))
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a FileError", err)
			}
			if fe.File != "content/x.md" || fe.Field != tt.field || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("err = %q (field %q), want field %q and %q", err, fe.Field, tt.field, tt.msg)
			}
			if !strings.Contains(err.Error(), "content/x.md") {
				t.Fatalf("message does not name the file: %q", err)
			}
		})
	}
}

func TestImportIdempotent(t *testing.T) {
	s := newTestService(t)
	dir := t.TempDir()
	writeFile(t, dir, "running-devhub.md", goodFile)
	writeFile(t, dir, "second.md", "---\nname: Другий\nexcerpt: Про CLI\ncategory: CLI\nslug: cli\n---\nТекст\n")
	writeFile(t, dir, "notes.txt", "ignored")
	ctx := context.Background()
	res, err := s.Import(ctx, dir)
	if err != nil || res != (ImportResult{Created: 2}) {
		t.Fatalf("first import: %+v %v", res, err)
	}
	before := dump(t, s)
	res, err = s.Import(ctx, dir)
	if err != nil || res != (ImportResult{Unchanged: 2}) {
		t.Fatalf("second import: %+v %v", res, err)
	}
	if after := dump(t, s); after != before {
		t.Fatalf("second import changed the store:\n%s\n---\n%s", before, after)
	}
	a, err := s.GetBySlug("running-devhub")
	if err != nil || !a.CreatedAt.Equal(time.Date(2025, 2, 3, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("date not used as createdAt: %+v %v", a, err)
	}
	// Editing a file updates the article in place (same id).
	writeFile(t, dir, "second.md", "---\nname: Другий (нове)\nexcerpt: Про CLI\ncategory: CLI\nslug: cli\n---\nТекст\n")
	res, err = s.Import(ctx, dir)
	if err != nil || res != (ImportResult{Updated: 1, Unchanged: 1}) {
		t.Fatalf("third import: %+v %v", res, err)
	}
	b, _ := s.GetBySlug("cli")
	if b.Name != "Другий (нове)" || b.ID != 2 || s.Count() != 2 {
		t.Fatalf("updated article %+v (count %d)", b, s.Count())
	}
	if p, _ := s.List(Query{Search: "НОВЕ"}); p.TotalCount != 1 {
		t.Fatalf("index not updated by import")
	}
}

func TestImportAllOrNothing(t *testing.T) {
	s := newTestService(t)
	dir := t.TempDir()
	writeFile(t, dir, "a.md", goodFile)
	writeFile(t, dir, "b.md", "---\nname: B\ncategory: c\n---\nbody\n") // no excerpt
	_, err := s.Import(context.Background(), dir)
	if err == nil || !strings.Contains(err.Error(), "b.md") || !strings.Contains(err.Error(), `"excerpt"`) {
		t.Fatalf("err = %v, want one naming b.md and excerpt", err)
	}
	if s.Count() != 0 {
		t.Fatalf("half-imported: %d articles", s.Count())
	}
	// Two files with one slug.
	dir2 := t.TempDir()
	writeFile(t, dir2, "a.md", goodFile)
	writeFile(t, dir2, "b.md", strings.Replace(goodFile, "date:", "slug: a\ndate:", 1))
	if _, err := s.Import(context.Background(), dir2); err == nil || !strings.Contains(err.Error(), "slug") {
		t.Fatalf("duplicate slug: %v", err)
	}
	if s.Count() != 0 {
		t.Fatalf("half-imported: %d articles", s.Count())
	}
}

func TestExportImportRoundTrip(t *testing.T) {
	s := newTestService(t)
	ctx := context.Background()
	inputs := []Input{
		{Name: "Quotes \"and\" colons: yes", Excerpt: "- looks like a list\n", Category: "Go", Content: "# T\n\n---\n\nA rule above, `code` and\n\n```go\nx := 1\n```"},
		{Name: "Українська назва", Excerpt: "Опис: з двокрапкою", Category: "Новини", Content: "Текст\n\n---\nне фронтматер", ImageURL: `<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>`},
		{Name: "yes", Excerpt: "null", Category: "123", Content: "   indented code\n\ttab", ImageURL: "data:image/png;base64,iVBORw0KGgo="},
		{Name: "#hash", Excerpt: "'single' \"double\"", Category: "a: b", Content: "trailing\n\n", ImageURL: "https://example.com/x.png?a=1&b=2"},
	}
	for _, in := range inputs {
		mustCreate(t, s, in)
	}
	// An edited article carries its own last-edit time through the round trip.
	edited := "Edited later"
	if _, err := s.Update(ctx, 2, Patch{Content: &edited}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	n, err := s.Export(ctx, dir)
	if err != nil || n != len(inputs) {
		t.Fatalf("export: %d %v", n, err)
	}
	fresh := newTestService(t)
	res, err := fresh.Import(ctx, dir)
	if err != nil || res.Created != len(inputs) {
		t.Fatalf("import: %+v %v", res, err)
	}
	if got, want := dumpContent(t, fresh), dumpContent(t, s); got != want {
		t.Fatalf("round trip differs:\n%s\n---\n%s", got, want)
	}
	// Exporting again gives byte-identical files.
	dir2 := t.TempDir()
	if _, err := fresh.Export(ctx, dir2); err != nil {
		t.Fatal(err)
	}
	for _, e := range mustReadDir(t, dir) {
		a, _ := os.ReadFile(filepath.Join(dir, e))
		b, _ := os.ReadFile(filepath.Join(dir2, e))
		if string(a) != string(b) {
			t.Errorf("%s differs after round trip:\n%s\n---\n%s", e, a, b)
		}
	}
	// And importing the export into the original store changes nothing.
	if res, err := s.Import(ctx, dir); err != nil || res.Unchanged != len(inputs) {
		t.Fatalf("re-import into source: %+v %v", res, err)
	}
	// Only the edited article's file says "updated".
	for _, e := range mustReadDir(t, dir) {
		raw, _ := os.ReadFile(filepath.Join(dir, e))
		if got, want := strings.Contains(string(raw), "\nupdated: "), e == "українська-назва.md"; got != want {
			t.Errorf("%s: has updated = %v, want %v:\n%s", e, got, want, raw)
		}
	}
}

// TestImportUpdatedStamp: an exported file edited by hand (its "updated"
// still the exported one) counts as a new edit; a file that states a new
// "updated" keeps it.
func TestImportUpdatedStamp(t *testing.T) {
	s := newTestService(t)
	ctx := context.Background()
	dir := t.TempDir()
	writeFile(t, dir, "a.md", "---\nname: A\nexcerpt: e\ncategory: c\ndate: 2024-05-01\nupdated: 2024-06-01\n---\nbody\n")
	if res, err := s.Import(ctx, dir); err != nil || res.Created != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	a, _ := s.GetBySlug("a")
	if !a.CreatedAt.Equal(time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)) || !a.UpdatedAt.Equal(time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("times %v %v", a.CreatedAt, a.UpdatedAt)
	}
	writeFile(t, dir, "a.md", "---\nname: A\nexcerpt: e\ncategory: c\ndate: 2024-05-01\nupdated: 2024-06-01\n---\nnew body\n")
	if res, err := s.Import(ctx, dir); err != nil || res.Updated != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	a, _ = s.GetBySlug("a")
	if a.Content != "new body" || !a.UpdatedAt.After(time.Date(2024, 12, 31, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("hand edit kept the old stamp: %+v", a)
	}
	writeFile(t, dir, "a.md", "---\nname: A\nexcerpt: e\ncategory: c\ndate: 2024-05-01\nupdated: 2024-07-01\n---\nnewer body\n")
	if res, err := s.Import(ctx, dir); err != nil || res.Updated != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	a, _ = s.GetBySlug("a")
	if a.Content != "newer body" || !a.UpdatedAt.Equal(time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("stated stamp not kept: %+v", a)
	}
}

func mustReadDir(t *testing.T, dir string) []string {
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// dump prints every stored field of every article.
func dump(t *testing.T, s *Service) string {
	var b strings.Builder
	for _, sum := range s.All("", "", true) {
		a, err := s.Get(sum.ID)
		if err != nil {
			t.Fatal(err)
		}
		c := *a // the newsletter switch by value, not by its pointer
		c.Newsletter = nil
		fmt.Fprintf(&b, "%+v newsletter=%v\n", c, a.SendsNewsletter())
	}
	return b.String()
}

// dumpContent prints the fields a content file carries: all but the id.
func dumpContent(t *testing.T, s *Service) string {
	var rows []string
	for _, sum := range s.All("", "", true) {
		a, err := s.Get(sum.ID)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, fmt.Sprintf("%q %q %q %q %q %q %s %s", a.Slug, a.Name, a.Excerpt, a.Category, a.ImageURL, a.Content,
			a.CreatedAt.Format(time.RFC3339Nano), a.UpdatedAt.Format(time.RFC3339Nano)))
	}
	sort.Strings(rows)
	return strings.Join(rows, "\n")
}

// Import and Export stop at a cancelled context (a closed request, Ctrl-C)
// before touching a file, and import nothing.
func TestImportExportHonourCancel(t *testing.T) {
	s := newTestService(t)
	mustCreate(t, s, article("One", "c", "body"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	if n, err := s.Export(ctx, dir); !errors.Is(err, context.Canceled) || n != 0 {
		t.Fatalf("export: %d, %v", n, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("export wrote %d files after cancel", len(entries))
	}
	writeFile(t, dir, "second.md", "---\nname: Другий\nexcerpt: Про CLI\ncategory: CLI\nslug: cli\n---\nТекст\n")
	if _, err := s.Import(ctx, dir); !errors.Is(err, context.Canceled) {
		t.Fatalf("import: %v", err)
	}
	if p, _ := s.List(Query{}); p.TotalCount != 1 {
		t.Fatalf("import after cancel left %d articles", p.TotalCount)
	}
}
