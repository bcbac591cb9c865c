package server

import (
	"errors"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/gameshelf"
	"github.com/devhub/devhub/pkg/gamestates"
	"github.com/devhub/devhub/pkg/roms"
	"github.com/devhub/devhub/pkg/store"
)

// The player's own games data under /api/games, for signed-in users: save
// states (slots auto and 1–5, each with the core it was made with and a
// screenshot at the sibling .../screenshot), favourites and the recently
// played list. Guests keep the same things in their browser.

// statePutPath is a state's PUT path: its body streams to disk under the
// states' own size limit instead of the API's body limit.
var statePutPath = regexp.MustCompile(`^/api/games/[^/]+/states/[^/]+$`)

// romUploadPath and coverPath are the owner's uploads, streamed to disk
// under their own limits.
var romUploadPath = regexp.MustCompile(`^/api/games/roms$|^/api/games/[^/]+/cover$`)

// maxCoverBytes bounds one uploaded cover image.
const maxCoverBytes = 10 << 20

func (s *Server) mountGames(api fiber.Router) {
	g := api.Group("/games")
	s.mountGameControls(g)
	s.allowStreamingBodyMatch(romUploadPath.MatchString)
	g.Post("/roms", s.requireAdmin, s.holdUploadSlot, s.uploadROM)
	g.Put("/:gameId/cover", s.requireAdmin, s.holdUploadSlot, s.uploadCover)
	g.Delete("/:gameId", s.requireAdmin, s.removeROM)
	g.Get("/me", s.requireUser, s.gamesMe)
	g.Put("/:gameId/favourite", s.requireUser, s.setFavourite(true))
	g.Delete("/:gameId/favourite", s.requireUser, s.setFavourite(false))
	g.Post("/:gameId/played", s.requireUser, s.gamePlayed)
	s.allowStreamingBodyMatch(statePutPath.MatchString)
	g.Get("/:gameId/states", s.requireUser, s.listStates)
	g.Put("/:gameId/states/:slot", s.requireUser, s.putState)
	g.Get("/:gameId/states/:slot", s.requireUser, s.getState)
	g.Delete("/:gameId/states/:slot", s.requireUser, s.deleteState)
	g.Put("/:gameId/states/:slot/screenshot", s.requireUser, s.putStateScreenshot)
	g.Get("/:gameId/states/:slot/screenshot", s.requireUser, s.getStateScreenshot)
}

// gameParam resolves :gameId to a game of the library, or 404.
func (s *Server) gameParam(c fiber.Ctx) (roms.Game, error) {
	id, err := strconv.ParseUint(c.Params("gameId"), 10, 64)
	if err != nil {
		return roms.Game{}, NewError(fiber.StatusNotFound, "unknown game")
	}
	g, err := s.svc.Roms.Get(id)
	if err != nil {
		return roms.Game{}, NewError(fiber.StatusNotFound, "unknown game")
	}
	return g, nil
}

// slotParam checks :slot (auto or 1–5).
func slotParam(c fiber.Ctx) (string, error) {
	slot := c.Params("slot")
	if !gamestates.ValidSlot(slot) {
		return "", NewError(fiber.StatusBadRequest, "slot must be auto or 1-5")
	}
	return slot, nil
}

// stateError maps the states package's errors to answers.
func stateError(err error, limit int64) error {
	var wc *gamestates.WrongCoreError
	switch {
	case errors.As(err, &wc):
		e := NewError(fiber.StatusConflict, wc.Error())
		e.Data["core"] = store.FieldError{Code: "wrong_core", Message: wc.Have}
		return e
	case errors.Is(err, gamestates.ErrNotFound):
		return NewError(fiber.StatusNotFound, err.Error())
	case store.KindOf(err) == store.KindTooLarge:
		return store.TooLarge("save state", limit)
	case errors.Is(err, gamestates.ErrCorrupt):
		e := NewError(fiber.StatusConflict, "this save state is damaged and cannot be loaded")
		e.Data["state"] = store.FieldError{Code: "corrupt", Message: err.Error()}
		return e
	case errors.Is(err, gamestates.ErrBadCore), errors.Is(err, gamestates.ErrBadSlot), errors.Is(err, gamestates.ErrBadScreenshot):
		return NewError(fiber.StatusBadRequest, err.Error())
	case errors.Is(err, io.ErrUnexpectedEOF):
		return NewError(fiber.StatusBadRequest, "the save state was cut off; the slot keeps what it had")
	}
	return err
}

func (s *Server) listStates(c fiber.Ctx) error {
	g, err := s.gameParam(c)
	if err != nil {
		return err
	}
	list, err := s.svc.GameStates.List(currentUser(c).ID, g.ID)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(list)
}

// putState stores the raw body as the slot's state. The core it was made
// with comes in X-Emulator-Core and is given back with the state, so a
// player never loads a state into another core.
func (s *Server) putState(c fiber.Ctx) error {
	g, slot, err := s.gameSlotParams(c)
	if err != nil {
		return err
	}
	core := c.Get("X-Emulator-Core")
	if !gamestates.ValidCore(core) {
		return NewError(fiber.StatusBadRequest, "X-Emulator-Core must name the libretro core the state was made with")
	}
	limit := s.svc.GameStates.MaxBytes()
	body, err := s.uploadBody(c, "save state", limit)
	if err != nil {
		return err
	}
	if err := s.svc.GameStates.CheckSpace(max(body.announced, 0)); err != nil {
		return err
	}
	if _, err := s.svc.GameStates.Put(c.Context(), currentUser(c).ID, g.ID, slot, core, body); err != nil {
		if errors.Is(err, errUploadTooSlow) {
			return s.uploadTooSlow(c)
		}
		return stateError(err, limit)
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) getState(c fiber.Ctx) error {
	g, slot, err := s.gameSlotParams(c)
	if err != nil {
		return err
	}
	want := c.Query("core")
	if want != "" && !gamestates.ValidCore(want) {
		return NewError(fiber.StatusBadRequest, "core must be a libretro core name")
	}
	data, info, err := s.svc.GameStates.Get(currentUser(c).ID, g.ID, slot, want)
	if err != nil {
		return stateError(err, s.svc.GameStates.MaxBytes())
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set("X-Emulator-Core", info.Core)
	c.Set(fiber.HeaderLastModified, info.UpdatedAt.UTC().Format(http.TimeFormat))
	c.Set(fiber.HeaderContentType, "application/octet-stream")
	return c.Send(data)
}

func (s *Server) deleteState(c fiber.Ctx) error {
	g, slot, err := s.gameSlotParams(c)
	if err != nil {
		return err
	}
	if err := s.svc.GameStates.Delete(c.Context(), currentUser(c).ID, g.ID, slot); err != nil {
		return stateError(err, 0)
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) putStateScreenshot(c fiber.Ctx) error {
	g, slot, err := s.gameSlotParams(c)
	if err != nil {
		return err
	}
	if err := s.svc.GameStates.PutScreenshot(c.Context(), currentUser(c).ID, g.ID, slot, c.Body()); err != nil {
		return stateError(err, gamestates.MaxScreenshotBytes)
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) getStateScreenshot(c fiber.Ctx) error {
	g, slot, err := s.gameSlotParams(c)
	if err != nil {
		return err
	}
	png, err := s.svc.GameStates.Screenshot(currentUser(c).ID, g.ID, slot)
	if err != nil {
		return stateError(err, 0)
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set(fiber.HeaderContentType, "image/png")
	return c.Send(png)
}

// shelfGame is a game of the player's shelf with when it was added or last
// started.
type shelfGame struct {
	roms.Game
	At time.Time `json:"at"`
}

// gamesMe answers the caller's favourites and recently played games, newest
// first; games removed from the library since are left out.
func (s *Server) gamesMe(c fiber.Ctx) error {
	sh, err := s.svc.Shelf.Get(currentUser(c).ID)
	if err != nil {
		return err
	}
	join := func(list []gameshelf.Entry) []shelfGame {
		out := []shelfGame{}
		for _, e := range list {
			if g, err := s.svc.Roms.Get(e.GameID); err == nil {
				out = append(out, shelfGame{Game: g, At: e.At})
			}
		}
		return out
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(fiber.Map{"favourites": join(sh.Favourites), "recent": join(sh.Recent)})
}

func (s *Server) setFavourite(on bool) fiber.Handler {
	return func(c fiber.Ctx) error {
		g, err := s.gameParam(c)
		if err != nil {
			return err
		}
		if err := s.svc.Shelf.SetFavourite(c.Context(), currentUser(c).ID, g.ID, on); err != nil {
			if errors.Is(err, gameshelf.ErrTooMany) {
				return NewError(fiber.StatusConflict, "at most "+strconv.Itoa(gameshelf.MaxFavourites)+" favourites")
			}
			return err
		}
		return c.SendStatus(fiber.StatusNoContent)
	}
}

// gamePlayed records that the caller started a game (the player calls it
// when a game starts), for the "continue playing" row.
func (s *Server) gamePlayed(c fiber.Ctx) error {
	g, err := s.gameParam(c)
	if err != nil {
		return err
	}
	if err := s.svc.Shelf.Played(c.Context(), currentUser(c).ID, g.ID); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// gameSlotParams is the game and the save slot a states route names.
func (s *Server) gameSlotParams(c fiber.Ctx) (roms.Game, string, error) {
	g, err := s.gameParam(c)
	if err != nil {
		return g, "", err
	}
	slot, err := slotParam(c)
	return g, slot, err
}

// uploadROM adds a ROM from a script: the raw body is the file, ?file= its
// name, ?console= its console (else the one console of its extension),
// ?name= an optional display name. Admins only. The games page sends ROMs
// through the tus endpoint instead (target "rom", routes_tus.go: resumable,
// with progress); both end in roms.Service.Upload.
//
// It goes through the file cloud's upload path up to the point where the
// bytes become a file record: the body streams past server.body_limit
// (allowStreamingBodyMatch, as /api/files/upload and the tus PATCH do), is
// read through uploadBody (held to emulator.max_rom_bytes and to
// files.min_upload_rate, as the multipart upload is to its own limit),
// takes a place among the uploads in progress (holdUploadSlot, shared with
// both file-cloud routes, so ROMs and files together never exceed
// files.max_concurrent_uploads), and a refused body is left to the body
// guard the same way (guardBody). What differs is the end: the
// bytes go to roms.Service.Upload, which checks the name and the console's
// extensions before reading a byte and indexes the game, instead of
// files.Service. The start rate (files.uploads_per_minute) is not applied:
// one dropped folder of ROMs is one request per file, and only admins get
// here.
func (s *Server) uploadROM(c fiber.Ctx) error {
	body, err := s.uploadBody(c, "ROM", s.cfg.Emulator.MaxROMBytes)
	if err != nil {
		return err
	}
	if err := s.svc.Roms.CheckSpace(max(body.announced, 0)); err != nil {
		return err
	}
	replace, bad := replaceFlag(c.Query("replace"))
	if bad != nil {
		return bad
	}
	g, err := s.svc.Roms.Upload(c.Context(), roms.UploadInput{FileName: c.Query("file"), Console: c.Query("console"),
		Name: c.Query("name"), Body: body, MaxBytes: s.cfg.Emulator.MaxROMBytes, Replace: replace})
	if err != nil {
		return s.bodyError(c, err, body)
	}
	return c.Status(fiber.StatusCreated).JSON(g)
}

// replaceFlag reads a ROM upload's replace option (?replace= of POST
// /api/games/roms, the "replace" metadata of a tus ROM upload): true puts
// the ROM in place of one of the same name, empty or false refuses that
// name with romExists.
func replaceFlag(raw string) (bool, *APIError) {
	switch raw {
	case "", "false", "0":
		return false, nil
	case "true", "1":
		return true, nil
	}
	return false, validationError(store.Invalid("replace", "invalid", "replace must be true or false"))
}

// romExists is the 409 of a ROM whose console folder already holds one of
// that file name: data.file.code "exists" tells a client it may send it
// again under another name, or with replace.
func romExists(e *roms.ExistsError) *APIError {
	apiErr := NewError(fiber.StatusConflict, e.Error())
	apiErr.Data["file"] = store.FieldError{Code: "exists",
		Message: "a ROM named " + strconv.Quote(e.FileName) + " is already in " + e.Console + "/; send it under another name, or with replace to put it in its place"}
	return apiErr
}

// bodyError answers an upload of a raw body (a ROM, a cover, an article
// image, an avatar) that failed for a cause the file cloud's upload answers
// too, the same way (413 over the limit, 408 too slow, 400 cut off); other
// errors go to the error handler.
func (s *Server) bodyError(c fiber.Ctx, err error, body *limitedBody) error {
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return NewError(fiber.StatusBadRequest, "the upload was cut off; nothing was kept")
	case body.tooLarge(err) != nil:
		return body.tooLarge(err)
	case errors.Is(err, errUploadTooSlow):
		return s.uploadTooSlow(c)
	}
	return err
}

// uploadCover sets a game's cover from the raw body; ?file= names it (its
// extension says png, jpg or webp). Admins only.
func (s *Server) uploadCover(c fiber.Ctx) error {
	g, err := s.gameParam(c)
	if err != nil {
		return err
	}
	body, err := s.uploadBody(c, "cover", maxCoverBytes)
	if err != nil {
		return err
	}
	if err := s.svc.Roms.CheckSpace(max(body.announced, 0)); err != nil {
		return err
	}
	g, err = s.svc.Roms.SetCover(c.Context(), g.ID, c.Query("file"), body, maxCoverBytes)
	if err != nil {
		return s.bodyError(c, err, body)
	}
	return c.JSON(g)
}

// removeROM deletes a ROM (and its cover) from roms/. Admins only.
func (s *Server) removeROM(c fiber.Ctx) error {
	g, err := s.gameParam(c)
	if err != nil {
		return err
	}
	if _, err := s.svc.Roms.Remove(c.Context(), g.ID); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
