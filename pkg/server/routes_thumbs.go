package server

import (
	"errors"
	"strconv"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/thumbs"
)

// Thumbnail caching. A thumbnail's URL carries its version
// (/api/files/ID/thumbnail?v=VERSION, thumbs.Source.Version: the content's
// hash and the thumbnail generation), so the bytes at one URL never change
// and the browser may keep them for a year without asking again
// ("immutable"). The same content always has the same URL, a new
// generation of thumbnails a new one. Without v, or with an old one, the
// answer is revalidated every time (its ETag is the version). "private":
// a file can be made private later, and no shared cache should hold its
// picture.
const (
	thumbImmutable   = "private, max-age=31536000, immutable"
	thumbRevalidated = "private, no-cache"
)

// thumbSource is f as the thumbnail service names it.
func thumbSource(f files.File) thumbs.Source { return thumbs.Source{ID: f.ID, Hash: f.SHA256} }

// thumbnailURL is the versioned URL of f's thumbnail, "" while it has none.
func (s *Server) thumbnailURL(f files.File) string {
	// A private file's thumbnail needs the account's token, which an <img>
	// cannot send: the lists show its type's icon instead.
	if s.svc.Thumbs == nil || f.Type != files.TypeImage || f.IsPrivate() {
		return ""
	}
	src := thumbSource(f)
	if !s.svc.Thumbs.Has(src) {
		return ""
	}
	return "/api/files/" + strconv.FormatUint(f.ID, 10) + "/thumbnail?v=" + src.Version()
}

// fileThumbnail answers GET /api/files/:id/thumbnail: the JPEG thumbnail
// of an image file through the one caching path, to whoever may see the
// file itself; 404 for a file without one (not an image, refused, not made
// yet).
func (s *Server) fileThumbnail(c fiber.Ctx) error {
	h := &c.Response().Header
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	id, err := fileIDParam(c)
	if err != nil {
		return err
	}
	f, err := s.visibleFile(c, id) // who may see the file may see its picture
	if err != nil {
		return err
	}
	if s.svc.Thumbs == nil {
		return noThumbnail()
	}
	src := thumbSource(*f)
	fh, size, err := s.svc.Thumbs.Open(src)
	if errors.Is(err, thumbs.ErrNotFound) {
		return noThumbnail()
	}
	if err != nil {
		return err
	}
	cc := thumbRevalidated
	if c.Query("v") == src.Version() {
		cc = thumbImmutable
	}
	return sendContent(c, &content{
		contentType: "image/jpeg", cacheControl: cc,
		etag: `"` + src.Version() + `"`, lastModified: f.UploadedAt,
		identity: payload{size: size, file: fh},
	})
}

func noThumbnail() error { return NewError(fiber.StatusNotFound, "this file has no thumbnail") }
