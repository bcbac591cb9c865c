package server

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/roms"
	"github.com/devhub/devhub/pkg/roms/cores"
	"github.com/devhub/devhub/pkg/store"
)

// The games area: the ROM service under /romserv (its own envelope
// {success, data, meta} / {success:false, error:{message}}, as the spec's
// emulator service has), ROM and cover bytes from roms/, the emulator cores
// under /cores/, and the emulator page's own CSP.
//
// The player runs in an iframe sandboxed without allow-same-origin, so its
// document has an opaque origin: everything it fetches from this server
// (its module scripts under /assets, the cores, the ROM) is a cross-origin
// request and needs Access-Control-Allow-Origin.

const (
	// cacheROM: ROMs and covers rarely change; a week, then revalidate
	// with the ETag / Last-Modified validators.
	cacheROM = "public, max-age=604800"
	// romFileCSP keeps a file dropped into roms/ (an SVG, an HTML page)
	// from running anything when opened directly.
	romFileCSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox"
	// emulatorCSP is the emulator page's policy: Nostalgist fetches the
	// core JS and imports it from a blob: URL, compiles WebAssembly, and
	// the core may start workers from blob: URLs. "sandbox allow-scripts"
	// gives the page the same opaque origin when it is opened on its own
	// (not in the games page's sandboxed iframe), so a core or ROM never
	// runs with access to the site's storage or the visitor's token.
	emulatorCSP = "default-src 'self'; script-src 'self' blob: 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self' blob: data:; font-src 'self'; " +
		"worker-src 'self' blob:; frame-src 'none'; object-src 'none'; base-uri 'self'; form-action 'none'; " +
		"frame-ancestors 'self'; sandbox allow-scripts"
	// maxRomSearch bounds the games search text, in characters (not bytes:
	// Cyrillic letters take two bytes each).
	maxRomSearch = 200
)

func (s *Server) mountRoms(app *fiber.App, coresFS fs.FS) error {
	cat, err := cores.Load(coresFS, s.cfg.Emulator.ExtraCoresDir)
	if err != nil {
		return fmt.Errorf("load emulator cores: %w", err)
	}

	// The sandboxed player imports the emulator page's module scripts from
	// /assets: they are public, immutable build output.
	app.Use(func(c fiber.Ctx) error {
		if isUnderPrefix(c.Path(), "/assets") {
			c.Set(fiber.HeaderAccessControlAllowOrigin, "*")
		}
		return c.Next()
	})
	app.Get("/emulator.html", s.emulatorPage)
	app.Get("/emulator", s.emulatorPage)
	app.Head("/emulator.html", s.emulatorPage)

	app.Options("/romserv/*", corsPreflight)
	app.Options("/cores/*", corsPreflight)
	app.Get("/romserv/consoles", s.romConsoles)
	app.Get("/romserv/consoles/:id/games", s.romGames)
	app.Get("/cores/index.json", coreRoutes{cat}.index)
	app.Get("/cores/+", coreRoutes{cat}.file)
	// ROM and cover files. This matches on the request's raw path, not the
	// router's normalised one: "/romserv/../etc/passwd" must be refused
	// here instead of being normalised into another route.
	app.Use(func(c fiber.Ctx) error {
		raw := string(c.Request().URI().PathOriginal())
		if raw == "/romserv" || strings.HasPrefix(raw, "/romserv/") || strings.HasPrefix(strings.ToLower(raw), "/romserv%2f") {
			return s.romFile(c, strings.TrimPrefix(raw, "/romserv"))
		}
		return c.Next()
	})
	return nil
}

func corsPreflight(c fiber.Ctx) error {
	c.Set(fiber.HeaderAccessControlAllowOrigin, "*")
	c.Set(fiber.HeaderAccessControlAllowMethods, "GET, HEAD, OPTIONS")
	c.Set(fiber.HeaderAccessControlMaxAge, "86400")
	return c.SendStatus(fiber.StatusNoContent)
}

// romservError answers in the ROM service's own error envelope.
func romservError(c fiber.Ctx, status int, msg string) error {
	c.Set(fiber.HeaderAccessControlAllowOrigin, "*")
	return c.Status(status).JSON(fiber.Map{"success": false, "error": fiber.Map{"message": msg}})
}

type consoleJSON struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	ShortName string `json:"shortName"`
	Core      string `json:"core"`
	Stats     struct {
		Games int `json:"games"`
	} `json:"stats"`
}

func (s *Server) romConsoles(c fiber.Ctx) error {
	list := s.svc.Roms.Consoles()
	data := make([]consoleJSON, len(list))
	for i, con := range list {
		data[i] = consoleJSON{ID: con.ID, Name: con.Name, ShortName: con.ShortName, Core: con.Core}
		data[i].Stats.Games = con.Games
	}
	c.Set(fiber.HeaderAccessControlAllowOrigin, "*")
	c.Set(fiber.HeaderCacheControl, cacheNoCache)
	return c.JSON(fiber.Map{"success": true, "data": data, "meta": fiber.Map{"total": len(data)}})
}

// romGames answers a page of a console's games in the ROM service's
// envelope. The page is read as every list reads it (queryPage) and the
// library cuts it with the one paging type; only the answer's shape is the
// service's own, meta {total, page, limit} from the page.
func (s *Server) romGames(c fiber.Ctx) error {
	var v store.Validator
	pq := queryPage(c, &v)
	if msg := romservPageError(v.Err()); msg != "" {
		return romservError(c, http.StatusBadRequest, msg)
	}
	q := roms.Query{Page: pq.Page, Limit: pq.Limit, Search: c.Query("search")}
	if utf8.RuneCountInString(q.Search) > maxRomSearch {
		return romservError(c, http.StatusBadRequest, fmt.Sprintf("search must be at most %d characters", maxRomSearch))
	}
	id := c.Params("id")
	page, err := s.svc.Roms.Games(id, q)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return romservError(c, http.StatusNotFound, "unknown console: "+id)
		}
		// The ROM service answers every error in its own envelope.
		s.logFor(c).Error("romserv games", "console", id, "err", err)
		return romservError(c, http.StatusInternalServerError, "internal error")
	}
	c.Set(fiber.HeaderAccessControlAllowOrigin, "*")
	c.Set(fiber.HeaderCacheControl, cacheNoCache)
	return c.JSON(fiber.Map{
		"success": true,
		"data":    page.Games,
		"meta":    fiber.Map{"total": page.Total, "page": page.Page, "limit": page.Limit},
	})
}

// romservPageError is a refused page or limit in the ROM service's own
// words, the page named first; "" when both are well-formed.
func romservPageError(err error) string {
	var verr *store.ValidationError
	if !errors.As(err, &verr) {
		return ""
	}
	for _, name := range []string{"page", "limit"} {
		if _, bad := verr.Fields[name]; bad {
			return name + " must be a positive integer"
		}
	}
	return ""
}

// romFile serves a ROM or cover image from roms/. rawPath is the request
// path after /romserv, still percent-encoded. The path is decoded once;
// NUL bytes and backslashes are refused (400); the library opens the file
// (roms.Service.Open: no hidden names, nothing outside roms/) or it is 404.
func (s *Server) romFile(c fiber.Ctx, rawPath string) error {
	if c.Method() != fiber.MethodGet && c.Method() != fiber.MethodHead {
		c.Set(fiber.HeaderAllow, "GET, HEAD, OPTIONS")
		return romservError(c, http.StatusMethodNotAllowed, "method not allowed")
	}
	rel, err := url.PathUnescape(strings.TrimPrefix(rawPath, "/"))
	if err != nil || strings.ContainsAny(rel, "\x00\\") {
		return romservError(c, http.StatusBadRequest, "invalid path")
	}
	f, fi, err := s.svc.Roms.Open(rel)
	if err != nil {
		return romservError(c, http.StatusNotFound, "not found")
	}
	c.Set(fiber.HeaderAccessControlAllowOrigin, "*")
	c.Set("Content-Security-Policy", romFileCSP)
	err = sendContent(c, &content{contentType: romContentType(rel), cacheControl: cacheROM,
		etag: fmt.Sprintf(`"%x-%x"`, fi.Size(), fi.ModTime().UnixNano()), lastModified: fi.ModTime().Truncate(time.Second),
		ranges: true, identity: payload{size: fi.Size(), file: f}})
	var apiErr *APIError
	if errors.As(err, &apiErr) { // 416: in the ROM service's envelope
		return romservError(c, apiErr.Status, apiErr.Message)
	}
	return err
}

func romContentType(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".webp":
		return "image/webp"
	}
	return "application/octet-stream"
}

// emulatorPage serves the built emulator.html with the emulator's CSP.
func (s *Server) emulatorPage(c fiber.Ctx) error {
	a := s.site.files["/emulator.html"]
	if a == nil {
		return NewError(fiber.StatusNotFound, "this binary was built without the emulator page")
	}
	c.Set("Content-Security-Policy", emulatorCSP)
	return s.sendAsset(c, a)
}
