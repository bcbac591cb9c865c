package server

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/blog"
	"github.com/devhub/devhub/pkg/downloads"
	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/usecase"
)

// mountDownloads registers the download catalogue: /api/downloads and the
// Atom feeds of its sections (/programs/feed.xml, /alavar/feed.xml).
func (s *Server) mountDownloads(app *fiber.App, api fiber.Router) {
	for _, sec := range downloads.Sections {
		app.Get("/"+sec+"/feed.xml", s.downloadsFeed(sec))
		app.Head("/"+sec+"/feed.xml", s.downloadsFeed(sec))
	}
	s.allowStreamingBodyMatch(func(p string) bool {
		rest, ok := strings.CutPrefix(p, "/api/downloads/")
		if !ok {
			return false
		}
		_, tail, _ := strings.Cut(rest, "/")
		return tail == "releases" || tail == "images"
	})
	g := api.Group("/downloads")
	get := func(path string, h fiber.Handler) {
		g.Get(path, s.optionalUser, h)
		g.Head(path, s.optionalUser, h)
	}
	get("/", s.listDownloads)
	g.Post("/", s.requireAdmin, s.createDownload)
	g.Put("/order", s.requireAdmin, s.reorderDownloads)
	get("/:slug", s.downloadDetail)
	g.Patch("/:slug", s.requireAdmin, s.patchDownload)
	g.Delete("/:slug", s.requireAdmin, s.deleteDownload)
	g.Post("/:slug/releases", s.requireAdmin, s.admitUpload, s.addRelease)
	g.Delete("/:slug/releases/:version", s.requireAdmin, s.deleteRelease)
	g.Post("/:slug/images", s.requireAdmin, s.admitUpload, s.addDownloadImage)
	g.Delete("/:slug/images/:imageId", s.requireAdmin, s.deleteDownloadImage)
	get("/:slug/images/:imageId", s.downloadImage)
	get("/:slug/files/:fileId", s.downloadBytes)
}

func (s *Server) listDownloads(c fiber.Ctx) error {
	var v store.Validator
	pq := queryPage(c, &v)
	q := downloads.Query{Section: c.Query("section"), Search: c.Query("search"), System: c.Query("system"),
		Sort: c.Query("sort"), Page: pq.Page, Limit: pq.Limit}
	if err := v.Err(); err != nil {
		return err
	}
	es, total, err := s.hub.ListDownloads(s.actor(c), q)
	if err != nil {
		return err
	}
	out := make([]downloads.SummaryView, 0, len(es))
	for i := range es {
		out = append(out, es[i].SummaryOf())
	}
	return c.JSON(fiber.Map{"entries": out, "totalCount": total})
}

func (s *Server) downloadDetail(c fiber.Ctx) error {
	e, err := s.hub.Download(s.actor(c), c.Params("slug"))
	if err != nil {
		return err
	}
	return c.JSON(renderedView(e))
}

// renderedView is e's view with its Markdown rendered by the blog's safe
// renderer (no raw HTML, no script links).
func renderedView(e *downloads.Entry) downloads.EntryView {
	v := e.View()
	md := func(src string) string {
		html, err := blog.RenderMarkdown(src)
		if err != nil {
			return ""
		}
		return html
	}
	v.DescriptionHTML = map[string]string{"": md(e.Description)}
	for lang, t := range e.Translations {
		if t.Description != "" {
			v.DescriptionHTML[lang] = md(t.Description)
		}
	}
	for i := range v.Releases {
		v.Releases[i].NotesHTML = md(v.Releases[i].Notes)
	}
	return v
}

// downloadBody is an entry as a client writes it; absent fields stay.
type downloadBody struct {
	Section      *string                           `json:"section"`
	Slug         *string                           `json:"slug"`
	Name         *string                           `json:"name"`
	Summary      *string                           `json:"summary"`
	Description  *string                           `json:"description"`
	Translations *map[string]downloads.Translation `json:"translations"`
	Systems      *[]string                         `json:"systems"`
	Requirements *string                           `json:"requirements"`
	Licence      *string                           `json:"licence"`
	Homepage     *string                           `json:"homepage"`
	Hidden       *bool                             `json:"hidden"`
	Order        *int                              `json:"order"`
}

func (b *downloadBody) change() usecase.DownloadChange {
	return usecase.DownloadChange{Section: b.Section, Name: b.Name, Summary: b.Summary, Description: b.Description,
		Translations: b.Translations, Systems: b.Systems, Requirements: b.Requirements, Licence: b.Licence,
		Homepage: b.Homepage, Hidden: b.Hidden, Order: b.Order}
}

func (s *Server) createDownload(c fiber.Ctx) error {
	var b downloadBody
	if err := bindJSON(c, &b); err != nil {
		return err
	}
	var e downloads.Entry
	e.Slug = deref(b.Slug)
	usecase.ApplyDownloadChange(&e, b.change())
	out, err := s.hub.CreateDownload(c.Context(), s.actor(c), e)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(out.View())
}

func (s *Server) patchDownload(c fiber.Ctx) error {
	var b downloadBody
	if err := bindJSON(c, &b); err != nil {
		return err
	}
	if b.Slug != nil && *b.Slug != c.Params("slug") {
		return store.Invalid("slug", "immutable", "an entry's slug cannot change")
	}
	out, err := s.hub.ChangeDownload(c.Context(), s.actor(c), c.Params("slug"), b.change())
	if err != nil {
		return err
	}
	return c.JSON(out.View())
}

func (s *Server) deleteDownload(c fiber.Ctx) error {
	if err := s.hub.DeleteDownload(c.Context(), s.actor(c), c.Params("slug")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) reorderDownloads(c fiber.Ctx) error {
	var b struct {
		Section string   `json:"section"`
		Slugs   []string `json:"slugs"`
	}
	if err := bindJSON(c, &b); err != nil {
		return err
	}
	if err := s.hub.ReorderDownloads(c.Context(), s.actor(c), b.Section, b.Slugs); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) deleteRelease(c fiber.Ctx) error {
	out, err := s.hub.DeleteRelease(c.Context(), s.actor(c), c.Params("slug"), c.Params("version"))
	if err != nil {
		return err
	}
	return c.JSON(out.View())
}

func (s *Server) deleteDownloadImage(c fiber.Ctx) error {
	out, err := s.hub.DeleteDownloadImage(c.Context(), s.actor(c), c.Params("slug"), c.Params("imageId"))
	if err != nil {
		return err
	}
	return c.JSON(out.View())
}

// multipartOf is the streaming multipart reader of the request's body,
// held to the upload limit.
func (s *Server) multipartOf(c fiber.Ctx) (*multipart.Reader, *limitedBody, error) {
	body, err := s.uploadBody(c, "upload", s.cfg.Files.MaxUploadBytes)
	if err != nil {
		return nil, nil, err
	}
	mt, params, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return nil, nil, NewError(fiber.StatusBadRequest, "expected a multipart/form-data body")
	}
	return multipart.NewReader(body, params["boundary"]), body, nil
}

// fieldValue reads a small text field of a multipart body.
func fieldValue(p *multipart.Part) (string, error) {
	b, err := io.ReadAll(io.LimitReader(p, 64<<10+1))
	if err != nil {
		return "", err
	}
	if len(b) > 64<<10 {
		return "", store.Invalid(p.FormName(), "too_long", p.FormName()+" is longer than 64 KiB")
	}
	return string(b), nil
}

// uploadError is the answer to a multipart body that failed while read.
func uploadError(err error, body *limitedBody) error {
	switch {
	case body.tooLarge(err) != nil:
		return body.tooLarge(err)
	case store.KindOf(err) != store.KindUnknown:
		return err
	}
	return NewError(fiber.StatusBadRequest, "the upload was cut off or is not a well-formed multipart body")
}

// addRelease reads a release from a multipart body as it streams: the
// fields version and notes, then each file — a "files" part, or a
// "fileId" field naming a file uploaded resumably to the file cloud — each
// followed by its "system" and "arch" fields. Every file's bytes are
// stored (and hashed) as they arrive; the release is recorded at the end,
// or all of them are deleted.
func (s *Server) addRelease(c fiber.Ctx) error {
	slug := c.Params("slug")
	if _, err := s.hub.DownloadForChange(s.actor(c), slug); err != nil {
		return err
	}
	mr, body, err := s.multipartOf(c)
	if err != nil {
		return err
	}
	var in usecase.NewRelease
	// lastSys and lastArch are the fields of the file read last, which
	// the next system and arch fields describe.
	var lastSys, lastArch *string
	discard := func() {
		for _, f := range in.Files {
			s.svc.Downloads.Discard(c.Context(), []*downloads.Stored{f.Stored})
		}
	}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			discard()
			return uploadError(err, body)
		}
		name := p.FormName()
		if name == "files" && p.FileName() != "" {
			st, err := s.svc.Downloads.StoreFile(c.Context(), rawPartName(p), p, body.left)
			if err != nil {
				discard()
				return uploadError(err, body)
			}
			in.Files = append(in.Files, downloads.NewFile{Stored: st})
			lastSys, lastArch = &in.Files[len(in.Files)-1].System, &in.Files[len(in.Files)-1].Arch
			continue
		}
		val, err := fieldValue(p)
		if err != nil {
			discard()
			return uploadError(err, body)
		}
		switch name {
		case "version":
			in.Version = val
		case "notes":
			in.Notes = val
		case "fileId":
			id, perr := strconv.ParseUint(strings.TrimSpace(val), 10, 64)
			if perr != nil || id == 0 {
				discard()
				return store.Invalid("fileId", "invalid", "fileId must be a file cloud id")
			}
			in.Cloud = append(in.Cloud, usecase.CloudFile{ID: id})
			lastSys, lastArch = &in.Cloud[len(in.Cloud)-1].System, &in.Cloud[len(in.Cloud)-1].Arch
		case "system", "arch":
			if lastSys == nil {
				discard()
				return store.Invalid(name, "order", name+" must follow the file it describes")
			}
			if name == "system" {
				*lastSys = strings.TrimSpace(val)
			} else {
				*lastArch = strings.TrimSpace(val)
			}
		}
	}
	out, err := s.hub.AddRelease(c.Context(), s.actor(c), slug, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(out.View())
}

// rawPartName is a file part's name as the client sent it (the multipart
// package would reduce "a/b" to "b"); downloads.CheckFileName refuses what
// is not one plain name.
func rawPartName(p *multipart.Part) string {
	_, params, err := mime.ParseMediaType(p.Header.Get("Content-Disposition"))
	if err != nil {
		return p.FileName()
	}
	return params["filename"]
}

// addDownloadImage stores an icon or screenshots from a multipart body:
// a "kind" field (icon or screenshot) before one or more "files" parts.
func (s *Server) addDownloadImage(c fiber.Ctx) error {
	slug := c.Params("slug")
	if _, err := s.hub.DownloadForChange(s.actor(c), slug); err != nil {
		return err
	}
	mr, body, err := s.multipartOf(c)
	if err != nil {
		return err
	}
	kind := ""
	var out *downloads.Entry
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return uploadError(err, body)
		}
		if p.FormName() == "kind" {
			if kind, err = fieldValue(p); err != nil {
				return err
			}
			continue
		}
		if p.FormName() != "files" || p.FileName() == "" {
			continue
		}
		if kind == "" {
			return store.Invalid("kind", "required", "kind (icon or screenshot) must come before the files")
		}
		st, err := s.svc.Downloads.StoreFile(c.Context(), rawPartName(p), p, body.left)
		if err != nil {
			return uploadError(err, body)
		}
		if out, err = s.hub.AddDownloadImage(c.Context(), s.actor(c), slug, kind, st); err != nil {
			return err
		}
	}
	if out == nil {
		return store.Invalid("files", "required", "send one or more images as \"files\"")
	}
	return c.Status(fiber.StatusCreated).JSON(out.View())
}

// downloadImage serves an icon or a screenshot inline (only PNG, JPEG,
// WebP and GIF are ever stored as one), through the one caching path.
func (s *Server) downloadImage(c fiber.Ctx) error {
	h := &c.Response().Header
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", userFileCSP)
	e, err := s.hub.Download(s.actor(c), c.Params("slug"))
	if err != nil {
		return err
	}
	m := e.FindMedia(c.Params("imageId"))
	if m == nil {
		return store.ErrNotFound
	}
	r, err := s.svc.Downloads.Open(m.Key, m.Size)
	if err != nil {
		return err
	}
	return sendContent(c, &content{contentType: m.MimeType, cacheControl: "public, max-age=31536000, immutable",
		etag: `"` + m.ID + `"`, ranges: true, identity: payload{size: m.Size, file: r}})
}

// downloadBytes serves a release file through the one caching and Range
// path, always as an attachment with nosniff. A download counts once per
// visitor and file per day, and never for HEAD, a link-preview bot, a 304
// or a 416 (beforeBytes runs only when bytes are sent).
func (s *Server) downloadBytes(c fiber.Ctx) error {
	h := &c.Response().Header
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", userFileCSP)
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	actor := s.actor(c)
	e, f, err := s.hub.DownloadFile(actor, c.Params("slug"), c.Params("fileId"))
	if err != nil {
		return err
	}
	count := func() error {
		if !c.Request().Header.IsHead() && !isLinkPreviewBot(c.Get(fiber.HeaderUserAgent)) {
			s.hub.CountDownload(actor, e.Slug, f.ID)
		}
		return nil
	}
	disposition := contentDisposition("attachment", f.Name)
	ct := &content{contentType: "application/octet-stream", cacheControl: "private, no-cache",
		etag: `"` + f.SHA256 + `"`, ranges: true, beforeBytes: count}
	if u := s.presignDownload(c, f.Key, f.Size, disposition); u != "" {
		ct.redirect, ct.identity = u, payload{size: f.Size, open: notOpened}
	} else {
		r, err := s.svc.Downloads.Open(f.Key, f.Size)
		if err != nil {
			return err
		}
		ct.identity = payload{size: f.Size, file: r}
	}
	h.Set(fiber.HeaderContentDisposition, disposition)
	if err := sendContent(c, ct); err != nil {
		h.Del(fiber.HeaderContentDisposition)
		return err
	}
	s.countDownload(c)
	return nil
}

// downloadsFeed answers a section's Atom feed of releases.
func (s *Server) downloadsFeed(section string) fiber.Handler {
	return func(c fiber.Ctx) error {
		var buf bytes.Buffer
		if err := s.svc.Downloads.WriteFeed(&buf, s.cfg.Server.PublicURL, s.siteName(headLang), section); err != nil {
			return err
		}
		c.Set(fiber.HeaderContentType, "application/atom+xml; charset=utf-8")
		c.Set(fiber.HeaderCacheControl, "no-cache")
		return c.Send(buf.Bytes())
	}
}
