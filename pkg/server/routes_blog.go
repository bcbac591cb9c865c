package server

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/blog"
	"github.com/devhub/devhub/pkg/store"
)

// mountBlog serves the blog API at /api/blog and, as the spec's front end
// calls it, at /api/api/blog; and the Atom feed at /feed.xml on app (before
// the SPA catch-all). Reads are public; writes need an admin.
func (s *Server) mountBlog(app *fiber.App, api fiber.Router) {
	b := s.svc.Blog
	if b == nil {
		return
	}
	for _, prefix := range []string{"/blog", "/api/blog"} {
		g := api.Group(prefix)
		g.Get("/", s.blogList)
		g.Get("/categories", s.blogCategories)
		g.Get("/:id", s.blogGet)
		g.Post("/", s.requireAdmin, s.blogCreate)
		g.Put("/:id", s.requireAdmin, s.blogUpdate)
		g.Delete("/:id", s.requireAdmin, s.blogDelete)
	}
	app.Get("/feed.xml", s.blogFeed)
}

// blogArticleBody is the create/edit body. "image" is read too: the spec's
// create modal sends image_url but also reads image.
type blogArticleBody struct {
	Slug     *string `json:"slug"`
	Name     *string `json:"name"`
	Excerpt  *string `json:"excerpt"`
	Content  *string `json:"content"`
	Category *string `json:"category"`
	ImageURL *string `json:"image_url"`
	Image    *string `json:"image"`
	Lang     *string `json:"lang"`
	// TranslationKey links the article with its translations ("" unlinks).
	TranslationKey *string `json:"translationKey"`
}

func (b *blogArticleBody) patch() blog.Patch {
	p := blog.Patch{Slug: b.Slug, Name: b.Name, Excerpt: b.Excerpt, Content: b.Content, Category: b.Category, ImageURL: b.ImageURL,
		Lang: b.Lang, TranslationKey: b.TranslationKey}
	if p.ImageURL == nil {
		p.ImageURL = b.Image
	}
	return p
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// maxQueryInt bounds what queryInt returns: far past any page or limit a
// list has, and small enough that a page times a limit cannot overflow an
// int (page=2^63-1&limit=2 made the offset negative and the slice panic).
const maxQueryInt = 1<<31 - 1

// queryInt reads an optional positive integer query parameter, at most
// maxQueryInt (a larger one is simply past the end); a present but
// non-numeric value is a 400 naming the parameter.
func queryInt(c fiber.Ctx, name string, v *store.Validator) int {
	raw := strings.TrimSpace(c.Query(name))
	if raw == "" {
		return 0
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 {
		v.Add(name, "invalid", name+" must be a whole number of at least 1")
		return 0
	}
	return min(n, maxQueryInt)
}

func (s *Server) blogList(c fiber.Ctx) error {
	var v store.Validator
	q := blog.Query{
		Limit:    queryInt(c, "limit", &v),
		Page:     queryInt(c, "page", &v),
		Category: c.Query("category"),
		Search:   c.Query("search"),
		Lang:     c.Query("lang"),
	}
	if err := v.Err(); err != nil {
		return err
	}
	page, err := s.svc.Blog.List(q)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

func (s *Server) blogCategories(c fiber.Ctx) error {
	return c.JSON(s.svc.Blog.Categories())
}

func (s *Server) blogGet(c fiber.Ctx) error {
	id, err := blog.ParseID(c.Params("id"))
	if err != nil {
		return err
	}
	a, err := s.svc.Blog.Get(id)
	if err != nil {
		return err
	}
	html, err := s.svc.Blog.Render(a)
	if err != nil {
		return err
	}
	return c.JSON(blog.WithHTML{Article: a, ContentHTML: html, Translations: s.svc.Blog.Translations(a)})
}

func (s *Server) blogCreate(c fiber.Ctx) error {
	var body blogArticleBody
	if err := bindJSON(c, &body); err != nil {
		return err
	}
	p := body.patch()
	a, err := s.svc.Blog.Create(c.Context(), blog.Input{
		Slug: deref(p.Slug), Name: deref(p.Name), Excerpt: deref(p.Excerpt), Content: deref(p.Content),
		Category: deref(p.Category), ImageURL: deref(p.ImageURL), Lang: deref(p.Lang), TranslationKey: deref(p.TranslationKey),
	})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(a)
}

func (s *Server) blogUpdate(c fiber.Ctx) error {
	id, err := blog.ParseID(c.Params("id"))
	if err != nil {
		return err
	}
	var body blogArticleBody
	if err := bindJSON(c, &body); err != nil {
		return err
	}
	a, err := s.svc.Blog.Update(c.Context(), id, body.patch())
	if err != nil {
		return err
	}
	return c.JSON(a)
}

func (s *Server) blogDelete(c fiber.Ctx) error {
	id, err := blog.ParseID(c.Params("id"))
	if err != nil {
		return err
	}
	if err := s.svc.Blog.Delete(c.Context(), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// blogFeed answers the Atom feed of the newest articles. Links point at
// server.public_url when configured, else they are relative (never built
// from the Host header a client sent; see blog.WriteFeed).
func (s *Server) blogFeed(c fiber.Ctx) error {
	page, err := s.svc.Blog.List(blog.Query{Limit: blog.FeedSize})
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := blog.WriteFeed(&buf, s.cfg.Server.PublicURL, page.Articles); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/atom+xml; charset=utf-8")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	return c.Send(buf.Bytes())
}
