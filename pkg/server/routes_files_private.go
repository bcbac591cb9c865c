package server

import (
	"log/slog"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/files"
)

// fileViewer is the caller as the files service judges visibility: nil for
// a guest.
func fileViewer(c fiber.Ctx) *files.Viewer {
	id := currentUser(c)
	if id == nil {
		return nil
	}
	return &files.Viewer{ID: id.ID, Admin: id.IsAdmin()}
}

// fileForChange is the file :id if the caller may change it (its uploader
// or an admin): a file the caller cannot see is a 404, one it sees but does
// not own a 403.
func (s *Server) fileForChange(c fiber.Ctx) (*files.File, error) {
	id, err := fileIDParam(c)
	if err != nil {
		return nil, err
	}
	v := fileViewer(c)
	f, err := s.svc.Files.GetFor(v, id)
	if err != nil {
		return nil, err
	}
	if !f.MayChange(v) {
		return nil, NewError(fiber.StatusForbidden, "only the file's uploader or an administrator may change it")
	}
	return f, nil
}

// patchFile answers PATCH /api/files/:id {visibility}: the uploader or an
// admin makes a file public or private.
func (s *Server) patchFile(c fiber.Ctx) error {
	f, err := s.fileForChange(c)
	if err != nil {
		return err
	}
	var body struct {
		Visibility *string `json:"visibility"`
	}
	if err := bindJSON(c, &body); err != nil {
		return err
	}
	if body.Visibility == nil {
		return NewError(fiber.StatusBadRequest, "visibility is required (public or private)")
	}
	f, err = s.svc.Files.SetVisibility(c.Context(), f.ID, *body.Visibility)
	if err != nil {
		return err
	}
	s.logFor(c).Info("file visibility changed", slog.Uint64("id", f.ID), slog.String("visibility", *body.Visibility),
		slog.String("by", currentUser(c).Email))
	return c.JSON(f.Info(true))
}
