package server

import (
	"bytes"
	"html"
	"strconv"
	"strings"
	"time"

	"github.com/devhub/devhub/pkg/blog"
)

// The blog's pages carry their text in the HTML: an article page its title,
// date and rendered body, the list its first page of titles, excerpts and
// links. It reads without JavaScript, in read-later tools and in crawlers
// that run no scripts, and the first paint shows the text. The block is a
// fixed layer over the app (id ssrPageID) that the SPA removes once its own
// page shows the same text: removing a fixed layer moves nothing else, so
// the take-over shifts no layout. Only public articles are rendered here
// (the page is the same for every visitor); every text is escaped, and the
// body is the blog's sanitised Markdown rendering.

// ssrPageID is the element the SPA removes when it takes over.
const ssrPageID = "ssr-page"

// ssrStyle lays the block out like the app's article page, in the app's
// colours (its variables are defined by the stylesheet in the head).
const ssrStyle = `<style>` +
	`.ssr-page{position:fixed;inset:0;z-index:1001;overflow:auto;background:var(--bg,Canvas);color:var(--text,CanvasText);` +
	`font-family:var(--font-sans,system-ui,sans-serif);line-height:1.6}` +
	`.ssr-page__bar{display:flex;gap:1.25rem;align-items:center;height:var(--header-height,60px);padding:0 var(--gutter,1rem);` +
	`border-bottom:1px solid var(--border,#ccc);background:var(--surface,Canvas)}` +
	`.ssr-page__bar a{color:inherit;text-decoration:none;font-weight:600}` +
	`.ssr-page__main{max-width:760px;margin:0 auto;padding:1.5rem var(--gutter,1rem) 3rem;overflow-wrap:anywhere}` +
	`.ssr-page__main img{max-width:100%;height:auto}` +
	`.ssr-page__main pre{overflow:auto}` +
	`.ssr-page__meta{color:var(--text-muted,GrayText)}` +
	`.ssr-page__list{list-style:none;padding:0}` +
	`.ssr-page__list li{padding:1rem 0;border-bottom:1px solid var(--border,#ccc)}` +
	`.ssr-page a{color:var(--accent,LinkText)}` +
	`</style>`

// ssrDate is how the block writes a date (the SPA writes it in the
// reader's language once it runs).
func ssrDate(t time.Time) string {
	t = t.UTC()
	return `<time datetime="` + t.Format(time.RFC3339) + `">` + t.Format("2 January 2006") + `</time>`
}

// ssrFrame wraps a page's main content in the block with the site's bar
// (the site's name, siteName, links home).
func ssrFrame(siteName, lang, main string) string {
	var b strings.Builder
	b.WriteString(`<div id="` + ssrPageID + `" class="ssr-page">` + ssrStyle)
	b.WriteString(`<div class="ssr-page__bar"><a href="/">` + html.EscapeString(siteName) + `</a><a href="/blog">Blog</a></div>`)
	b.WriteString(`<div class="ssr-page__main"`)
	if lang != "" {
		b.WriteString(` lang="` + html.EscapeString(lang) + `"`)
	}
	b.WriteString(`>` + main + `</div></div>`)
	return b.String()
}

// ssrArticle is the block of an article's page.
func (s *Server) ssrArticle(a *blog.Article) string {
	body, err := s.svc.Blog.Render(a)
	if err != nil {
		return ""
	}
	esc := html.EscapeString
	var b strings.Builder
	b.WriteString(`<article><h1>` + esc(a.Name) + `</h1>`)
	b.WriteString(`<p class="ssr-page__meta">` + ssrDate(a.CreatedAt) + ` · ` + esc(a.Category) + `</p>`)
	b.WriteString(`<p><strong>` + esc(a.Excerpt) + `</strong></p>`)
	b.WriteString(`<div class="ssr-page__body">` + body + `</div></article>`)
	lang := articleLang(a.Summary())
	return ssrFrame(s.siteName(lang), lang, b.String())
}

// ssrBlogList is the block of the blog list's first page.
func (s *Server) ssrBlogList() string {
	page, err := s.svc.Blog.List(blog.Query{})
	if err != nil {
		return ""
	}
	esc := html.EscapeString
	var b strings.Builder
	b.WriteString(`<h1>Blog</h1><ul class="ssr-page__list">`)
	for _, a := range page.Articles {
		href := "/blog/" + strconv.FormatUint(a.ID, 10)
		b.WriteString(`<li lang="` + esc(articleLang(a)) + `"><h2><a href="` + href + `">` + esc(a.Name) + `</a></h2>`)
		b.WriteString(`<p class="ssr-page__meta">` + ssrDate(a.CreatedAt) + ` · ` + esc(a.Category) + `</p>`)
		b.WriteString(`<p>` + esc(a.Excerpt) + `</p></li>`)
	}
	b.WriteString(`</ul>`)
	return ssrFrame(s.siteName(headLang), "", b.String())
}

// withServerRender puts block into page just before </body>.
func withServerRender(page []byte, block string) []byte {
	if block == "" {
		return page
	}
	i := bytes.LastIndex(page, []byte("</body>"))
	if i < 0 {
		return page
	}
	out := make([]byte, 0, len(page)+len(block))
	out = append(out, page[:i]...)
	out = append(out, block...)
	return append(out, page[i:]...)
}
