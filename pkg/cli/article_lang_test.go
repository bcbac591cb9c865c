package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/blog"
)

// TestArticleLanguageFlags: --lang and --translation-key on create and edit,
// the language in the list, translations in show --json, the front matter
// lang of an import, and every bad value refused.
func TestArticleLanguageFlags(t *testing.T) {
	newTestInstance(t)
	cwd := t.TempDir()
	writeTestFile(t, filepath.Join(cwd, "body.md"), "Text\n")
	create := func(args ...string) []string {
		return append([]string{"article", "create", "--excerpt", "e", "--category", "c", "--file", "body.md", "--json"}, args...)
	}
	tests := []struct {
		name     string
		args     []string
		wantLang string
		wantKey  string
		wantErr  string
	}{
		{"default language", create("--name", "Run"), "en", "", ""},
		{"ukrainian, linked", create("--name", "Запуск", "--lang", "uk", "--translation-key", "run"), "uk", "run", ""},
		{"english, linked", create("--name", "Run again", "--lang", "EN", "--translation-key", "run"), "en", "run", ""},
		{"not a language", create("--name", "X", "--lang", "ukrainian"), "", "", "lang: lang must be a language code"},
		{"bad key", create("--name", "Y", "--translation-key", "A B"), "", "", "translationKey:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := articleCLI(t, cwd, "", tc.args...)
			if tc.wantErr != "" {
				if code == 0 || !strings.Contains(stderr, tc.wantErr) {
					t.Fatalf("exit %d stderr %q, want %q", code, stderr, tc.wantErr)
				}
				return
			}
			var a blog.Article
			if code != 0 || json.Unmarshal([]byte(out), &a) != nil || a.Lang != tc.wantLang || a.TranslationKey != tc.wantKey {
				t.Fatalf("exit %d out %q err %q", code, out, stderr)
			}
		})
	}
	if arts := listArticles(t, cwd); len(arts) != 3 || arts[1].Lang != "uk" {
		t.Fatalf("list = %+v", arts)
	}
	out, _, _ := articleCLI(t, cwd, "", "article", "list")
	if !strings.Contains(out, "LANG") || !strings.Contains(out, " uk ") {
		t.Fatalf("list table: %q", out)
	}
	out, _, code := articleCLI(t, cwd, "", "article", "show", "2", "--json")
	if code != 0 || !strings.Contains(out, `"lang": "uk"`) || !strings.Contains(out, `"translations": [`) || !strings.Contains(out, `"slug": "run-again"`) {
		t.Fatalf("show --json: %s", out)
	}
	out, _, _ = articleCLI(t, cwd, "", "article", "show", "2")
	if !strings.Contains(out, "\nlang: uk\n") || !strings.Contains(out, "\ntranslationKey: run\n") {
		t.Fatalf("show: %s", out)
	}

	// edit: change the language, unlink; a bad language is refused
	out, stderr, code := articleCLI(t, cwd, "", "article", "edit", "3", "--lang", "ru", "--translation-key", "", "--json")
	var edited blog.Article
	if code != 0 || json.Unmarshal([]byte(out), &edited) != nil || edited.Lang != "ru" || edited.TranslationKey != "" {
		t.Fatalf("edit: exit %d out %q err %q", code, out, stderr)
	}
	if _, stderr, code := articleCLI(t, cwd, "", "article", "edit", "3", "--lang", "r"); code == 0 || !strings.Contains(stderr, "lang:") {
		t.Fatalf("bad edit: exit %d %q", code, stderr)
	}

	// import reads the front matter's lang and translationKey
	writeTestFile(t, filepath.Join(cwd, "content", "hallo.md"), "---\nname: Hallo\nexcerpt: e\ncategory: c\nlang: de\ntranslationKey: run\n---\nText\n")
	if _, stderr, code := articleCLI(t, cwd, "", "article", "import", "content"); code != 0 {
		t.Fatalf("import: %s", stderr)
	}
	var de *blog.Summary
	for _, a := range listArticles(t, cwd) {
		if a.Slug == "hallo" {
			de = &a
		}
	}
	if de == nil || de.Lang != "de" || de.TranslationKey != "run" {
		t.Fatalf("imported: %+v", de)
	}
	writeTestFile(t, filepath.Join(cwd, "bad", "x.md"), "---\nname: X\nexcerpt: e\ncategory: c\nlang: German\n---\nText\n")
	if _, stderr, code := articleCLI(t, cwd, "", "article", "import", "bad"); code == 0 || !strings.Contains(stderr, `field "lang"`) {
		t.Fatalf("bad import: exit %d %q", code, stderr)
	}
}
