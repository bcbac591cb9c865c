package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// The articles shipped in content/ are documentation of devhub itself. These
// tests keep them true to the code: they import cleanly, every devhub
// command and flag they show exists, every repository path they name is
// there, and the import error they quote is the one devhub prints.

const shippedContent = "../../content"

// articleBodies returns each shipped article's Markdown body (after the
// front matter), by file name.
func articleBodies(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(shippedContent, "*.md"))
	if err != nil || len(files) < 3 {
		t.Fatalf("content/ holds %d articles (%v), want at least 3", len(files), err)
	}
	out := map[string]string{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		parts := strings.SplitN(string(raw), "\n---\n", 2)
		if len(parts) != 2 {
			t.Fatalf("%s: no front matter", f)
		}
		out[filepath.Base(f)] = parts[1]
	}
	return out
}

var (
	fenceRe  = regexp.MustCompile("(?s)```[a-z]*\n(.*?)```")
	inlineRe = regexp.MustCompile("`([^`\n]+)`")
)

// codeOf returns the fenced blocks and inline code spans of a Markdown body,
// with shell line continuations joined.
func codeOf(body string) []string {
	var out []string
	for _, m := range fenceRe.FindAllStringSubmatch(body, -1) {
		out = append(out, strings.Split(strings.ReplaceAll(m[1], "\\\n", " "), "\n")...)
	}
	for _, m := range inlineRe.FindAllStringSubmatch(fenceRe.ReplaceAllString(body, ""), -1) {
		out = append(out, m[1])
	}
	return out
}

func TestShippedContentImports(t *testing.T) {
	newTestInstance(t)
	abs, _ := filepath.Abs(shippedContent)
	out, stderr, code := articleCLI(t, t.TempDir(), "", "article", "import", abs)
	if code != 0 {
		t.Fatalf("import content/: exit %d: %s", code, stderr)
	}
	arts := listArticles(t, t.TempDir())
	if len(arts) != len(articleBodies(t)) {
		t.Fatalf("%s: %d articles listed", out, len(arts))
	}
	for _, a := range arts {
		if a.ImageURL == "" {
			t.Errorf("%s has no cover image", a.Slug)
		}
	}
}

// devhubCallRe finds a devhub command line in code: `devhub …`, `bin/devhub …`.
var devhubCallRe = regexp.MustCompile(`(?:^|[\s|$(])(?:\./)?(?:bin/)?devhub((?: +[^\s#;&>]+)+)`)

// checkDevhubLine resolves every devhub command line in one line of code
// against the real command tree: subcommands must exist, and so must every
// --flag, on the command it is given to. Synopsis lines list alternatives
// with " | " (devhub user list | rm EMAIL). It returns the problems and how
// many command lines it checked.
func checkDevhubLine(root *cobra.Command, line string) (problems []string, calls int) {
	sub := func(c *cobra.Command, name string) *cobra.Command {
		for _, s := range c.Commands() {
			if s.Name() == name || s.HasAlias(name) {
				return s
			}
		}
		return nil
	}
	for _, m := range devhubCallRe.FindAllStringSubmatch(line, -1) {
		tokens := strings.Fields(m[1])
		cmd, i := root, 0
		for i < len(tokens) && sub(cmd, tokens[i]) != nil {
			cmd = sub(cmd, tokens[i])
			i++
		}
		if cmd == root {
			problems = append(problems, fmt.Sprintf("%q is not a devhub command", tokens[0]))
			continue
		}
		calls++
		group := cmd.Parent()
		for ; i < len(tokens); i++ {
			tok := tokens[i]
			if tok == "|" {
				if i+1 < len(tokens) && sub(group, tokens[i+1]) != nil {
					cmd = sub(group, tokens[i+1])
					for i += 2; i < len(tokens) && sub(cmd, tokens[i]) != nil; i++ {
						cmd = sub(cmd, tokens[i])
					}
					i--
					continue
				}
				break // a shell pipe into another program
			}
			for _, alt := range strings.Split(strings.Trim(tok, "[]"), "|") {
				name, _, _ := strings.Cut(alt, "=")
				switch {
				case strings.HasPrefix(name, "--"):
					if cmd.Flag(strings.TrimPrefix(name, "--")) == nil {
						problems = append(problems, fmt.Sprintf("`%s` has no flag %s", cmd.CommandPath(), name))
					}
				case len(name) == 2 && name[0] == '-' && name[1] != '-':
					if cmd.Flags().ShorthandLookup(name[1:]) == nil {
						problems = append(problems, fmt.Sprintf("`%s` has no flag %s", cmd.CommandPath(), name))
					}
				}
			}
		}
	}
	return problems, calls
}

// The checker itself: it accepts real lines and catches wrong ones.
func TestCheckDevhubLine(t *testing.T) {
	root := NewRootCmd(&Env{}, nil)
	tests := []struct {
		line     string
		problems int
	}{
		{"devhub article show 3 --html > a.html", 0},
		{"bin/devhub serve --addr 127.0.0.1:9000", 0},
		{"devhub user list [--json] | set-role EMAIL admin|user | passwd EMAIL [--password-stdin] | rm EMAIL", 0},
		{"devhub user sessions list EMAIL | sessions revoke EMAIL", 0},
		{"devhub file get 12 -o talk.mp4", 0},
		{"git log | devhub article create --name N --excerpt E --category C --file -", 0},
		{"devhub article list --json | jq .", 0},
		{"devhub article show 3 --pdf", 1},
		{"devhub article list | show ID [--html|--markdown]", 1},
		{"devhub user list | passwd EMAIL --stdin", 1},
		{"devhub file get 12 -x", 1},
		{"devhub articles list", 1},
		{"devhub rom add f.nes --console nes --image c.png --cover c.png", 1},
	}
	for _, tt := range tests {
		if problems, _ := checkDevhubLine(root, tt.line); len(problems) != tt.problems {
			t.Errorf("%q: problems %v, want %d", tt.line, problems, tt.problems)
		}
	}
}

// TestShippedContentCommands: every devhub command line in the articles'
// code resolves, with its flags, in the real command tree.
func TestShippedContentCommands(t *testing.T) {
	root := NewRootCmd(&Env{}, nil)
	seen := 0
	for file, body := range articleBodies(t) {
		for _, line := range codeOf(body) {
			problems, calls := checkDevhubLine(root, line)
			seen += calls
			for _, p := range problems {
				t.Errorf("%s: %q: %s", file, line, p)
			}
		}
	}
	if seen < 20 {
		t.Fatalf("found only %d devhub command lines in content/; is the parser still right?", seen)
	}
}

// repoPathRe matches a path into the repository as the articles write it.
var repoPathRe = regexp.MustCompile(`^(?:\./)?((?:\.ci|cmd|pkg|site|roms|docs|content|scripts|build)/[A-Za-z0-9_./-]*)$`)

// TestShippedContentPaths: every repository path an article names in code
// (scripts, commands, folders) exists; generated folders are exempt.
func TestShippedContentPaths(t *testing.T) {
	generated := []string{"site/node_modules", "site/dist", "build"}
	seen := 0
	for file, body := range articleBodies(t) {
		for _, code := range codeOf(body) {
			if strings.HasPrefix(code, "Error: ") {
				continue // quoted output, not a path to check
			}
			for _, tok := range strings.Fields(code) {
				m := repoPathRe.FindStringSubmatch(strings.TrimRight(tok, ".,;:)"))
				if m == nil {
					continue
				}
				p := strings.TrimSuffix(m[1], "/")
				if strings.ContainsAny(p, "<>") || isUnder(p, generated) {
					continue
				}
				seen++
				if _, err := os.Stat(filepath.Join("..", "..", p)); err != nil {
					t.Errorf("%s names %s, which is not in the repository", file, p)
				}
			}
		}
	}
	if seen < 3 {
		t.Fatalf("found only %d repository paths in content/", seen)
	}
}

func isUnder(p string, dirs []string) bool {
	for _, d := range dirs {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// TestShippedContentImportError: the import error the CLI article quotes
// is, word for word, what devhub prints for that mistake.
func TestShippedContentImportError(t *testing.T) {
	body := articleBodies(t)["the-cli-and-owner-socket.md"]
	_, quoted, ok := strings.Cut(body, "$ devhub article import content\n")
	if !ok {
		t.Fatal("the CLI article no longer quotes an import error")
	}
	quoted, _, _ = strings.Cut(quoted, "\n")
	newTestInstance(t)
	cwd := t.TempDir()
	writeTestFile(t, filepath.Join(cwd, "content", "release-notes.md"),
		"---\nname: Release notes\nexcerpt: What changed: everything\ncategory: News\n---\nBody\n")
	_, stderr, code := articleCLI(t, cwd, "", "article", "import", "content")
	if code == 0 || strings.TrimSpace(stderr) != quoted {
		t.Fatalf("exit %d, stderr\n%s\nthe article quotes\n%s", code, stderr, quoted)
	}
	if arts := listArticles(t, cwd); len(arts) != 0 {
		t.Fatalf("a failed import stored %d articles", len(arts))
	}
}
