package blog

import (
	"bytes"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// UGCRel is the rel every link in what visitors write carries: search
// engines give it no weight (nofollow, ugc), and the page it opens gets no
// handle on ours (noopener).
const UGCRel = "nofollow ugc noopener"

// ugcMarkdown renders what visitors write (comments, forum posts): the
// article renderer's rules (no raw HTML, links and images checked by
// linkSanitizer) on a smaller subset — no images (a remote image would
// report every reader to its host), no heading ids, no highlighting — and
// every link marked with UGCRel.
var ugcMarkdown = goldmark.New(
	goldmark.WithExtensions(extension.GFM),
	goldmark.WithParserOptions(
		parser.WithASTTransformers(
			util.Prioritized(linkSanitizer{}, 1000),
			util.Prioritized(ugcLinks{}, 1001),
		),
	),
)

// ugcLinkCount is where RenderUGC finds the number of links in the text, for a
// cap on links.
var ugcLinkCount = parser.NewContextKey()

// RenderUGC turns a visitor's Markdown into safe HTML and counts its links
// (those kept after sanitising, including bare URLs made links).
func RenderUGC(src string) (html string, links int, err error) {
	var buf bytes.Buffer
	pc := parser.NewContext()
	if err := ugcMarkdown.Convert([]byte(src), &buf, parser.WithContext(pc)); err != nil {
		return "", 0, err
	}
	n, _ := pc.Get(ugcLinkCount).(int)
	return buf.String(), n, nil
}

// ugcLinks marks links with UGCRel, turns images into their alt text and
// counts the links. It runs after linkSanitizer, so only safe links remain.
type ugcLinks struct{}

func (ugcLinks) Transform(doc *ast.Document, _ text.Reader, pc parser.Context) {
	var images []ast.Node
	links := 0
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *ast.Link, *ast.AutoLink:
			n.SetAttributeString("rel", []byte(UGCRel))
			links++
		case *ast.Image:
			images = append(images, n)
		}
		return ast.WalkContinue, nil
	})
	for _, n := range images {
		parent := n.Parent()
		for c := n.FirstChild(); c != nil; {
			next := c.NextSibling()
			parent.InsertBefore(parent, n, c)
			c = next
		}
		parent.RemoveChild(parent, n)
	}
	pc.Set(ugcLinkCount, links)
}
