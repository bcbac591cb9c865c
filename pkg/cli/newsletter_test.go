package cli

import (
	"context"
	"strings"
	"testing"
)

func TestArticleNewsletterFlagsAndNewsletterCount(t *testing.T) {
	newTestInstance(t)
	cwd := t.TempDir()
	runCLICases(t, cwd, "# body\n", []cliCase{
		{"mailed by default", articleCreateArgs(), 0, []string{`"newsletter": true`}, ""},
		{"--no-newsletter", articleCreateArgs("--no-newsletter"), 0, []string{`"newsletter": false`}, ""},
		{"edit: switch on", []string{"article", "edit", "2", "--newsletter", "--json"}, 0, []string{`"newsletter": true`}, ""},
		{"edit: switch off", []string{"article", "edit", "2", "--no-newsletter", "--json"}, 0, []string{`"newsletter": false`}, ""},
		{"edit: both", []string{"article", "edit", "2", "--newsletter", "--no-newsletter"}, 1, nil, "one of --newsletter and --no-newsletter"},
		{"count: none yet", []string{"newsletter", "count"}, 0, []string{"0 confirmed, 0 awaiting confirmation"}, ""},
		{"count as JSON", []string{"newsletter", "count", "--json"}, 0, []string{`"confirmed": 0`, `"pending": 0`}, ""},
		{"list: none yet", []string{"newsletter", "list"}, 0, []string{"no subscribers"}, ""},
	})
	// A subscriber made through the use-case shows in the list and the count.
	_, svc := openInstance(t)
	if _, err := svc.Newsletter.Subscribe(context.Background(), "ann@example.org", "ru"); err != nil {
		t.Fatal(err)
	}
	svc.Close()
	out, _, _ := articleCLI(t, cwd, "", "newsletter", "list")
	if !strings.Contains(out, "ann@example.org") || !strings.Contains(out, "awaiting confirmation") {
		t.Fatalf("list:\n%s", out)
	}
}
