package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/blog"
)

func TestArticleStatusFlags(t *testing.T) {
	newTestInstance(t)
	cwd := t.TempDir()
	runCLICases(t, cwd, "# body\n", []cliCase{
		{"draft", articleCreateArgs("--status", "draft"), 0, []string{`"status": "draft"`, `"version": 1`}, ""},
		{"publish-at implies scheduled", articleCreateArgs("--publish-at", "2099-05-06T07:08:09Z"), 0,
			[]string{`"status": "scheduled"`, `"publishAt": "2099-05-06T07:08:09Z"`}, ""},
		{"default published", articleCreateArgs(), 0, []string{`"status": "published"`, `"publishAt": null`}, ""},
		{"bad status", articleCreateArgs("--status", "secret"), 1, nil, "status"},
		{"bad publish-at", articleCreateArgs("--publish-at", "next week"), 1, nil, "--publish-at"},
		{"scheduled without a time", articleCreateArgs("--status", "scheduled"), 1, nil, "publishAt"},
		{"edit to draft", []string{"article", "edit", "3", "--status", "draft", "--json"}, 0, []string{`"status": "draft"`, `"version": 2`}, ""},
		{"edit schedule", []string{"article", "edit", "3", "--publish-at", "2099-01-01T00:00:00+02:00", "--json"}, 0,
			[]string{`"status": "scheduled"`, `"publishAt": "2098-12-31T22:00:00Z"`}, ""},
		{"edit bad publish-at", []string{"article", "edit", "3", "--publish-at", "2099-13-01"}, 1, nil, "RFC 3339"},
		{"edit bad status", []string{"article", "edit", "3", "--status", "gone"}, 1, nil, "status"},
		{"edit unknown", []string{"article", "edit", "99", "--status", "draft"}, 1, nil, "no article with id 99"},
	})
	// The owner's list shows every article with its status (the third was
	// published, then made a draft, then scheduled); a refused
	// command wrote nothing.
	arts := listArticles(t, cwd)
	if len(arts) != 3 {
		t.Fatalf("%d articles, want 3", len(arts))
	}
	statuses := map[string]int{}
	for _, a := range arts {
		statuses[a.Status]++
	}
	if statuses[blog.StatusDraft] != 1 || statuses[blog.StatusScheduled] != 2 {
		t.Fatalf("statuses %v", statuses)
	}
	// The edits were audited as the owner's.
	out, _, code := articleCLI(t, cwd, "", "audit", "list", "--json")
	if code != 0 {
		t.Fatalf("audit list: %d %s", code, out)
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e struct{ Type, Actor string }
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		seen[e.Type+" "+e.Actor] = true
	}
	if !seen["article.created owner (CLI)"] || !seen["article.edited owner (CLI)"] {
		t.Fatalf("audit events %v", seen)
	}
}
