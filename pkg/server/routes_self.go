package server

import (
	"archive/zip"
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/internal/ratelimit"
	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/usecase"
)

// An account's own settings (usecase/self.go): the display name, the
// e-mail, the avatar, a copy of its data and deleting it. g is the
// /api/auth group.
func (s *Server) mountSelf(g fiber.Router) {
	g.Patch("/profile", s.requireSession, s.patchOwnProfile)
	g.Delete("/profile", s.requireSession, s.deleteOwnAccount)
	g.Post("/email", s.requireSession, s.changeOwnEmail)
	s.allowStreamingBody("/api/auth/profile/avatar")
	g.Post("/profile/avatar", s.requireSession, s.admitUpload, s.setOwnAvatar)
	g.Delete("/profile/avatar", s.requireSession, s.removeOwnAvatar)
	g.Get("/export", s.requireSession, s.exportOwnData)
}

// mountAvatars serves accounts' avatars to everyone: they are shown beside
// comments and messages that guests read too.
func (s *Server) mountAvatars(api fiber.Router) {
	api.Get("/users/:id/avatar", s.userAvatar)
}

func (s *Server) patchOwnProfile(c fiber.Ctx) error {
	var in struct {
		Name *string `json:"name"`
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	if in.Name == nil {
		return NewError(fiber.StatusBadRequest, "name is required")
	}
	u, err := s.hub.SetOwnName(c.Context(), s.actor(c), *in.Name)
	if err != nil {
		return err
	}
	return c.JSON(u)
}

func (s *Server) changeOwnEmail(c fiber.Ctx) error {
	var in struct {
		Email    string `json:"email"`
		Password string `json:"password"`
		Code     string `json:"code"`
		// Lang is the language of the confirmation letter, when one is sent.
		Lang string `json:"lang"`
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	actor := s.actor(c)
	actor.Lang = in.Lang
	res, err := s.hub.ChangeOwnEmail(c.Context(), actor, in.Email, auth.Proof{Password: in.Password, Code: in.Code}, s.authClient(c))
	if err != nil {
		return err
	}
	return c.JSON(res)
}

// setOwnAvatar takes the picture as the request body (its type is read
// from its bytes, not from Content-Type).
func (s *Server) setOwnAvatar(c fiber.Ctx) error {
	body, err := s.uploadBody(c, "avatar", usecase.MaxAvatarBytes)
	if err != nil {
		return err
	}
	data, err := io.ReadAll(body)
	switch {
	case err == nil:
	case body.tooLarge(err) != nil:
		return body.tooLarge(err)
	case errors.Is(err, errUploadTooSlow):
		return s.uploadTooSlow(c)
	default:
		return NewError(fiber.StatusBadRequest, "could not read the picture")
	}
	u, err := s.hub.SetOwnAvatar(c.Context(), s.actor(c), data)
	if err != nil {
		return err
	}
	return c.JSON(u)
}

func (s *Server) removeOwnAvatar(c fiber.Ctx) error {
	u, err := s.hub.RemoveOwnAvatar(c.Context(), s.actor(c))
	if err != nil {
		return err
	}
	return c.JSON(u)
}

func (s *Server) userAvatar(c fiber.Ctx) error {
	id, err := strconv.ParseUint(c.Params("id"), 10, 64)
	if err != nil || id == 0 {
		return NewError(fiber.StatusBadRequest, "user id must be a positive number")
	}
	data, err := s.svc.Auth.Avatar(id)
	if err != nil {
		return err
	}
	// The URL carries the avatar's version (auth.AvatarURL): a new avatar
	// is a new URL, so this one may be kept for good.
	return sendContent(c, &content{contentType: "image/jpeg", cacheControl: cacheImmutable, etag: etagOf(data), identity: memory(data)})
}

func (s *Server) deleteOwnAccount(c fiber.Ctx) error {
	var in struct {
		Password    string `json:"password"`
		Code        string `json:"code"`
		DeleteFiles *bool  `json:"deleteFiles"`
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	if in.DeleteFiles == nil {
		return NewError(fiber.StatusBadRequest, "deleteFiles is required: true deletes your files, false passes them to the administrators")
	}
	if _, err := s.hub.DeleteOwnAccount(c.Context(), s.actor(c), auth.Proof{Password: in.Password, Code: in.Code}, *in.DeleteFiles, s.authClient(c)); err != nil {
		return err
	}
	s.clearRefreshCookie(c)
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) exportOwnData(c fiber.Ctx) error {
	ex, err := s.hub.ExportOwnData(c.Context(), s.actor(c))
	if err != nil {
		return err
	}
	name := "devhub-export-" + time.Now().UTC().Format("2006-01-02") + ".zip"
	return s.sendZip(c, name, ex.WriteZip)
}

// zipFiles answers GET /api/files/zip?ids=1,2,3: the files as one zip,
// streamed. Every id must be a file the caller may read and the set within
// files.zip_max_files and files.zip_max_bytes, else the whole request is
// refused before a byte is sent.
func (s *Server) zipFiles(c fiber.Ctx) error {
	ids, err := parseIDList(c.Query("ids"))
	if err != nil {
		return err
	}
	b, err := s.hub.BundleFiles(s.actor(c), ids, usecase.BundleLimits{MaxFiles: s.cfg.Files.ZipMaxFiles, MaxBytes: s.cfg.Files.ZipMaxBytes})
	if err != nil {
		return err
	}
	return s.sendZip(c, "files.zip", func(ctx context.Context, w io.Writer) error {
		zw := zip.NewWriter(w)
		if err := s.svc.Files.WriteZip(ctx, zw, b.Files, b.Names); err != nil {
			return err
		}
		return zw.Close()
	})
}

// zipBusyRetry is the Retry-After of a zip refused while others are
// packed: a zip of a few files ends within seconds.
const zipBusyRetry = 5 * time.Second

// maxZipIDs bounds the ids a zip request may name before any is looked up.
const maxZipIDs = 10000

func parseIDList(raw string) ([]uint64, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, NewError(fiber.StatusBadRequest, "ids is required: file ids separated by commas")
	}
	parts := strings.Split(raw, ",")
	if len(parts) > maxZipIDs {
		return nil, NewError(fiber.StatusBadRequest, "too many ids")
	}
	out := make([]uint64, 0, len(parts))
	for _, p := range parts {
		id, err := strconv.ParseUint(strings.TrimSpace(p), 10, 64)
		if err != nil || id == 0 {
			return nil, NewError(fiber.StatusBadRequest, "ids must be positive numbers separated by commas")
		}
		out = append(out, id)
	}
	return out, nil
}

// sendZip streams what write produces as a zip attachment named name. The
// answer's status and headers are sent first; a failure after that can
// only cut the download short (a client sees a broken archive, never a
// wrong one), and is logged.
//
// Packing holds a core while it streams, so zips in progress are capped
// (files.zip_max_concurrent in all, files.zip_max_concurrent_per_client
// per account, or per client network for guests): over a cap, a 429 before
// anything is sent. The place is given back when the stream ends, however
// it ends (fasthttp runs the writer to its end even for a client that left).
func (s *Server) sendZip(c fiber.Ctx, name string, write func(ctx context.Context, w io.Writer) error) error {
	key := "n:" + ratelimit.Network(s.clientIP(c), false).String()
	if u := currentUser(c); u != nil && u.ID != 0 {
		key = "u:" + strconv.FormatUint(u.ID, 10)
	}
	release, ok := s.zips.Take(key)
	if !ok {
		return store.TooMany("too many zip downloads in progress, try again shortly", zipBusyRetry)
	}
	c.Set(fiber.HeaderContentType, "application/zip")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set("X-Content-Type-Options", "nosniff")
	log := s.logFor(c)
	ctx := context.WithoutCancel(c.Context())
	return c.SendStreamWriter(func(w *bufio.Writer) {
		defer release()
		if err := write(ctx, w); err != nil {
			log.Warn("zip download cut short", slog.String("name", name), slog.Any("err", err))
			return
		}
		if err := w.Flush(); err != nil {
			log.Info("zip download not finished by the client", slog.Any("err", err))
		}
	})
}
