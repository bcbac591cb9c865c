package cli

import (
	"context"
	"strings"
	"testing"
)

func TestArticleNewsletterFlagsAndNewsletterCount(t *testing.T) {
	newTestInstance(t)
	cwd := t.TempDir()
	create := func(extra ...string) []string {
		return append([]string{"article", "create", "--name", "N", "--excerpt", "E", "--category", "C", "--file", "-", "--json"}, extra...)
	}
	tests := []struct {
		name       string
		args       []string
		code       int
		wantOut    []string
		wantStderr string
	}{
		{"mailed by default", create(), 0, []string{`"newsletter": true`}, ""},
		{"--no-newsletter", create("--no-newsletter"), 0, []string{`"newsletter": false`}, ""},
		{"edit: switch on", []string{"article", "edit", "2", "--newsletter", "--json"}, 0, []string{`"newsletter": true`}, ""},
		{"edit: switch off", []string{"article", "edit", "2", "--no-newsletter", "--json"}, 0, []string{`"newsletter": false`}, ""},
		{"edit: both", []string{"article", "edit", "2", "--newsletter", "--no-newsletter"}, 1, nil, "one of --newsletter and --no-newsletter"},
		{"count: none yet", []string{"newsletter", "count"}, 0, []string{"0 confirmed, 0 awaiting confirmation"}, ""},
		{"count as JSON", []string{"newsletter", "count", "--json"}, 0, []string{`"confirmed": 0`, `"pending": 0`}, ""},
		{"list: none yet", []string{"newsletter", "list"}, 0, []string{"no subscribers"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := articleCLI(t, cwd, "# body\n", tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s %s", code, tc.code, out, stderr)
			}
			for _, w := range tc.wantOut {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if !strings.Contains(stderr, tc.wantStderr) {
				t.Errorf("stderr lacks %q: %s", tc.wantStderr, stderr)
			}
		})
	}
	// A subscriber made through the use-case shows in the list and the count.
	cfg, err := loadConfig("", nil)
	if err != nil {
		t.Fatal(err)
	}
	svc := openServices(t, cfg)
	if _, err := svc.Newsletter.Subscribe(context.Background(), "ann@example.org", "ru"); err != nil {
		t.Fatal(err)
	}
	svc.Close()
	out, _, _ := articleCLI(t, cwd, "", "newsletter", "list")
	if !strings.Contains(out, "ann@example.org") || !strings.Contains(out, "awaiting confirmation") {
		t.Fatalf("list:\n%s", out)
	}
}
