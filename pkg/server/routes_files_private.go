package server

import (
	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/usecase"
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
	return s.hub.FileForChange(s.actor(c), id)
}

// patchFile answers PATCH /api/files/:id {name?, visibility?}: the
// uploader or an admin renames a file, makes it public or private, or both.
func (s *Server) patchFile(c fiber.Ctx) error {
	id, err := fileIDParam(c)
	if err != nil {
		return err
	}
	var body struct {
		Name       *string `json:"name"`
		Visibility *string `json:"visibility"`
	}
	if err := bindJSON(c, &body); err != nil {
		return err
	}
	f, err := s.hub.ChangeFile(c.Context(), s.actor(c), id, usecase.FileChange{Name: body.Name, Visibility: body.Visibility})
	if err != nil {
		return err
	}
	return c.JSON(s.infos([]files.File{*f}, true, fileViewer(c))[0])
}
