package blog

import (
	"bytes"
	"strings"
	"testing"
)

func TestRenderMarkdownFeatures(t *testing.T) {
	tests := []struct {
		name string
		md   string
		want []string
	}{
		{"heading id", "# Hello World", []string{`<h1 id="hello-world">Hello World</h1>`}},
		{"table", "| a | b |\n|---|---|\n| 1 | 2 |", []string{"<table>", "<td>1</td>"}},
		{"strikethrough", "~~gone~~", []string{"<del>gone</del>"}},
		{"task list", "- [x] done\n- [ ] todo", []string{`<input checked="" disabled="" type="checkbox"`}},
		{"autolink", "see https://example.com/x", []string{`<a href="https://example.com/x">https://example.com/x</a>`}},
		{"highlighted code uses classes", "```go\nfunc main() {}\n```", []string{`<pre class="chroma">`, `<span class="kd">func</span>`}},
		{"unknown language is escaped", "```\"><script>\n<b>x</b>\n```", []string{"&lt;b&gt;x&lt;/b&gt;"}},
		{"relative link kept", "[docs](/blog/2)", []string{`<a href="/blog/2">docs</a>`}},
		{"mailto kept", "[mail](mailto:me@example.com)", []string{`href="mailto:me@example.com"`}},
		{"data png image kept", "![p](data:image/png;base64,iVBORw0KGgo=)", []string{`<img src="data:image/png;base64,iVBORw0KGgo=" alt="p">`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			html, err := RenderMarkdown(tt.md)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(html, w) {
					t.Errorf("output lacks %q:\n%s", w, html)
				}
			}
			if strings.Contains(html, "style=") {
				t.Errorf("inline style in output:\n%s", html)
			}
		})
	}
}

// xssCorpus is text that tries to run script through Markdown: every
// renderer of text from outside (articles, visitors' comments and posts)
// must turn each into HTML without it, keeping the visible text.
var xssCorpus = []struct {
	name     string
	md       string
	keepText string // the visible text that must survive, if any
}{
	{"script block", "<script>alert(1)</script>", ""},
	{"inline script", "hello <script>alert(1)</script> world", "hello"},
	{"img onerror", `<img src=x onerror="alert(1)">`, ""},
	{"inline img onerror", `text <img src=x onerror=alert(1)> more`, "more"},
	{"iframe", `<iframe src="javascript:alert(1)"></iframe>`, ""},
	{"javascript link", "[x](javascript:alert(1))", "x"},
	{"mixed case scheme", "[x](JaVaScRiPt:alert(1))", "x"},
	{"leading spaces", "[x]( javascript:alert(1))", "x"},
	{"angle destination with spaces", "[x](<  javascript:alert(1)>)", "x"},
	{"entity encoded", "[x](&#106;avascript:alert(1))", "x"},
	{"entity tab inside scheme", "[x](java&#9;script:alert(1))", "x"},
	{"entity newline inside scheme", "[x](java&#10;script:alert(1))", "x"},
	{"leading control char", "[x](&#1;javascript:alert(1))", "x"},
	{"vbscript", "[x](VBScript:msgbox(1))", "x"},
	{"data html link", "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)", "x"},
	{"data svg image", "![alt](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)", "alt"},
	{"javascript image", "![pic](javascript:alert(1))", "pic"},
	{"reference link", "[x][r]\n\n[r]: javascript:alert(1)", "x"},
	{"autolink javascript", "<javascript:alert(1)>", "javascript:alert(1)"},
	{"autolink JAVASCRIPT", "<JAVASCRIPT:alert(1)>", "JAVASCRIPT:alert(1)"},
	{"file scheme", "[x](file:///etc/passwd)", "x"},
	{"link title quote", `[x](/a "t\" onmouseover=\"alert(1)")`, "x"},
	{"html comment breakout", "<!-- --><script>alert(1)</script> -->", ""},
	{"nested link text kept", "[**bold** text](javascript:alert(1))", "bold"},
}

// TestRenderMarkdownXSS: whatever an article says, the HTML holds no
// element or attribute that could run script.
func TestRenderMarkdownXSS(t *testing.T) {
	checkXSSCorpus(t, RenderMarkdown)
}

// checkXSSCorpus runs render over xssCorpus: no element or attribute that
// could run script, every href and src one SafeURL accepts.
func checkXSSCorpus(t *testing.T, render func(string) (string, error)) {
	tests := xssCorpus
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			html, err := render(tt.md)
			if err != nil {
				t.Fatal(err)
			}
			lower := strings.ToLower(html)
			for _, bad := range []string{"<script", "<img src=x", "onerror=", "<iframe", "javascript:alert(1)\"", "href=\"javascript", "vbscript:", "data:text/html", "svg+xml", "file:", `onmouseover="`} {
				if strings.Contains(lower, bad) {
					t.Errorf("output holds %q:\n%s", bad, html)
				}
			}
			// Any href/src left must be one SafeURL accepts.
			for _, attr := range []string{`href="`, `src="`} {
				rest := html
				for {
					i := strings.Index(rest, attr)
					if i < 0 {
						break
					}
					rest = rest[i+len(attr):]
					v := rest[:strings.IndexByte(rest, '"')]
					if !SafeURL(unescapeAttr(v)) {
						t.Errorf("unsafe %s%s\" in:\n%s", attr, v, html)
					}
				}
			}
			if tt.keepText != "" && !strings.Contains(html, tt.keepText) {
				t.Errorf("visible text %q lost:\n%s", tt.keepText, html)
			}
		})
	}
}

func unescapeAttr(s string) string {
	return strings.NewReplacer("&amp;", "&", "&quot;", `"`, "&lt;", "<", "&gt;", ">", "&#9;", "\t", "&#10;", "\n").Replace(s)
}

func TestSafeURL(t *testing.T) {
	tests := map[string]bool{
		"https://example.com":         true,
		"HTTP://EXAMPLE.COM":          true,
		"/blog/1":                     true,
		"#section":                    true,
		"relative/path?x=a:b":         true,
		"mailto:a@b.c":                true,
		"data:image/png;base64,AAAA":  true,
		"DATA:IMAGE/WEBP;base64,AAAA": true,
		"data:image/jpeg,xx":          true,
		"javascript:alert(1)":         false,
		"JaVaScRiPt:alert(1)":         false,
		" javascript:alert(1)":        false,
		"\x01javascript:alert(1)":     false,
		"\x00javascript:alert(1)":     false,
		"java\tscript:alert(1)":       false,
		"java\nscript:alert(1)":       false,
		"java\x00script:alert(1)":     false,
		"vbscript:msgbox":             false,
		"data:text/html,x":            false,
		"data:image/svg+xml,<svg>":    false,
		"data:image/pngx,AAAA":        false,
		"file:///etc/passwd":          false,
		"\u00a0javascript:alert(1)":   false,
		"ja\u200bvascript:alert(1)":   false,
		"blob:https://x.test/uuid":    false,
	}
	for in, want := range tests {
		if got := SafeURL(in); got != want {
			t.Errorf("SafeURL(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestFeedEscapes(t *testing.T) {
	var buf bytes.Buffer
	arts := []Summary{{ID: 7, Name: `"><script>alert(1)</script>`, Excerpt: `<img src=x onerror=alert(1)> & more`, Category: `a"b`}}
	if err := WriteFeed(&buf, "https://hub.example/", "DevHub", arts); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, bad := range []string{"<script", "<img"} {
		if strings.Contains(out, bad) {
			t.Errorf("feed holds %q:\n%s", bad, out)
		}
	}
	for _, want := range []string{
		`<title type="text">&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>`,
		`<summary type="text">&lt;img src=x onerror=alert(1)&gt; &amp; more</summary>`,
		`<link href="https://hub.example/blog/7" rel="alternate" type="text/html"></link>`,
		`<category term="a&#34;b"></category>`,
		`<feed xmlns="http://www.w3.org/2005/Atom">`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("feed lacks %q:\n%s", want, out)
		}
	}
}
