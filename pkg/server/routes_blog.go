package server

import (
	"bytes"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/blog"
	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/usecase"
)

// mountBlog serves the blog API at /api/blog and, as the spec's front end
// calls it, at /api/api/blog; and the Atom feed at /feed.xml on app (before
// the SPA catch-all). Reads are public (an admin also sees drafts and
// scheduled articles); writes need an admin.
func (s *Server) mountBlog(app *fiber.App, api fiber.Router) {
	b := s.svc.Blog
	if b == nil {
		return
	}
	for _, prefix := range []string{"/blog", "/api/blog"} {
		g := api.Group(prefix)
		g.Get("/", s.optionalUser, s.blogList)
		g.Get("/categories", s.optionalUser, s.blogCategories)
		g.Post("/preview", s.requireAdmin, s.blogPreview)
		g.Post("/images", s.requireAdmin, s.blogImage)
		s.allowStreamingBody("/api" + prefix + "/images")
		g.Get("/:id", s.optionalUser, s.blogGet)
		g.Post("/", s.requireAdmin, s.blogCreate)
		g.Put("/:id", s.requireAdmin, s.blogUpdate)
		g.Patch("/:id", s.requireAdmin, s.blogUpdate)
		g.Delete("/:id", s.requireAdmin, s.blogDelete)
		g.Get("/:id/revisions", s.requireAdmin, s.blogRevisions)
		g.Post("/:id/revisions/:rev/restore", s.requireAdmin, s.blogRestore)
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
	Status         *string `json:"status"`
	// PublishAt is an RFC 3339 time (read here, so that a bad one is a
	// field error rather than a malformed body).
	PublishAt *string `json:"publishAt"`
	Version   *int    `json:"version"`
	// Newsletter false keeps the article from being mailed to the
	// newsletter's subscribers when it goes public.
	Newsletter *bool `json:"newsletter"`
}

func (b *blogArticleBody) patch() (blog.Patch, error) {
	p := blog.Patch{Slug: b.Slug, Name: b.Name, Excerpt: b.Excerpt, Content: b.Content, Category: b.Category, ImageURL: b.ImageURL,
		Lang: b.Lang, TranslationKey: b.TranslationKey, Status: b.Status, Version: b.Version, Newsletter: b.Newsletter}
	if p.ImageURL == nil {
		p.ImageURL = b.Image
	}
	if b.PublishAt != nil && *b.PublishAt != "" {
		t, err := time.Parse(time.RFC3339, *b.PublishAt)
		if err != nil {
			return p, store.Invalid("publishAt", "invalid", "publishAt must be a time such as 2030-01-31T10:00:00Z")
		}
		p.PublishAt = &t
	}
	return p, nil
}

// seesDrafts reports whether the caller is an admin, who sees articles
// that are not public.
func seesDrafts(c fiber.Ctx) bool {
	p := currentUser(c)
	return p != nil && p.IsAdmin()
}

func (s *Server) blogList(c fiber.Ctx) error {
	var v store.Validator
	pq := queryPage(c, &v)
	q := blog.Query{
		Limit:    pq.Limit,
		Page:     pq.Page,
		Category: c.Query("category"),
		Search:   c.Query("search"),
		Lang:     c.Query("lang"),
		Drafts:   seesDrafts(c),
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
	return c.JSON(s.svc.Blog.Categories(seesDrafts(c)))
}

func (s *Server) blogGet(c fiber.Ctx) error {
	id, err := blog.ParseID(c.Params("id"))
	if err != nil {
		return err
	}
	drafts := seesDrafts(c)
	a, err := s.svc.Blog.GetFor(id, drafts)
	if err != nil {
		return err
	}
	html, err := s.svc.Blog.Render(a)
	if err != nil {
		return err
	}
	if !drafts {
		a.EditedBy = ""
	}
	return c.JSON(blog.WithHTML{Article: a, ContentHTML: html, Translations: s.svc.Blog.Translations(a, drafts)})
}

func (s *Server) blogCreate(c fiber.Ctx) error {
	var body blogArticleBody
	if err := bindJSON(c, &body); err != nil {
		return err
	}
	p, err := body.patch()
	if err != nil {
		return err
	}
	a, err := s.hub.CreateArticle(c.Context(), s.actor(c), blog.Input{
		Slug: deref(p.Slug), Name: deref(p.Name), Excerpt: deref(p.Excerpt), Content: deref(p.Content),
		Category: deref(p.Category), ImageURL: deref(p.ImageURL), Lang: deref(p.Lang), TranslationKey: deref(p.TranslationKey),
		Status: deref(p.Status), PublishAt: p.PublishAt, Newsletter: p.Newsletter,
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
	p, err := body.patch()
	if err != nil {
		return err
	}
	a, err := s.hub.EditArticle(c.Context(), s.actor(c), id, p)
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
	if err := s.hub.DeleteArticle(c.Context(), s.actor(c), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) blogRevisions(c fiber.Ctx) error {
	id, err := blog.ParseID(c.Params("id"))
	if err != nil {
		return err
	}
	revs, err := s.hub.ArticleRevisions(s.actor(c), id)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"revisions": revs})
}

func (s *Server) blogRestore(c fiber.Ctx) error {
	id, err := blog.ParseID(c.Params("id"))
	if err != nil {
		return err
	}
	rev, err := blog.ParseID(c.Params("rev"))
	if err != nil {
		return err
	}
	var body struct {
		Version *int `json:"version"`
	}
	if len(c.Body()) > 0 {
		if err := bindJSON(c, &body); err != nil {
			return err
		}
	}
	a, err := s.hub.RestoreRevision(c.Context(), s.actor(c), id, rev, body.Version)
	if err != nil {
		return err
	}
	return c.JSON(a)
}

func (s *Server) blogPreview(c fiber.Ctx) error {
	var body struct {
		Content *string `json:"content"`
	}
	if err := bindJSON(c, &body); err != nil {
		return err
	}
	if body.Content == nil {
		return store.Invalid("content", "required", "content is required")
	}
	html, err := s.hub.PreviewArticle(s.actor(c), *body.Content)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"html": html})
}

// blogImage takes an image for an article as the raw request body (its
// name in ?name=) and answers where it is served.
func (s *Server) blogImage(c fiber.Ctx) error {
	body, err := s.uploadBody(c, "article image", usecase.MaxArticleImageBytes)
	if err != nil {
		return err
	}
	f, err := s.hub.UploadArticleImage(c.Context(), s.actor(c), c.Query("name"), body)
	if err != nil {
		return s.bodyError(c, err, body)
	}
	id := strconv.FormatUint(f.ID, 10)
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"id": f.ID, "name": f.OriginalName, "size": f.Size,
		"url": "/api/files/" + id + "/download", "thumbnailUrl": "/api/files/" + id + "/thumbnail"})
}

// blogFeed answers the Atom feed of the newest articles. Links point at
// server.public_url when configured, else they are relative (never built
// from the Host header a client sent; see atom.Site).
func (s *Server) blogFeed(c fiber.Ctx) error {
	page, err := s.svc.Blog.List(blog.Query{Limit: blog.FeedSize}) // public articles only
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := blog.WriteFeed(&buf, s.cfg.Server.PublicURL, s.siteName(headLang), page.Articles); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/atom+xml; charset=utf-8")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	return c.Send(buf.Bytes())
}
