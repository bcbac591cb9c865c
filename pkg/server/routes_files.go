package server

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/internal/paging"
	"github.com/devhub/devhub/pkg/store"
)

// userFileCSP is sent with every user file: nothing in it may run scripts,
// load anything or be framed into acting as the site; media may reference
// the site itself (a video's own stream).
const userFileCSP = "default-src 'none'; media-src 'self'; style-src 'unsafe-inline'; sandbox"

// inlineTypes are the only MIME types the stream route shows inline: images
// (never SVG, which can carry script), audio, video and PDF. Everything else
// is an attachment.
var inlineTypes = map[string]bool{
	"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true,
	"video/mp4": true, "video/webm": true, "video/ogg": true,
	"audio/ogg": true, "audio/mpeg": true, "audio/wav": true, "audio/wave": true, "audio/x-wav": true,
	"application/pdf": true,
}

// activeTypes could run script or render markup if a browser were ever
// persuaded to display them; they are served as opaque bytes.
var activeTypes = map[string]bool{
	"text/html": true, "application/xhtml+xml": true, "image/svg+xml": true, "text/xml": true,
	"application/xml": true, "text/javascript": true, "application/javascript": true,
}

func mimeBase(mt string) string {
	base, _, _ := strings.Cut(mt, ";")
	return strings.ToLower(strings.TrimSpace(base))
}

// mountFiles registers the file cloud under /api/files and, for the spec's
// client, the same routes under /api/api/files.
func (s *Server) mountFiles(api fiber.Router) {
	for _, prefix := range []string{"/files", "/api/files"} {
		s.allowStreamingBody("/api" + prefix + "/upload")
		g := api.Group(prefix)
		// HEAD is registered explicitly: Fiber adds automatic HEAD routes
		// after every other route, behind the /api catch-all 404.
		get := func(path string, h fiber.Handler) {
			// optionalUser: private files are seen by their uploader and admins.
			g.Get(path, s.optionalUser, h)
			g.Head(path, s.optionalUser, h)
		}
		get("/", s.listFiles(prefix == "/files"))
		g.Post("/upload", s.requireUser, s.admitUpload, s.uploadFiles)
		get("/stream/:id", s.streamFile)
		get("/:id/download", s.downloadFile)
		get("/:id/thumbnail", s.fileThumbnail)
		g.Get("/zip", s.optionalUser, s.zipFiles) // before /:id, which would take "zip" for an id
		get("/:id", s.fileDetail)
		g.Delete("/:id", s.requireUser, s.deleteFile)
		g.Patch("/:id", s.requireUser, s.patchFile)
	}
}

// specListItem is a file as the spec's list path, /api/api/files, names
// it (the spec's File list item). Every other answer shows a file as
// files.Info; api/openapi.yaml states the rule.
type specListItem struct {
	ID           uint64    `json:"id"`
	OriginalName string    `json:"original_name"`
	Size         int64     `json:"size"`
	MimeType     string    `json:"mime_type"`
	Type         string    `json:"type"`
	UploadedAt   time.Time `json:"uploaded_at"`
	// ThumbnailURL is the design's thumbnail_url: an image's thumbnail, once made.
	ThumbnailURL string `json:"thumbnail_url,omitempty"`
}

func (s *Server) specListItems(fs []files.File) []specListItem {
	out := make([]specListItem, 0, len(fs))
	for _, f := range fs {
		out = append(out, specListItem{ID: f.ID, OriginalName: f.OriginalName, Size: f.Size, MimeType: f.MimeType, Type: f.Type,
			UploadedAt: f.UploadedAt, ThumbnailURL: s.thumbnailURL(f)})
	}
	return out
}

// infos is fs as files.Info, with their thumbnails' URLs, and which of
// them viewer uploaded.
func (s *Server) infos(fs []files.File, withHash bool, viewer *files.Viewer) []files.Info {
	out := files.Infos(fs, withHash)
	for i := range out {
		out[i].ThumbnailURL = s.thumbnailURL(fs[i])
		out[i].Mine = viewer != nil && viewer.ID != 0 && fs[i].UploaderID == viewer.ID
	}
	return out
}

// File list paging (GET /api/files?type=&page=&limit=).
const (
	// defaultFilesPerGroup is the page size when the client names none:
	// the spec's client shows one list per group and no pager, so the first
	// page is generous; past it the totals tell a client to ask for more.
	defaultFilesPerGroup = 100
	maxFilesPerGroup     = 500
)

// filesPageRule: a limit above maxFilesPerGroup is capped.
var filesPageRule = paging.Rule{Default: defaultFilesPerGroup, Max: maxFilesPerGroup, Over: paging.Cap}

// listFiles answers the file list in the spec's shape — one list per group,
// newest first — a page at a time per group, with each group's total. With
// ?type=<group> only that group's page is filled; with ?mine=true (signed
// in) only the caller's own uploads are listed. It is answered from the
// files service's in-memory index. The canonical path shows files as
// files.Info; the spec's path (canonical false) with the spec's names.
func (s *Server) listFiles(canonical bool) fiber.Handler {
	cache := &s.specFileList
	if canonical {
		cache = &s.fileList
	}
	return func(c fiber.Ctx) error { return s.answerFileList(c, canonical, cache) }
}

func (s *Server) answerFileList(c fiber.Ctx, canonical bool, cache *encodedList) error {
	// The plain list (no parameters) is what every visitor of the page
	// asks for: its encoded answer is kept until the list changes.
	// It is kept for guests only: a signed-in account's answer marks its
	// own files (mine) and may show private ones.
	viewer := fileViewer(c)
	plain := c.Request().URI().QueryArgs().Len() == 0 && viewer == nil
	if plain {
		if body, ok := cache.get(s.fileListVersion()); ok {
			c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
			return c.Send(body)
		}
	}
	group := c.Query("type")
	if group != "" && !slices.Contains(files.GroupNames(), group) {
		return NewError(fiber.StatusBadRequest, "type must be one of "+strings.Join(files.GroupNames(), ", "))
	}
	var v store.Validator
	pq := filesPageRule.Check(queryPage(c, &v), &v)
	if err := v.Err(); err != nil {
		return err
	}
	mine := false
	if m := c.Query("mine"); m != "" {
		if m != "true" && m != "false" {
			return store.Invalid("mine", "invalid", "mine must be true or false")
		}
		mine = m == "true"
		if mine && viewer == nil {
			return NewError(fiber.StatusUnauthorized, "sign in to list your own files")
		}
	}
	page1 := func(g string) []files.File {
		if mine {
			fs, _ := s.svc.Files.PageOf(viewer.ID, g, pq.Page, pq.Limit)
			return fs
		}
		fs, _ := s.svc.Files.PageFor(viewer, g, pq.Page, pq.Limit)
		return fs
	}
	totals := s.svc.Files.TotalsFor(viewer)
	if mine {
		totals = s.svc.Files.TotalsOf(viewer.ID)
	}
	out := fiber.Map{"totals": totals}
	for _, g := range files.GroupNames() {
		var fs []files.File
		if group == "" || group == g {
			fs = page1(g)
		}
		if canonical {
			out[g] = s.infos(fs, false, viewer)
		} else {
			out[g] = s.specListItems(fs)
		}
	}
	if !plain {
		return c.JSON(out)
	}
	ver := s.fileListVersion() // read before building: a change meanwhile only makes the entry stale sooner
	body, err := json.Marshal(out)
	if err != nil {
		return err
	}
	cache.put(ver, body)
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
	return c.Send(body)
}

// listVersion names one state of the file list as answered: the files and
// which of them have thumbnails (made in the background after an upload).
type listVersion struct{ files, thumbs uint64 }

func (s *Server) fileListVersion() listVersion {
	v := listVersion{files: s.svc.Files.ListVersion()}
	if s.svc.Thumbs != nil {
		v.thumbs = s.svc.Thumbs.Version()
	}
	return v
}

// encodedList keeps the last encoded plain file list and the list version
// it was built from.
type encodedList struct {
	mu      sync.RWMutex
	version listVersion
	body    []byte
}

func (e *encodedList) get(version listVersion) ([]byte, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.body, e.body != nil && e.version == version
}

func (e *encodedList) put(version listVersion, body []byte) {
	e.mu.Lock()
	e.version, e.body = version, body
	e.mu.Unlock()
}

// fileIDParam reads :id; ids are positive numbers and nothing else, so no
// path-like value ever reaches the service.
func fileIDParam(c fiber.Ctx) (uint64, error) {
	raw := c.Params("id")
	id, err := strconv.ParseUint(raw, 10, 64)
	if err != nil || id == 0 || raw[0] == '+' {
		return 0, NewError(fiber.StatusBadRequest, "file id must be a positive number")
	}
	return id, nil
}

// visibleFile is file id's record for the caller: the one rule of who may
// see a file, shared by its detail, its bytes and its thumbnail — a private
// file is seen by its uploader and admins only; anyone else gets
// store.ErrNotFound (files.Service.GetFor).
func (s *Server) visibleFile(c fiber.Ctx, id uint64) (*files.File, error) {
	return s.svc.Files.GetFor(fileViewer(c), id)
}

func (s *Server) fileDetail(c fiber.Ctx) error {
	id, err := fileIDParam(c)
	if err != nil {
		return err
	}
	f, err := s.visibleFile(c, id)
	if err != nil {
		return err
	}
	in := s.infos([]files.File{*f}, true, fileViewer(c))[0]
	in.ThumbnailURL = s.thumbnailURL(*f)
	return c.JSON(in)
}

// deleteFile answers DELETE /api/files/:id for the file's uploader or an
// admin.
func (s *Server) deleteFile(c fiber.Ctx) error {
	id, err := fileIDParam(c)
	if err != nil {
		return err
	}
	if _, err := s.hub.DeleteFile(c.Context(), s.actor(c), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) uploadFiles(c fiber.Ctx) error {
	svc := s.svc.Files
	body, err := s.uploadBody(c, "upload", svc.MaxBytes())
	if err != nil {
		return err
	}
	if err := svc.CheckSpace(max(body.announced, 0)); err != nil {
		return err
	}
	mt, params, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return NewError(fiber.StatusBadRequest, "expected a multipart/form-data body with one or more \"files\" fields")
	}
	id := currentUser(c)
	saved, err := svc.SaveMultipart(c.Context(), body, params["boundary"], "files", s.cfg.Files.MaxPartsPerRequest,
		files.Uploader{ID: id.ID, Name: id.Email})
	var merr *files.MultipartError
	switch {
	case err == nil:
	case body.tooLarge(err) != nil:
		return body.tooLarge(err)
	case errors.Is(err, files.ErrTooManyParts):
		return NewError(fiber.StatusBadRequest, "too many parts in the upload: at most "+
			strconv.Itoa(s.cfg.Files.MaxPartsPerRequest)+" per request")
	case errors.Is(err, errUploadTooSlow):
		return s.uploadTooSlow(c)
	case errors.Is(err, files.ErrNoFiles):
		return NewError(fiber.StatusBadRequest, "no files in the upload: send one or more \"files\" fields")
	case errors.As(err, &merr):
		s.logFor(c).Info("upload aborted", slog.String("ip", s.clientIP(c).String()), slog.Any("err", err))
		return NewError(fiber.StatusBadRequest, "the upload was cut off or is not a well-formed multipart body")
	default:
		return err
	}
	for _, f := range saved {
		if s.metrics != nil {
			s.metrics.uploaded.Add(float64(f.Size))
		}
		s.logFor(c).Info("file uploaded", slog.Uint64("id", f.ID), slog.String("name", f.OriginalName),
			slog.Int64("size", f.Size), slog.String("by", id.Email))
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"files": s.infos(saved, true, fileViewer(c))})
}

func (s *Server) downloadFile(c fiber.Ctx) error { return s.sendUserFile(c, false) }

func (s *Server) streamFile(c fiber.Ctx) error { return s.sendUserFile(c, true) }

// sendUserFile answers with a stored file's bytes through the one caching
// path (sendContent): the whole file, or one byte range (206; 416 when it
// starts at or past the end), revalidated by its hash and upload time. The
// bytes go out with sendfile from the file opened inside the uploads
// directory, so memory stays flat for any size. inlineIfSafe lets
// allow-listed types display in the browser (the stream route); everything
// else is an attachment.
func (s *Server) sendUserFile(c fiber.Ctx, inlineIfSafe bool) error {
	h := &c.Response().Header
	// Set first, so that errors on these routes (400, 404, 416) carry them too.
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", userFileCSP)
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	id, err := fileIDParam(c)
	if err != nil {
		return err
	}
	vf, err := s.visibleFile(c, id)
	if err != nil {
		return err
	}
	if done, err := s.redirectUserFile(c, vf, inlineIfSafe, nil); done {
		return err
	}
	f, fh, err := s.svc.Files.Open(id)
	if err != nil {
		if _, gerr := s.svc.Files.Get(id); gerr == nil {
			// The record exists but its bytes do not, are not a regular file,
			// or sit behind a link out of uploads/: say so in the log only.
			s.logFor(c).Warn("file content unavailable", slog.Uint64("id", id), slog.Any("err", err))
		}
		return err
	}
	return s.sendOpenedFile(c, f, fh, inlineIfSafe, nil)
}

// sendOpenedFile answers with the bytes of f, already opened as fh (the
// file routes and share links): headers, caching, Range and the metrics.
// beforeBytes, when not nil, runs only when the answer carries the bytes
// (see content.beforeBytes).
func (s *Server) sendOpenedFile(c fiber.Ctx, f *files.File, fh io.ReadSeekCloser, inlineIfSafe bool, beforeBytes func() error) error {
	h := &c.Response().Header
	disposition, ctype := userFileHeaders(f, inlineIfSafe)
	h.Set(fiber.HeaderContentDisposition, contentDisposition(disposition, f.OriginalName))
	err := sendContent(c, &content{
		contentType: ctype, cacheControl: "private, no-cache",
		etag: `"` + f.SHA256 + `"`, lastModified: f.UploadedAt, ranges: true,
		identity: payload{size: f.Size, file: fh}, beforeBytes: beforeBytes,
	})
	if err != nil {
		h.Del(fiber.HeaderContentDisposition) // the error is JSON to read, not a file to save
		return err
	}
	s.countDownload(c)
	return nil
}

// userFileHeaders is how a stored file is described to the client: inline
// only when asked for and its type is on the allow-list, and a type that
// could run script is sent as bytes.
func userFileHeaders(f *files.File, inlineIfSafe bool) (disposition, ctype string) {
	base := mimeBase(f.MimeType)
	disposition = "attachment"
	if inlineIfSafe && inlineTypes[base] {
		disposition = "inline"
	}
	ctype = f.MimeType
	if activeTypes[base] || ctype == "" {
		ctype = "application/octet-stream"
	}
	return disposition, ctype
}

// contentDisposition builds an RFC 6266 header value: an ASCII-only
// filename (quotes, backslashes, control characters and '%' removed,
// other non-ASCII replaced) for old clients, and filename* with the exact
// UTF-8 name percent-encoded (RFC 8187) for everyone else. Whatever the
// stored name holds, the result is one well-formed header.
func contentDisposition(kind, name string) string {
	var ascii, ext strings.Builder
	for _, r := range name {
		switch {
		case r < 0x20 || r == 0x7f || r == '"' || r == '\\':
		case r == '%' || r > 0x7e:
			ascii.WriteByte('_')
		default:
			ascii.WriteRune(r)
		}
	}
	for _, b := range []byte(name) {
		if isAttrChar(b) {
			ext.WriteByte(b)
		} else if b >= 0x20 && b != 0x7f {
			ext.WriteString("%" + strings.ToUpper(strconv.FormatUint(uint64(b)|0x100, 16)[1:]))
		}
	}
	fallback := strings.TrimSpace(ascii.String())
	if fallback == "" {
		fallback = "download"
	}
	return kind + `; filename="` + fallback + `"; filename*=UTF-8''` + ext.String()
}

// isAttrChar reports RFC 8187 attr-char: the bytes that need no encoding.
func isAttrChar(b byte) bool {
	switch {
	case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b >= '0' && b <= '9':
		return true
	}
	return strings.IndexByte("!#$&+-.^_`|~", b) >= 0
}
