package server

import (
	"errors"
	"strconv"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/gamecontrols"
	"github.com/devhub/devhub/pkg/roms"
	"github.com/devhub/devhub/pkg/store"
)

// A signed-in player's controls for a console (keyboard keys and gamepad
// buttons to joypad buttons) at /api/games/controls/:console: GET answers the
// mapping (null maps: the defaults), PUT replaces it, DELETE goes back to the
// defaults. The path names a console, not a game, because a mapping is the
// player's for every game of that console; "controls" cannot be a game id
// (ids are numbers), so it does not collide with /api/games/:gameId/….

func (s *Server) mountGameControls(g fiber.Router) {
	g.Get("/controls/:console", s.requireUser, s.getControls)
	g.Put("/controls/:console", s.requireUser, s.putControls)
	g.Delete("/controls/:console", s.requireUser, s.resetControls)
}

// consoleParam resolves :console (an id or alias) to the library's console
// id, or 404.
func consoleParam(c fiber.Ctx) (string, error) {
	con, ok := roms.LookupConsole(c.Params("console"))
	if !ok {
		return "", NewError(fiber.StatusNotFound, "unknown console")
	}
	return con.ID, nil
}

func (s *Server) getControls(c fiber.Ctx) error {
	console, err := consoleParam(c)
	if err != nil {
		return err
	}
	m, err := s.svc.Controls.Get(currentUser(c).ID, console)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(m)
}

func (s *Server) putControls(c fiber.Ctx) error {
	console, err := consoleParam(c)
	if err != nil {
		return err
	}
	if len(c.Body()) > gamecontrols.MaxBytes {
		return store.Refuse(store.KindTooLarge, "a controls mapping is at most "+strconv.Itoa(gamecontrols.MaxBytes)+" bytes")
	}
	var in struct {
		Keys    map[string]int `json:"keys"`
		Gamepad map[string]int `json:"gamepad"`
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	m, err := s.svc.Controls.Put(c.Context(), currentUser(c).ID, console, gamecontrols.Mapping{Keys: in.Keys, Gamepad: in.Gamepad})
	if errors.Is(err, gamecontrols.ErrBadConsole) {
		return NewError(fiber.StatusNotFound, "unknown console")
	}
	if err != nil {
		return err
	}
	return c.JSON(m)
}

func (s *Server) resetControls(c fiber.Ctx) error {
	console, err := consoleParam(c)
	if err != nil {
		return err
	}
	if err := s.svc.Controls.Reset(c.Context(), currentUser(c).ID, console); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
