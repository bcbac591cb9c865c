package server

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/gofiber/fiber/v3"
)

// The one place that decides who may keep an answer: cachePolicy runs
// around every route and sets Cache-Control (and Vary, and for public
// answers a strong ETag with 304) from three facts — the path, whether the
// request carries credentials, and what the handler already said.
//
//   - A request with credentials (an Authorization header or any cookie: the
//     session's refresh cookie, a share link's visit) may get an answer made
//     for that caller (an admin's list includes drafts), so its answer is
//     never "public": public becomes private and s-maxage goes; an answer
//     that says nothing becomes "private, no-cache".
//   - An answer that sets a cookie is treated the same way: it is never
//     public, and one that says nothing becomes "private, no-cache".
//   - /api/auth/* is never stored anywhere (no-store).
//   - A guest's GET of a public page or list (publicCachePath) that the
//     handler did not mark private, no-store or public itself (immutable
//     assets, thumbnails, covers keep their own lifetimes) gets
//     cachePublicPage, a strong ETag of its bytes when it has none, and 304
//     for a matching If-None-Match. Such paths also say
//     "Vary: Authorization, Cookie": the same URL answers a signed-in admin
//     differently, and a cache that honours Vary keeps the two apart (one
//     that does not must bypass on them: docs/deploy.md).
//   - Any other /api answer that says nothing gets "private, no-cache":
//     a shared cache never guesses a lifetime for it.

// cachePublicPage lets browsers reuse a public page for a minute and shared
// caches (a CDN, nginx's proxy_cache) for five, then serve it stale for up
// to ten more while they revalidate in the background.
const cachePublicPage = "public, max-age=60, s-maxage=300, stale-while-revalidate=600"

// cachePublicHTML is the same for the site's pages, shorter: a page names
// the hashed bundles of the binary that served it, which the next binary
// no longer has, so browsers revalidate every time (a 304 with the ETag)
// and a shared cache keeps a page a minute and serves it stale a minute
// more at most after an upgrade.
const cachePublicHTML = "public, max-age=0, s-maxage=60, stale-while-revalidate=60"

// publicAPIPrefixes are the JSON answers that are the same for every guest:
// articles and their comments, the forum, the profile and site settings,
// the file cloud's public files, ROM lists, the download catalogue.
var publicAPIPrefixes = []string{
	"/api/blog", "/api/api/blog", "/api/comments/counts", "/api/forum",
	"/api/profile", "/api/site", "/api/files", "/api/api/files",
	"/api/downloads",
}

// publicRootPaths are the public answers outside /api: feeds, sitemap,
// robots, ROM lists.
var publicRootPaths = []string{
	"/feed.xml", "/forum/feed.xml", "/programs/feed.xml", "/alavar/feed.xml",
	"/sitemap.xml", "/robots.txt", "/romserv/consoles",
}

// publicCachePath reports whether a guest's answer at path may be kept by
// shared caches. The SPA's pages (HTML, with the server-rendered articles)
// are the same for everyone, except those whose address holds a secret or
// a state that can end any moment: share links, the first-run page, and
// any address with a token in its query.
func publicCachePath(c fiber.Ctx, path string) bool {
	if strings.HasPrefix(path, "/api/") || path == "/api" {
		for _, p := range publicAPIPrefixes {
			if isUnderPrefix(path, p) {
				return true
			}
		}
		return false
	}
	for _, p := range publicRootPaths {
		if isUnderPrefix(path, p) {
			return true
		}
	}
	if isUnderPrefix(path, "/s") || isUnderPrefix(path, "/setup") || strings.Contains(strings.ToLower(string(c.Request().URI().QueryString())), "token") {
		return false
	}
	return strings.HasPrefix(c.GetRespHeader(fiber.HeaderContentType), fiber.MIMETextHTML)
}

// hasCredentials reports whether the request says who is asking.
func hasCredentials(c fiber.Ctx) bool {
	h := &c.Request().Header
	return len(h.Peek(fiber.HeaderAuthorization)) > 0 || len(h.Peek(fiber.HeaderCookie)) > 0
}

func (s *Server) cachePolicy(c fiber.Ctx) error {
	err := c.Next()
	path := c.Path()
	h := &c.Response().Header
	cc := strings.ToLower(string(h.Peek(fiber.HeaderCacheControl)))
	if isUnderPrefix(path, "/api/auth") {
		h.Set(fiber.HeaderCacheControl, "no-store")
		return err
	}
	method := c.Method()
	read := method == fiber.MethodGet || method == fiber.MethodHead
	if !read {
		return err
	}
	status := c.Response().StatusCode()
	// An answer that sets a cookie (a share link's grant, a session) is
	// the caller's alone, whatever its path: a shared cache that kept it
	// would hand the cookie to everyone after.
	setsCookie := false
	for range h.Cookies() {
		setsCookie = true
		break
	}
	// A streamed answer without a validator (a zip made on the fly) is not
	// a page: it keeps what its handler said.
	public := err == nil && !setsCookie && (status == fiber.StatusOK || status == fiber.StatusNotModified) && publicCachePath(c, path) &&
		(!c.Response().IsBodyStream() || len(h.Peek(fiber.HeaderETag)) > 0)
	if public {
		c.Append(fiber.HeaderVary, fiber.HeaderAuthorization, fiber.HeaderCookie)
	}
	switch {
	case hasCredentials(c) || setsCookie:
		if !strings.Contains(cc, "no-store") && !strings.Contains(cc, "private") {
			h.Set(fiber.HeaderCacheControl, privateOf(cc))
		}
	case public && !strings.Contains(cc, "private") && !strings.Contains(cc, "no-store") && !strings.Contains(cc, "public"):
		if strings.HasPrefix(c.GetRespHeader(fiber.HeaderContentType), fiber.MIMETextHTML) {
			h.Set(fiber.HeaderCacheControl, cachePublicHTML)
		} else {
			h.Set(fiber.HeaderCacheControl, cachePublicPage)
		}
		if status == fiber.StatusOK && len(h.Peek(fiber.HeaderETag)) == 0 && !c.Response().IsBodyStream() {
			sum := sha256.Sum256(c.Response().Body())
			h.Set(fiber.HeaderETag, `"`+hex.EncodeToString(sum[:16])+`"`)
			if c.Fresh() {
				c.Status(fiber.StatusNotModified)
				c.Response().ResetBody()
			}
		}
	case cc == "" && strings.HasPrefix(path, "/api/"):
		h.Set(fiber.HeaderCacheControl, "private, no-cache")
	}
	return err
}

// privateOf turns a Cache-Control value into one only the caller's own
// browser may use: "public" and "s-maxage" go, "private" leads, the rest
// (max-age, immutable, no-cache, no-transform…) stays; nothing becomes
// "private, no-cache".
func privateOf(cc string) string {
	out := []string{"private"}
	for _, d := range strings.Split(cc, ",") {
		d = strings.TrimSpace(d)
		if d == "" || d == "public" || strings.HasPrefix(d, "s-maxage") || strings.HasPrefix(d, "stale-while-revalidate") {
			continue
		}
		out = append(out, d)
	}
	if len(out) == 1 {
		out = append(out, "no-cache")
	}
	return strings.Join(out, ", ")
}
