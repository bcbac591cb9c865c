package blog

import (
	"bytes"
	"strings"
	"sync"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/yuin/goldmark"
	highlighting "github.com/yuin/goldmark-highlighting/v2"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// HighlightStyle is the chroma style whose CSS the SPA ships
// (site/src/features/blog/chroma.css). Code is highlighted with CSS classes,
// never inline styles or scripts, so the page CSP stays strict.
const HighlightStyle = "github"

// markdown is the one configured renderer. Raw HTML is never rendered
// (goldmark's default without html.WithUnsafe replaces it with a comment),
// and linkSanitizer drops links and images whose destination could run
// script. goldmark.Markdown is safe for concurrent use.
var markdown = goldmark.New(
	goldmark.WithExtensions(
		extension.GFM,
		highlighting.NewHighlighting(
			highlighting.WithStyle(HighlightStyle),
			highlighting.WithFormatOptions(chromahtml.WithClasses(true)),
		),
	),
	goldmark.WithParserOptions(
		parser.WithAutoHeadingID(),
		parser.WithASTTransformers(util.Prioritized(linkSanitizer{}, 1000)),
	),
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// RenderMarkdown turns article Markdown into HTML that is safe to insert
// into the page: no raw HTML, no script-bearing URLs.
func RenderMarkdown(src string) (string, error) {
	buf := bufPool.Get().(*bytes.Buffer)
	defer func() { buf.Reset(); bufPool.Put(buf) }()
	if err := markdown.Convert([]byte(src), buf); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// linkSanitizer removes links, images and autolinks whose destination is not
// a safe URL. Goldmark's own IsDangerousURL check is a prefix test on the
// raw bytes; browsers, however, strip leading spaces and control characters
// and ignore tabs and newlines inside a scheme, so the check is redone here
// on the URL as a browser would read it, against an allow-list of schemes.
// A dropped link keeps its text; a dropped image becomes its alt text.
type linkSanitizer struct{}

func (linkSanitizer) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	source := reader.Source()
	var unsafe []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch v := n.(type) {
		case *ast.Link:
			if !SafeURL(resolveRefs(v.Destination)) {
				unsafe = append(unsafe, n)
			}
		case *ast.Image:
			if !SafeURL(resolveRefs(v.Destination)) {
				unsafe = append(unsafe, n)
			}
		case *ast.AutoLink:
			if !SafeURL(string(v.URL(source))) {
				unsafe = append(unsafe, n)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, n := range unsafe {
		parent := n.Parent()
		if parent == nil {
			continue
		}
		if al, ok := n.(*ast.AutoLink); ok {
			// Keep the visible label as plain (escaped) text.
			parent.ReplaceChild(parent, n, ast.NewString(al.Label(source)))
			continue
		}
		// Link or image: hoist the children (link text / alt text) in place.
		for c := n.FirstChild(); c != nil; {
			next := c.NextSibling()
			parent.InsertBefore(parent, n, c)
			c = next
		}
		parent.RemoveChild(parent, n)
	}
}

// resolveRefs decodes backslash escapes and character references in a
// destination the way goldmark's renderer does before writing it.
func resolveRefs(dest []byte) string {
	return string(util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(dest))))
}

// safeSchemes may appear in article links. Relative URLs (no scheme) are
// always allowed; data: only for raster images.
var safeSchemes = map[string]bool{"http": true, "https": true, "mailto": true, "tel": true, "ftp": true}

var safeDataImages = []string{"data:image/png", "data:image/jpeg", "data:image/gif", "data:image/webp"}

// SafeURL reports whether a link or image destination is harmless. It
// normalises the URL the way browsers do before reading the scheme
// (leading/trailing C0 controls and spaces stripped, tabs and newlines
// removed, scheme case-insensitive) and allows only http(s), mailto, tel,
// ftp, relative URLs and data: URLs of PNG, JPEG, GIF or WebP images.
func SafeURL(raw string) bool {
	u := strings.TrimFunc(raw, func(r rune) bool { return r <= 0x20 })
	u = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, u)
	scheme, ok := urlScheme(u)
	if !ok {
		// Relative reference; but a control character before a ':' could
		// still be read as part of a scheme by some parser: refuse those.
		return !strings.ContainsFunc(u, func(r rune) bool { return r < 0x20 || r == 0x7f })
	}
	scheme = strings.ToLower(scheme)
	if scheme == "data" {
		lower := strings.ToLower(u)
		for _, p := range safeDataImages {
			if strings.HasPrefix(lower, p) && len(lower) > len(p) && (lower[len(p)] == ';' || lower[len(p)] == ',') {
				return true
			}
		}
		return false
	}
	return safeSchemes[scheme]
}

// urlScheme returns the scheme of u per RFC 3986 (ALPHA *( ALPHA / DIGIT /
// "+" / "-" / "." ) before the first ':'), and whether u has one. A ':'
// after '/', '?' or '#' belongs to a relative reference.
func urlScheme(u string) (string, bool) {
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c == ':':
			if i == 0 {
				return "", false
			}
			return u[:i], true
		case c == '/' || c == '?' || c == '#':
			return "", false
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			// Not a valid scheme character: browsers treat the whole thing
			// as relative only if no ':' follows; be strict and say "has a
			// scheme" when a ':' appears anyway, so it is refused.
			if j := strings.IndexByte(u[i:], ':'); j >= 0 && !strings.ContainsAny(u[i:i+j], "/?#") {
				return u[:i+j], true
			}
			return "", false
		}
	}
	return "", false
}
