package blog

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
)

func TestArticleLanguageValidation(t *testing.T) {
	tests := []struct {
		name, lang, key string
		wantLang        string
		wantField       string
	}{
		{"none: the site's default", "", "", DefaultLang, ""},
		{"two letters", "uk", "", "uk", ""},
		{"upper case and spaces are normalised", "  RU ", "", "ru", ""},
		{"with a region", "pt-BR", "", "pt-br", ""},
		{"three letters", "fil", "", "fil", ""},
		{"a word is not a code", "english", "", "", "lang"},
		{"underscore", "en_US", "", "", "lang"},
		{"a digit", "e1", "", "", "lang"},
		{"a script tag", "<b>", "", "", "lang"},
		{"translation key", "en", "running-devhub", "en", ""},
		{"translation key with spaces", "en", "running devhub", "", "translationKey"},
		{"translation key upper case", "en", "Running", "", "translationKey"},
		{"translation key too long", "en", strings.Repeat("a", MaxSlugLen+1), "", "translationKey"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestService(t)
			in := article("Lang", "Go", "body")
			in.Lang, in.TranslationKey = tc.lang, tc.key
			a, err := s.Create(context.Background(), in)
			if tc.wantField != "" {
				if got := fieldOf(err); got != tc.wantField {
					t.Fatalf("error field = %q (%v), want %q", got, err, tc.wantField)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if a.Lang != tc.wantLang || a.TranslationKey != tc.key {
				t.Fatalf("lang %q key %q, want %q %q", a.Lang, a.TranslationKey, tc.wantLang, tc.key)
			}
			got, _ := s.Get(a.ID)
			if got.Lang != tc.wantLang {
				t.Fatalf("stored lang %q", got.Lang)
			}
		})
	}
}

func TestListPutsTheReadersLanguageFirst(t *testing.T) {
	s := newTestService(t)
	for _, a := range []struct{ name, lang string }{
		{"en old", "en"}, {"uk old", "uk"}, {"ru one", "ru"}, {"en new", "en"}, {"uk new", "uk"},
	} {
		in := article(a.name, "Go", "shared words "+a.name)
		in.Lang = a.lang
		mustCreate(t, s, in)
	}
	tests := []struct {
		name  string
		q     Query
		want  []string
		total int
	}{
		{"no language: newest first", Query{}, []string{"uk new", "en new", "ru one", "uk old", "en old"}, 5},
		{"uk first", Query{Lang: "uk"}, []string{"uk new", "uk old", "en new", "ru one", "en old"}, 5},
		{"en first, code case ignored", Query{Lang: "EN"}, []string{"en new", "en old", "uk new", "ru one", "uk old"}, 5},
		{"paging runs over the whole order", Query{Lang: "ru", Limit: 2, Page: 1}, []string{"ru one", "uk new"}, 5},
		{"page 2", Query{Lang: "ru", Limit: 2, Page: 2}, []string{"en new", "uk old"}, 5},
		{"a language no article has: newest first", Query{Lang: "de"}, []string{"uk new", "en new", "ru one", "uk old", "en old"}, 5},
		{"with a search, language before relevance", Query{Lang: "uk", Search: "new"}, []string{"uk new", "en new"}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := s.List(tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if got := names(p.Articles); strings.Join(got, "|") != strings.Join(tc.want, "|") || p.TotalCount != tc.total {
				t.Fatalf("got %v (%d), want %v (%d)", got, p.TotalCount, tc.want, tc.total)
			}
		})
	}
}

func TestTranslationsAreLinkedByKey(t *testing.T) {
	s := newTestService(t)
	ctx := context.Background()
	mk := func(name, lang, key string) *Article {
		in := article(name, "Go", "body")
		in.Lang, in.TranslationKey = lang, key
		return mustCreate(t, s, in)
	}
	en := mk("Running", "en", "running")
	uk := mk("Запуск", "uk", "running")
	ru := mk("Запуск ru", "ru", "running")
	other := mk("Other", "en", "")

	tests := []struct {
		name string
		a    *Article
		want []string // lang:slug
	}{
		{"en sees uk and ru, sorted by language", en, []string{"ru:запуск-ru", "uk:запуск"}},
		{"uk sees en and ru", uk, []string{"en:running", "ru:запуск-ru"}},
		{"no key: none", other, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := []string{}
			for _, tr := range s.Translations(tc.a, true) {
				got = append(got, tr.Lang+":"+tr.Slug)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}

	// Unlinking through an edit removes it from the others' lists.
	empty := ""
	if _, err := s.Update(ctx, ru.ID, Patch{TranslationKey: &empty}); err != nil {
		t.Fatal(err)
	}
	if got := s.Translations(en, true); len(got) != 1 || got[0].ID != uk.ID {
		t.Fatalf("after unlinking: %+v", got)
	}
	// Deleting one removes it too.
	if err := s.Delete(ctx, uk.ID); err != nil {
		t.Fatal(err)
	}
	if got := s.Translations(en, true); len(got) != 0 {
		t.Fatalf("after deleting: %+v", got)
	}
	// An edit of the language alone is a change.
	l := "de"
	a, err := s.Update(ctx, other.ID, Patch{Lang: &l})
	if err != nil || a.Lang != "de" || !a.UpdatedAt.After(other.UpdatedAt) {
		t.Fatalf("lang edit: %+v %v", a, err)
	}
	bad := "deutsch"
	if _, err := s.Update(ctx, other.ID, Patch{Lang: &bad}); fieldOf(err) != "lang" {
		t.Fatalf("bad lang edit: %v", err)
	}
}

// An article stored before articles had a language reads back in the
// default one, in the store and in the index.
func TestArticleWithoutStoredLangIsDefault(t *testing.T) {
	s := newTestService(t)
	a := mustCreate(t, s, article("Old", "Go", "body"))
	err := s.st.Update(func(tx *bolt.Tx) error {
		raw, _ := json.Marshal(map[string]any{"id": a.ID, "slug": a.Slug, "name": a.Name, "excerpt": a.Excerpt,
			"content": a.Content, "category": a.Category, "image_url": "", "createdAt": a.CreatedAt, "updatedAt": a.UpdatedAt})
		return tx.Bucket(bucketArticles).Put(store.Itob(a.ID), raw)
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(a.ID)
	if err != nil || got.Lang != DefaultLang {
		t.Fatalf("get: %+v %v", got, err)
	}
	again, err := New(s.st)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := again.List(Query{})
	if len(p.Articles) != 1 || p.Articles[0].Lang != DefaultLang {
		t.Fatalf("index: %+v", p.Articles)
	}
}

func TestContentFileLanguage(t *testing.T) {
	head := "---\nname: N\nexcerpt: E\ncategory: C\n"
	tests := []struct {
		name, header     string
		wantLang, wantTK string
		wantField        string
	}{
		{"no lang: default", "", DefaultLang, "", ""},
		{"lang", "lang: uk\n", "uk", "", ""},
		{"lang and translation key", "lang: ru\ntranslationKey: running\n", "ru", "running", ""},
		{"bad lang", "lang: Ukrainian\n", "", "", "lang"},
		{"bad key", "translationKey: Not A Slug\n", "", "", "translationKey"},
		{"a list is no language", "lang: [uk]\n", "", "", "lang"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in, _, err := ParseContentFile("x.md", []byte(head+tc.header+"---\nbody\n"))
			if tc.wantField != "" {
				fe, ok := err.(*FileError)
				if !ok || fe.Field != tc.wantField {
					t.Fatalf("err = %v, want field %q", err, tc.wantField)
				}
				return
			}
			if err != nil || in.Lang != tc.wantLang || in.TranslationKey != tc.wantTK {
				t.Fatalf("got %q %q %v", in.Lang, in.TranslationKey, err)
			}
		})
	}
}

func TestImportAndExportCarryLanguage(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "one.md", "---\nname: Один\nexcerpt: E\ncategory: C\nlang: uk\ntranslationKey: one\n---\nтекст\n")
	writeFile(t, dir, "one-en.md", "---\nname: One\nexcerpt: E\ncategory: C\ntranslationKey: one\n---\ntext\n")
	s := newTestService(t)
	ctx := context.Background()
	if _, err := s.Import(ctx, dir); err != nil {
		t.Fatal(err)
	}
	uk, err := s.GetBySlug("one")
	if err != nil || uk.Lang != "uk" || uk.TranslationKey != "one" {
		t.Fatalf("uk: %+v %v", uk, err)
	}
	if tr := s.Translations(uk, true); len(tr) != 1 || tr[0].Slug != "one-en" || tr[0].Lang != "en" {
		t.Fatalf("translations: %+v", tr)
	}
	// Changing only the language in the file updates the article.
	writeFile(t, dir, "one-en.md", "---\nname: One\nexcerpt: E\ncategory: C\nlang: de\ntranslationKey: one\n---\ntext\n")
	res, err := s.Import(ctx, dir)
	if err != nil || res.Updated != 1 || res.Unchanged != 1 {
		t.Fatalf("reimport: %+v %v", res, err)
	}
	out := t.TempDir()
	if _, err := s.Export(ctx, out); err != nil {
		t.Fatal(err)
	}
	raw := string(readFile(t, out, "one.md"))
	if !strings.Contains(raw, "\nlang: uk\n") || !strings.Contains(raw, "\ntranslationKey: one\n") {
		t.Fatalf("export:\n%s", raw)
	}
	// and the export imports back unchanged
	s2 := newTestService(t)
	if _, err := s2.Import(ctx, out); err != nil {
		t.Fatal(err)
	}
	res, err = s2.Import(ctx, out)
	if err != nil || res.Unchanged != 2 {
		t.Fatalf("round trip: %+v %v", res, err)
	}
	de, _ := s2.GetBySlug("one-en")
	if de.Lang != "de" {
		t.Fatalf("round trip lang %q", de.Lang)
	}
}

func readFile(t testing.TB, dir, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
