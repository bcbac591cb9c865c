package server

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"html"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/blog"
)

// The SPA's routes. A title is the page's own; the head adds the site's name
// (headTitle), or puts it where the title says %s. The server
// knows them so that an unknown path answers 404 — with the SPA, which shows
// its not-found page — and so that each page's HTML already carries its
// title, description and, for an article, its Open Graph tags and canonical
// URL: a link shared in a chat shows the article without running a script.
var spaPages = []struct {
	pattern     *regexp.Regexp
	title, desc string
	public      bool // listed in the sitemap
}{
	{regexp.MustCompile(`^/$`), "%s — portfolio, tools, blog, file cloud and games", "A self-hosted developer hub: the owner's portfolio, browser self-test tools, a Markdown blog, a file cloud and retro games.", true},
	{regexp.MustCompile(`^/skills$`), "Skills", "Services, technologies and tools the owner works with.", true},
	{regexp.MustCompile(`^/tools$`), "Development tools", "The development tools the owner uses, by group.", true},
	{regexp.MustCompile(`^/tools/camera$`), "Camera test", "Check your camera in the browser: resolution, frame rate, photos; nothing is uploaded.", true},
	{regexp.MustCompile(`^/tools/microphone$`), "Microphone test", "Check your microphone in the browser: level in dBFS, spectrum, recordings; nothing is uploaded.", true},
	{regexp.MustCompile(`^/tools/ip$`), "IP and browser report", "Your IP address, its location and network, and what your browser tells websites.", true},
	{regexp.MustCompile(`^/tools/tone_generator$`), "Tone generator", "Play a tone of any frequency from 1 Hz to 21 kHz: waveforms, presets, sweeps and noise.", true},
	{regexp.MustCompile(`^/chat$`), "Chat", "Chat with the site's users.", true},
	{regexp.MustCompile(`^/games$`), "Retro games", "Play homebrew retro games in the browser.", true},
	{regexp.MustCompile(`^/blog$`), "Blog", "Notes on development.", true},
	{regexp.MustCompile(`^/blog/new$`), "New article", "Write a new article: Markdown with a live preview, drafts and scheduling.", false},
	{regexp.MustCompile(`^/blog/\d+/edit$`), "Edit article", "Edit an article: Markdown with a live preview, revisions and scheduling.", false},
	{regexp.MustCompile(`^/blog/[^/]+$`), "", "", false}, // an article: its own title
	{regexp.MustCompile(`^/filecloud$`), "File cloud", "Files shared on this site: images, videos, audio and documents.", true},
	{regexp.MustCompile(`^/filecloud/\d+$`), "File", "A file in the file cloud.", false},
	{regexp.MustCompile(`^/s/[A-Za-z0-9_-]+$`), "Shared file", "A file shared with a link.", false},
	{regexp.MustCompile(`^/programs$`), "Programs for Windows", "Programs for Windows 7, 10 and 11 to download, with their checksums.", true},
	{regexp.MustCompile(`^/programs/[a-z0-9-]+$`), "Program", "A program to download, with its releases and checksums.", false},
	{regexp.MustCompile(`^/alavar$`), "Alavar games", "Old casual games to download.", true},
	{regexp.MustCompile(`^/alavar/[a-z0-9-]+$`), "Game", "A game to download, with its releases and checksums.", false},
	{regexp.MustCompile(`^/profile$`), "Profile", "Sign in, register and manage your account.", false},
	{regexp.MustCompile(`^/forum$`), "Forum", "Discussions with other visitors, by category.", true},
	{regexp.MustCompile(`^/forum/c/\d+$`), "Forum category", "The threads of a forum category.", false},
	{regexp.MustCompile(`^/forum/t/\d+$`), "Forum thread", "A forum thread and its replies.", false},
	{regexp.MustCompile(`^/forum/moderation$`), "Moderation", "Comments and forum posts waiting for approval.", false},
	{regexp.MustCompile(`^/contact$`), "Contact", "Write to the owner of this site.", true},
	{regexp.MustCompile(`^/setup$`), "First run", "Create the owner's account of a new site.", false},
	{regexp.MustCompile(`^/forgot-password$`), "Forgot password", "Get a link to set a new password by e-mail.", false},
	{regexp.MustCompile(`^/reset-password$`), "New password", "Set a new password for your account.", false},
	{regexp.MustCompile(`^/verify-email$`), "Confirm e-mail", "Confirm the e-mail address of your account with the link mailed to it.", false},
	{regexp.MustCompile(`^/profile/portfolio$`), "Portfolio editor", "Edit the site's portfolio: texts, links, projects, services and tools.", false},
	{regexp.MustCompile(`^/privacy$`), "Privacy", "How this site treats your data.", true},
	{regexp.MustCompile(`^/terms$`), "Terms", "The terms of using this site.", true},
}

// spaPage is the HTML of the SPA for path, with its head filled in, and
// whether the path is a page at all.
func (s *Server) spaPage(c fiber.Ctx, path string) (body []byte, found bool) {
	for _, p := range spaPages {
		if !p.pattern.MatchString(path) {
			continue
		}
		if p.title == "" { // an article's page
			a := s.article(c, strings.TrimPrefix(path, "/blog/"))
			if a == nil {
				return s.withHead(s.headTitle("Not found"), "This page does not exist.", "", nil), false
			}
			page := s.withHead(s.headTitle(a.Name), a.Excerpt, s.absolute(c, path), a, s.translationLinks(c, a)...)
			return withServerRender(page, s.ssrArticle(a)), true
		}
		if path == "/blog" {
			return withServerRender(s.withHead(s.headTitle(p.title), p.desc, s.absolute(c, path), nil), s.ssrBlogList()), true
		}
		return s.withHead(s.headTitle(p.title), p.desc, s.absolute(c, path), nil), true
	}
	return s.withHead(s.headTitle("Not found"), "This page does not exist.", "", nil), false
}

// headLang is the language of the heads the server writes (their texts are
// English; the SPA writes the reader's once it runs).
const headLang = "en"

// siteName is the site's name in lang: the portfolio's site block as now
// served (an admin's edit shows from the next request on), else the default.
func (s *Server) siteName(lang string) string {
	return s.portfolio.get().siteProfile().SiteName(lang)
}

// ownSiteName is the name the portfolio's site block gives the site in lang,
// "" when it gives none (letters then name the site by its address).
func (s *Server) ownSiteName(lang string) string {
	p := s.portfolio.get().siteProfile()
	if p == nil || len(p.Site.Name) == 0 {
		return ""
	}
	return p.SiteName(lang)
}

// siteSubtitle is the site's subtitle in lang, as siteName.
func (s *Server) siteSubtitle(lang string) string {
	return s.portfolio.get().siteProfile().SiteSubtitle(lang)
}

// headTitle is a page's <title>: the page's own and the site's name after a
// dash, or the site's name where title says %s.
func (s *Server) headTitle(title string) string {
	name := s.siteName(headLang)
	if strings.Contains(title, "%s") {
		return strings.Replace(title, "%s", name, 1)
	}
	return title + " — " + name
}

// articleBySlugRedirect is where /blog/<slug> of an existing article moves:
// /blog/<id>. The SPA and the API know articles by number only, so the page
// at the slug's address would say "not found" under the article's head.
func (s *Server) articleBySlugRedirect(c fiber.Ctx, path string) (string, bool) {
	key, ok := strings.CutPrefix(path, "/blog/")
	if !ok || key == "" || strings.Contains(key, "/") {
		return "", false
	}
	if _, err := strconv.ParseUint(key, 10, 64); err == nil {
		return "", false
	}
	a := s.article(c, key)
	if a == nil {
		return "", false
	}
	return "/blog/" + strconv.FormatUint(a.ID, 10), true
}

// article finds a public article by id or slug (nil when there is none):
// pages are rendered for anyone, so drafts and scheduled articles are not
// there.
func (s *Server) article(c fiber.Ctx, key string) *blog.Article {
	if id, err := strconv.ParseUint(key, 10, 64); err == nil {
		if a, err := s.svc.Blog.GetFor(id, false); err == nil {
			return a
		}
		return nil
	}
	if a, err := s.svc.Blog.GetBySlugFor(key, false); err == nil {
		return a
	}
	return nil
}

var (
	titleTag = regexp.MustCompile(`<title>[^<]*</title>`)
	descTag  = regexp.MustCompile(`<meta name="description" content="[^"]*"\s*/?>`)
)

// translationLinks are the hreflang links of an article that has
// translations (its own included, as the sitemap lists them). The group
// comes from the blog's index by translation key, not a scan of every
// article on each page view.
func (s *Server) translationLinks(c fiber.Ctx, a *blog.Article) []sitemapAlternate {
	others := s.svc.Blog.Translations(a, false)
	if len(others) == 0 {
		return nil
	}
	group := []blog.Summary{a.Summary()}
	for _, o := range others {
		group = append(group, blog.Summary{ID: o.ID, Lang: o.Lang, TranslationKey: a.TranslationKey})
	}
	return articleAlternates(group, func(id uint64) string { return s.absolute(c, "/blog/"+strconv.FormatUint(id, 10)) })[a.ID]
}

// ogLocales are Open Graph's names (language_TERRITORY) of the interface's
// languages; an article in another language names none.
var ogLocales = map[string]string{"en": "en_US", "uk": "uk_UA", "ru": "ru_RU"}

// htmlTag is index.html's root element. An article's page states the
// article's language on it for readers without the script (the SPA sets the
// interface's once it runs).
var htmlTag = regexp.MustCompile(`<html(\s[^>]*)?>`)

// withHead rewrites index.html's title and description and adds the
// canonical link and Open Graph tags; for an article also its language
// (og:locale, the document's lang) and the links to its translations.
func (s *Server) withHead(title, desc, canonical string, a *blog.Article, alternates ...sitemapAlternate) []byte {
	page := s.site.index.raw
	esc := html.EscapeString
	var extra strings.Builder
	titleHTML := "<title>" + esc(title) + "</title>"
	descHTML := `<meta name="description" content="` + esc(desc) + `" />`
	if titleTag.Match(page) {
		page = titleTag.ReplaceAllLiteral(page, []byte(titleHTML))
	} else {
		extra.WriteString(titleHTML)
	}
	if descTag.Match(page) {
		page = descTag.ReplaceAllLiteral(page, []byte(descHTML))
	} else {
		extra.WriteString(descHTML)
	}
	if canonical != "" {
		extra.WriteString(`<link rel="canonical" href="` + esc(canonical) + `" />`)
	}
	ogType := "website"
	if a != nil {
		ogType = "article"
	}
	extra.WriteString(`<meta property="og:title" content="` + esc(title) + `" />`)
	extra.WriteString(`<meta property="og:description" content="` + esc(desc) + `" />`)
	extra.WriteString(`<meta property="og:type" content="` + ogType + `" />`)
	extra.WriteString(`<meta property="og:site_name" content="` + esc(s.siteName(headLang)) + `" />`)
	if canonical != "" {
		extra.WriteString(`<meta property="og:url" content="` + esc(canonical) + `" />`)
	}
	if a != nil {
		extra.WriteString(`<meta property="article:published_time" content="` + a.CreatedAt.UTC().Format(time.RFC3339) + `" />`)
		if strings.HasPrefix(a.ImageURL, "https://") || strings.HasPrefix(a.ImageURL, "http://") {
			extra.WriteString(`<meta property="og:image" content="` + esc(a.ImageURL) + `" />`)
		}
		lang := articleLang(blog.Summary{Lang: a.Lang})
		if loc, ok := ogLocales[lang]; ok {
			extra.WriteString(`<meta property="og:locale" content="` + loc + `" />`)
		}
		for _, l := range alternates {
			if l.HrefLang != lang {
				if loc, ok := ogLocales[l.HrefLang]; ok {
					extra.WriteString(`<meta property="og:locale:alternate" content="` + loc + `" />`)
				}
			}
		}
		for _, l := range alternates {
			extra.WriteString(`<link rel="alternate" hreflang="` + esc(l.HrefLang) + `" href="` + esc(l.Href) + `" />`)
		}
		if loc := htmlTag.FindIndex(page); loc != nil {
			page = append(append(append([]byte{}, page[:loc[0]]...), `<html lang="`+esc(lang)+`">`...), page[loc[1]:]...)
		}
	}
	return bytes.Replace(page, []byte("</head>"), []byte(extra.String()+"</head>"), 1)
}

// absolute is the page's URL for canonical links and the sitemap: on
// server.public_url, else on the host the request named.
func (s *Server) absolute(c fiber.Ctx, path string) string {
	base := strings.TrimRight(s.cfg.Server.PublicURL, "/")
	if base == "" {
		base = c.Scheme() + "://" + string(c.Request().Host())
	}
	return base + path
}

// mountSEO serves robots.txt, the sitemap, the favicon at its classic
// address and the web app manifest.
func (s *Server) mountSEO(app *fiber.App) {
	app.Get("/robots.txt", func(c fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMETextPlainCharsetUTF8)
		c.Set(fiber.HeaderCacheControl, cacheShort)
		return c.SendString("User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /profile\nDisallow: /romserv/\n\nSitemap: " +
			s.absolute(c, "/sitemap.xml") + "\n")
	})
	app.Get("/sitemap.xml", s.sitemap)
	app.Get("/favicon.ico", func(c fiber.Ctx) error {
		a, ok := s.site.files["/favicon.svg"]
		if !ok {
			return NewError(fiber.StatusNotFound, "not found")
		}
		return s.sendAsset(c, a)
	})
	app.Get("/manifest.webmanifest", func(c fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, "application/manifest+json")
		// The names are the site's (an admin may change them), so the manifest is revalidated.
		c.Set(fiber.HeaderCacheControl, cacheNoCache)
		name := s.siteName(headLang)
		m, err := json.Marshal(map[string]any{"name": name, "short_name": name, "description": s.siteSubtitle(headLang),
			"start_url": "/", "display": "standalone", "background_color": "#0f172a", "theme_color": "#0f172a",
			"icons": []map[string]string{{"src": "/favicon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"}}})
		if err != nil {
			return err
		}
		return c.Send(m)
	})
}

type sitemapURL struct {
	Loc        string             `xml:"loc"`
	LastMod    string             `xml:"lastmod,omitempty"`
	Alternates []sitemapAlternate `xml:"xhtml:link"`
}

// sitemapAlternate is an <xhtml:link rel="alternate" hreflang> entry: the
// same article in another language, so a search engine shows readers the
// version in theirs.
type sitemapAlternate struct {
	Rel      string `xml:"rel,attr"`
	HrefLang string `xml:"hreflang,attr"`
	Href     string `xml:"href,attr"`
}

// sitemap lists the public pages and every article, with its last change;
// articles that are translations of each other list the whole group.
func (s *Server) sitemap(c fiber.Ctx) error {
	var urls []sitemapURL
	for _, p := range spaPages {
		if p.public {
			path := strings.TrimSuffix(strings.TrimPrefix(p.pattern.String(), "^"), "$")
			urls = append(urls, sitemapURL{Loc: s.absolute(c, path)})
		}
	}
	arts := s.svc.Blog.All("", "", false)
	href := func(id uint64) string { return s.absolute(c, "/blog/"+strconv.FormatUint(id, 10)) }
	alternates := articleAlternates(arts, href)
	for _, a := range arts {
		urls = append(urls, sitemapURL{Loc: href(a.ID), LastMod: a.UpdatedAt.UTC().Format(time.RFC3339),
			Alternates: alternates[a.ID]})
	}
	out, err := xml.MarshalIndent(struct {
		XMLName xml.Name     `xml:"urlset"`
		NS      string       `xml:"xmlns,attr"`
		XHTML   string       `xml:"xmlns:xhtml,attr"`
		URLs    []sitemapURL `xml:"url"`
	}{NS: "http://www.sitemaps.org/schemas/sitemap/0.9", XHTML: "http://www.w3.org/1999/xhtml", URLs: urls}, "", "  ")
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/xml; charset=utf-8")
	c.Set(fiber.HeaderCacheControl, cacheNoCache)
	return c.Send(append([]byte(xml.Header), out...))
}

// articleAlternates gives each article that has a translation the hreflang
// links of its group (articles sharing a translationKey): one per language,
// its own included, as search engines ask. Two articles of a group in one
// language are one version twice: each names itself for its language and the
// lowest id stands for that language in the others' lists. An article with
// no key, or alone in its group's only language, has none.
func articleAlternates(arts []blog.Summary, href func(id uint64) string) map[uint64][]sitemapAlternate {
	groups := map[string][]blog.Summary{}
	for _, a := range arts {
		if a.TranslationKey != "" {
			groups[a.TranslationKey] = append(groups[a.TranslationKey], a)
		}
	}
	out := map[uint64][]sitemapAlternate{}
	for _, group := range groups {
		byLang := map[string]uint64{} // language → the article that stands for it
		for _, a := range group {
			if id, ok := byLang[articleLang(a)]; !ok || a.ID < id {
				byLang[articleLang(a)] = a.ID
			}
		}
		if len(byLang) < 2 {
			continue
		}
		langs := make([]string, 0, len(byLang))
		for l := range byLang {
			langs = append(langs, l)
		}
		sort.Strings(langs)
		for _, a := range group {
			links := make([]sitemapAlternate, 0, len(langs))
			for _, l := range langs {
				id := byLang[l]
				if l == articleLang(a) {
					id = a.ID
				}
				links = append(links, sitemapAlternate{Rel: "alternate", HrefLang: l, Href: href(id)})
			}
			out[a.ID] = links
		}
	}
	return out
}

// articleLang is an article's language as hreflang wants it (lower case; the
// site's default when it names none).
func articleLang(a blog.Summary) string {
	if l := strings.ToLower(strings.TrimSpace(a.Lang)); l != "" {
		return l
	}
	return blog.DefaultLang
}
