package blog

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// FuzzRenderMarkdown: whatever an author writes, the HTML holds no script
// element, no event-handler attribute and no link or source a browser
// would run as script — checked on the parsed HTML, so entity-encoded
// schemes (&#106;avascript:) count too.
func FuzzRenderMarkdown(f *testing.F) {
	for _, seed := range []string{
		"# Title\n\nSome *text* and `code`.",
		"<script>alert(1)</script>",
		"[x](javascript:alert(1))",
		"[x](JaVaScRiPt:alert(1))",
		"[x](&#106;avascript:alert(1))",
		"[x](java\tscript:alert(1))",
		"![i](javascript:alert(1))",
		"<img src=x onerror=alert(1)>",
		"[ref]\n\n[ref]: javascript:alert(1)",
		"<a href=\"javascript:alert(1)\">x</a>",
		"```html\n<script>x</script>\n```",
		"[x](vbscript:msgbox)",
		"![i](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)",
		"<https://example.com>",
		"<javascript:alert(1)>",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		out, err := RenderMarkdown(src)
		if err != nil {
			return
		}
		assertInertHTML(t, src, out)
	})
}

func assertInertHTML(t *testing.T, src, out string) {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(out))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			switch tok.Data {
			case "script", "iframe", "object", "embed", "style":
				t.Fatalf("%q rendered a <%s>:\n%s", src, tok.Data, out)
			}
			for _, a := range tok.Attr {
				key := strings.ToLower(a.Key)
				if strings.HasPrefix(key, "on") {
					t.Fatalf("%q rendered an event handler %s:\n%s", src, a.Key, out)
				}
				if key == "href" || key == "src" || key == "action" || key == "formaction" {
					v := strings.ToLower(strings.Map(func(r rune) rune {
						if r <= 0x20 || r == 0x7f {
							return -1
						}
						return r
					}, a.Val))
					for _, bad := range []string{"javascript:", "vbscript:", "data:text/html"} {
						if strings.HasPrefix(v, bad) {
							t.Fatalf("%q rendered %s=%q:\n%s", src, a.Key, a.Val, out)
						}
					}
				}
			}
		}
	}
}

// FuzzParseContentFile: a content/ file (front matter + Markdown) is either
// an article that passes validation or a FileError; it never panics.
func FuzzParseContentFile(f *testing.F) {
	for _, seed := range []string{
		"---\nname: A\nexcerpt: e\ncategory: c\n---\nBody",
		"---\nname: A\n---\n",
		"---\n: :\n---\n",
		"no front matter",
		"---\nname: [1, 2\n---\n",
		"---\nname: A\nexcerpt: e\ncategory: c\ndate: not-a-date\n---\nx",
		"---\r\nname: A\r\nexcerpt: e\r\ncategory: c\r\n---\r\nx",
		"---\nname: &a [*a, *a]\n---\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		in, _, err := ParseContentFile("fuzz.md", []byte(raw))
		if err != nil {
			return
		}
		if in.Name == "" {
			t.Fatalf("accepted a file without a name: %q", raw)
		}
	})
}
