package server

import (
	"errors"
	"io"
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/storage"
)

// With storage.s3.serve_direct on, a download of bytes kept on S3 — a
// public or shared file, the owner's own private file, a release file — is
// answered with a 307 to a presigned URL at the object store instead of
// the bytes passing through devhub. Everything before the bytes stays
// here: the visibility, password and link checks, the 304 and 416 answers,
// and the counting (a share link's use, a release's daily count), which
// runs exactly when the bytes would have been sent. The store's answer
// carries the attachment disposition with the file's name and the type
// devhub would have sent.
//
// What stays with devhub: the SPA's fetch() of a file (see serveDirect), HEAD (a presigned URL signs one method, GET, and
// the headers are cheap here), inline answers (previews shown in the page
// need the sandbox CSP and nosniff on this origin; thumbnails and release
// images are small and cached), and files on the local backend.

// presignExpiry is how long a download's presigned URL answers: time to
// follow the redirect and resume a broken download for a while, short
// enough that a copied link soon stops working. A variable so that tests
// can watch one expire.
var presignExpiry = 5 * time.Minute

// serveDirect reports whether c may be answered with a redirect to the
// object store: a GET that is a navigation (a link, the address bar, a
// download manager, curl — browsers say Sec-Fetch-Mode: navigate, other
// clients nothing). The SPA's own fetch() of a file (cors, same-origin)
// gets the bytes from devhub: its CSP (connect-src 'self') would block the
// store's origin, and a bucket need not allow CORS.
func (s *Server) serveDirect(c fiber.Ctx) bool {
	if !s.cfg.Storage.S3.ServeDirect || c.Request().Header.IsHead() {
		return false
	}
	mode := c.Get("Sec-Fetch-Mode")
	return mode == "" || mode == "navigate"
}

// notOpened is the payload opener of an answer that redirects: sendContent
// never opens it for a GET.
func notOpened() (io.ReadCloser, error) {
	return nil, errors.New("a redirected download has no local bytes")
}

// redirectUserFile answers c with a redirect to f's bytes at the object
// store when that applies (done true, with sendContent's error); otherwise
// the caller serves the bytes itself. f has passed the caller's checks.
func (s *Server) redirectUserFile(c fiber.Ctx, f *files.File, inlineIfSafe bool, beforeBytes func() error) (done bool, err error) {
	if !s.serveDirect(c) {
		return false, nil
	}
	disposition, ctype := userFileHeaders(f, inlineIfSafe)
	if disposition != "attachment" {
		return false, nil
	}
	cd := contentDisposition(disposition, f.OriginalName)
	u, err := s.svc.Files.PresignGet(c.Context(), f, presignExpiry, storage.ResponseHeaders{ContentType: ctype, ContentDisposition: cd})
	if err != nil {
		// The bytes path says what is wrong (404, 410) the way it always has.
		s.logFor(c).Warn("presigned download unavailable", slog.Uint64("id", f.ID), slog.Any("err", err))
		return false, nil
	}
	if u == nil {
		return false, nil // a file on the local backend
	}
	h := &c.Response().Header
	h.Set(fiber.HeaderContentDisposition, cd)
	err = sendContent(c, &content{
		contentType: ctype, cacheControl: "private, no-cache",
		etag: `"` + f.SHA256 + `"`, lastModified: f.UploadedAt, ranges: true,
		identity: payload{size: f.Size, open: notOpened}, beforeBytes: beforeBytes, redirect: u.String(),
	})
	if err != nil {
		h.Del(fiber.HeaderContentDisposition)
		return true, err
	}
	s.countDownload(c)
	return true, nil
}

// presignDownload is the presigned URL of a release file's bytes when the
// request may be redirected to the store, else "" (the bytes are served
// here, which also reports a missing object).
func (s *Server) presignDownload(c fiber.Ctx, key string, size int64, disposition string) string {
	if !s.serveDirect(c) {
		return ""
	}
	u, err := s.svc.Downloads.PresignGet(c.Context(), key, size, presignExpiry,
		storage.ResponseHeaders{ContentType: "application/octet-stream", ContentDisposition: disposition})
	if err != nil {
		s.logFor(c).Warn("presigned download unavailable", slog.String("key", key), slog.Any("err", err))
		return ""
	}
	if u == nil {
		return ""
	}
	return u.String()
}
