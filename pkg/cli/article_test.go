package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/blog"
)

// articleCLI runs one command line from the working directory cwd with the
// given stdin, like a shell would, and returns stdout, stderr and the exit code.
func articleCLI(t *testing.T, cwd, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{
		In: strings.NewReader(stdin), Out: &out, Err: &errb, Cwd: cwd,
		log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	code := run(context.Background(), env, args)
	return out.String(), errb.String(), code
}

func writeTestFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func listArticles(t *testing.T, cwd string, args ...string) []blog.Summary {
	t.Helper()
	out, stderr, code := articleCLI(t, cwd, "", append([]string{"article", "list", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("list: exit %d: %s", code, stderr)
	}
	var arts []blog.Summary
	if err := json.Unmarshal([]byte(out), &arts); err != nil {
		t.Fatalf("list --json: %v\n%s", err, out)
	}
	return arts
}

func TestArticleCreateListShowEditRm(t *testing.T) {
	newTestInstance(t)
	cwd := t.TempDir()
	writeTestFile(t, filepath.Join(cwd, "posts", "hello.md"), "# Привіт\n\nSome `code` and <script>alert(1)</script>\n")

	out, stderr, code := articleCLI(t, cwd, "", "article", "create", "--name", "Привіт, світ", "--excerpt", "Перша стаття",
		"--category", "Новини", "--file", "posts/hello.md")
	if code != 0 || out != "created article 1 (привіт-світ)\n" {
		t.Fatalf("create from file: exit %d out %q err %q", code, out, stderr)
	}
	out, stderr, code = articleCLI(t, cwd, "## From stdin\n", "article", "create", "--name", "Second", "--excerpt", "e",
		"--category", "Go", "--image", "https://example.com/a.png", "--file", "-", "--json")
	var second blog.Article
	if code != 0 || json.Unmarshal([]byte(out), &second) != nil || second.Content != "## From stdin" || second.ImageURL != "https://example.com/a.png" {
		t.Fatalf("create from stdin: exit %d out %q err %q", code, out, stderr)
	}

	if arts := listArticles(t, cwd); len(arts) != 2 || arts[0].Name != "Second" || arts[1].Name != "Привіт, світ" {
		t.Fatalf("list = %+v", arts)
	}
	if arts := listArticles(t, cwd, "--search", "ПРИВІТ"); len(arts) != 1 || arts[0].ID != 1 {
		t.Fatalf("list --search = %+v", arts)
	}
	if arts := listArticles(t, cwd, "--category", "go"); len(arts) != 1 || arts[0].ID != 2 {
		t.Fatalf("list --category = %+v", arts)
	}
	out, _, code = articleCLI(t, cwd, "", "article", "list")
	if code != 0 || !strings.Contains(out, "ID") || !strings.Contains(out, "привіт-світ") || !strings.Contains(out, "Second") {
		t.Fatalf("list table: %q", out)
	}

	out, _, code = articleCLI(t, cwd, "", "article", "show", "1")
	if code != 0 || !strings.HasPrefix(out, "---\nname: Привіт, світ\n") || !strings.Contains(out, "slug: привіт-світ") || !strings.Contains(out, "\n---\n# Привіт\n") {
		t.Fatalf("show: %q", out)
	}
	out, _, code = articleCLI(t, cwd, "", "article", "show", "1", "--html")
	if code != 0 || !strings.Contains(out, `<h1 id=`) || !strings.Contains(out, "<code>code</code>") || strings.Contains(out, "<script") {
		t.Fatalf("show --html: %q", out)
	}
	out, _, code = articleCLI(t, cwd, "", "article", "show", "2", "--json")
	if code != 0 || !strings.Contains(out, `"content_html"`) || !strings.Contains(out, `"content": "## From stdin"`) {
		t.Fatalf("show --json: %q", out)
	}

	writeTestFile(t, filepath.Join(cwd, "new.md"), "Rewritten body\n")
	out, stderr, code = articleCLI(t, cwd, "", "article", "edit", "2", "--category", "Guides", "--image", "", "--file", "new.md")
	if code != 0 || out != "updated article 2 (second)\n" {
		t.Fatalf("edit: exit %d out %q err %q", code, out, stderr)
	}
	out, _, _ = articleCLI(t, cwd, "", "article", "show", "2", "--json")
	var edited blog.Article
	json.Unmarshal([]byte(out), &edited)
	if edited.Category != "Guides" || edited.ImageURL != "" || edited.Content != "Rewritten body" || edited.Name != "Second" {
		t.Fatalf("edited = %+v", edited)
	}

	out, stderr, code = articleCLI(t, cwd, "", "article", "rm", "1")
	if code != 0 || out != "deleted article 1\n" {
		t.Fatalf("rm: exit %d out %q err %q", code, out, stderr)
	}
	if arts := listArticles(t, cwd); len(arts) != 1 || arts[0].ID != 2 {
		t.Fatalf("after rm: %+v", arts)
	}
}

func TestArticleErrors(t *testing.T) {
	newTestInstance(t)
	cwd := t.TempDir()
	writeTestFile(t, filepath.Join(cwd, "body.md"), "body")
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  string // in stderr
	}{
		{"missing required flags", "", []string{"article", "create", "--name", "x", "--file", "body.md"}, `required flag(s) "category", "excerpt" not set`},
		{"missing file", "", []string{"article", "create", "--name", "x", "--excerpt", "e", "--category", "c", "--file", "nope.md"}, "nope.md"},
		{"empty stdin body", "  \n", []string{"article", "create", "--name", "x", "--excerpt", "e", "--category", "c", "--file", "-"}, "content: content is required"},
		{"bad image", "", []string{"article", "create", "--name", "x", "--excerpt", "e", "--category", "c", "--file", "body.md", "--image", "javascript:alert(1)"}, "image_url:"},
		{"blank name", "", []string{"article", "create", "--name", " ", "--excerpt", "e", "--category", "c", "--file", "body.md"}, "name: name is required"},
		{"show unknown", "", []string{"article", "show", "42"}, "no article with id 42"},
		{"show non-numeric", "", []string{"article", "show", "abc"}, `"abc" is not an article id`},
		{"rm unknown", "", []string{"article", "rm", "42"}, "no article with id 42"},
		{"edit unknown", "", []string{"article", "edit", "42", "--name", "x"}, "no article with id 42"},
		{"edit nothing", "", []string{"article", "edit", "1"}, "nothing to change"},
		{"show needs an id", "", []string{"article", "show"}, "accepts 1 arg"},
		{"import missing dir", "", []string{"article", "import", "no-such-dir"}, "no-such-dir"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := articleCLI(t, cwd, tt.stdin, tt.args...)
			if code == 0 || !strings.Contains(stderr, tt.want) {
				t.Fatalf("exit %d, stderr %q; want non-zero and %q", code, stderr, tt.want)
			}
		})
	}
	if arts := listArticles(t, cwd); len(arts) != 0 {
		t.Fatalf("failed commands stored %d articles", len(arts))
	}
}

func TestArticleImportExport(t *testing.T) {
	newTestInstance(t)
	cwd := t.TempDir()
	writeTestFile(t, filepath.Join(cwd, "content", "run.md"), "---\nname: Run\nexcerpt: How to run\ncategory: Guides\ndate: 2025-03-01\n---\n# Run\n\n```sh\nmake run\n```\n")
	writeTestFile(t, filepath.Join(cwd, "content", "cli.md"), "---\nname: CLI\nexcerpt: Owner socket\ncategory: Guides\nslug: the-cli\nimage: /images/cli.svg\n---\nText\n")

	out, stderr, code := articleCLI(t, cwd, "", "article", "import", "content")
	if code != 0 || out != "imported content: 2 created, 0 updated, 0 unchanged\n" {
		t.Fatalf("import: exit %d out %q err %q", code, out, stderr)
	}
	out, _, code = articleCLI(t, cwd, "", "article", "import", "content", "--json")
	if code != 0 || !strings.Contains(out, `"unchanged": 2`) {
		t.Fatalf("second import: %q", out)
	}

	// A bad file: the error names it and the field; nothing is imported.
	writeTestFile(t, filepath.Join(cwd, "content", "zz-bad.md"), "---\nname: Bad\ncategory: x\n---\nbody\n")
	writeTestFile(t, filepath.Join(cwd, "content", "new.md"), "---\nname: New\nexcerpt: e\ncategory: x\n---\nbody\n")
	_, stderr, code = articleCLI(t, cwd, "", "article", "import", "content")
	if code == 0 || !strings.Contains(stderr, `content/zz-bad.md: field "excerpt": excerpt is required`) {
		t.Fatalf("bad import: exit %d stderr %q", code, stderr)
	}
	if arts := listArticles(t, cwd); len(arts) != 2 {
		t.Fatalf("bad import half-applied: %d articles", len(arts))
	}
	os.Remove(filepath.Join(cwd, "content", "zz-bad.md"))
	os.Remove(filepath.Join(cwd, "content", "new.md"))

	out, stderr, code = articleCLI(t, cwd, "", "article", "export", "out")
	if code != 0 || out != "exported 2 articles to out\n" {
		t.Fatalf("export: exit %d out %q err %q", code, out, stderr)
	}
	exported, _ := os.ReadFile(filepath.Join(cwd, "out", "the-cli.md"))
	if !strings.Contains(string(exported), "image: /images/cli.svg") || !strings.HasSuffix(string(exported), "---\nText\n") {
		t.Fatalf("exported file:\n%s", exported)
	}
	// Export → import into a fresh instance → export again: identical files.
	newTestInstance(t)
	if _, stderr, code := articleCLI(t, cwd, "", "article", "import", "out"); code != 0 {
		t.Fatalf("import export: %s", stderr)
	}
	if _, stderr, code := articleCLI(t, cwd, "", "article", "export", "out2"); code != 0 {
		t.Fatalf("export again: %s", stderr)
	}
	for _, name := range []string{"run.md", "the-cli.md"} {
		a, _ := os.ReadFile(filepath.Join(cwd, "out", name))
		b, _ := os.ReadFile(filepath.Join(cwd, "out2", name))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Fatalf("%s differs after round trip:\n%s\n---\n%s", name, a, b)
		}
	}
}

// While a server runs, article commands execute inside it over the owner
// socket: stdin and relative paths come from the caller, and the server's
// own index sees the change at once.
func TestArticleThroughRunningServer(t *testing.T) {
	newTestInstance(t)
	_, svc, _ := runningServer(t)

	cwd := t.TempDir()
	out, stderr, code := articleCLI(t, cwd, "# Через сокет\n", "article", "create", "--name", "Socket", "--excerpt", "e", "--category", "CLI", "--file", "-")
	if code != 0 || out != "created article 1 (socket)\n" {
		t.Fatalf("create via socket: exit %d out %q err %q", code, out, stderr)
	}
	page, err := svc.Blog.List(blog.Query{Search: "СОКЕТ"})
	if err != nil || page.TotalCount != 1 {
		t.Fatalf("server index after socket create: %+v %v", page, err)
	}
	writeTestFile(t, filepath.Join(cwd, "content", "a.md"), "---\nname: A\nexcerpt: e\ncategory: c\n---\nbody\n")
	if out, stderr, code := articleCLI(t, cwd, "", "article", "import", "content"); code != 0 || !strings.Contains(out, "1 created") {
		t.Fatalf("import via socket: %q %q", out, stderr)
	}
	if arts := listArticles(t, cwd); len(arts) != 2 {
		t.Fatalf("list via socket: %+v", arts)
	}
	if _, _, code := articleCLI(t, cwd, "", "article", "rm", "1"); code != 0 || svc.Blog.Count() != 1 {
		t.Fatalf("rm via socket: exit %d, count %d", code, svc.Blog.Count())
	}
}

// serve's startup imports content/ into a store without articles, once.
func TestServeSeedsContentOnce(t *testing.T) {
	dir := t.TempDir()
	newTestInstance(t)
	content := filepath.Join(dir, "content")
	t.Setenv("DEVHUB_STORAGE_CONTENT_DIR", content)
	writeTestFile(t, filepath.Join(content, "a.md"), "---\nname: A\nexcerpt: e\ncategory: c\n---\nbody\n")
	writeTestFile(t, filepath.Join(content, "b.md"), "---\nname: B\nexcerpt: e\ncategory: c\n---\nbody\n")
	cfg, err := loadConfig("", nil)
	if err != nil {
		t.Fatal(err)
	}
	start := func() *services {
		svc := openServices(t, cfg)
		svc.seedBlog(context.Background())
		return svc
	}
	svc := start()
	if svc.Blog.Count() != 2 {
		t.Fatalf("first start imported %d articles", svc.Blog.Count())
	}
	svc.Blog.Delete(context.Background(), 1)
	svc.Blog.Delete(context.Background(), 2)
	svc.Close()
	svc = start()
	defer svc.Close()
	if svc.Blog.Count() != 0 {
		t.Fatalf("deleted articles came back: %d", svc.Blog.Count())
	}
}
