package server

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"mime"
	"path"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v3"
)

// siteAssets holds the built SPA in memory, each file with its gzip and
// brotli variants (produced at build time next to it as .gz/.br) and its
// headers prepared. Embedded files cannot use sendfile, and re-reading them
// through a generic static handler costs 3–4× against nginx (see
// shared/notes/fiber-and-uploads.md); writing prepared bytes does not.
//
// The icon set (icons/, about 3 500 small logos for the portfolio) is the
// exception: held in memory it added ~20 MiB of RSS for the few a page
// shows, so those files are read from the FS when asked for (lazyAsset).
type siteAssets struct {
	files map[string]*asset // by URL path, e.g. "/assets/index-abc123.js"
	index *asset
	fsys  fs.FS
}

// lazyDir is the directory of the site read per request instead of held.
const lazyDir = "icons"

// lazyAsset reads one file under lazyDir with its variants; nil when there is none.
func (sa *siteAssets) lazyAsset(urlPath string) *asset {
	p := strings.TrimPrefix(urlPath, "/")
	if sa.fsys == nil || !strings.HasPrefix(p, lazyDir+"/") || !fs.ValidPath(p) || strings.HasSuffix(p, ".gz") || strings.HasSuffix(p, ".br") {
		return nil
	}
	a, err := readAsset(sa.fsys, p)
	if err != nil {
		return nil
	}
	return a
}

// readAsset reads a file and its .gz/.br variants and prepares its headers.
func readAsset(fsys fs.FS, p string) (*asset, error) {
	raw, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, err
	}
	a := &asset{raw: raw, contentType: contentTypeOf(p)}
	if gz, err := fs.ReadFile(fsys, p+".gz"); err == nil {
		a.gz = gz
	}
	if br, err := fs.ReadFile(fsys, p+".br"); err == nil {
		a.br = br
	}
	sum := sha256.Sum256(raw)
	a.etag = `"` + hex.EncodeToString(sum[:12]) + `"`
	switch {
	case strings.HasPrefix(p, "assets/"):
		a.cacheControl = cacheImmutable
	case p == "index.html":
		a.cacheControl = cacheNoCache
	default:
		a.cacheControl = cacheShort
	}
	return a, nil
}

type asset struct {
	raw, gz, br  []byte
	contentType  string
	etag         string
	cacheControl string
}

const (
	cacheImmutable = "public, max-age=31536000, immutable"
	cacheNoCache   = "no-cache"
	// cacheShort is for unhashed files beside index.html (favicon, emulator page).
	cacheShort = "public, max-age=300, must-revalidate"
)

func loadSiteAssets(fsys fs.FS) (*siteAssets, error) {
	sa := &siteAssets{files: map[string]*asset{}, fsys: fsys}
	if fsys == nil {
		return sa, nil
	}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p == lazyDir {
			return fs.SkipDir
		}
		if d.IsDir() || strings.HasSuffix(p, ".gz") || strings.HasSuffix(p, ".br") {
			return nil
		}
		a, err := readAsset(fsys, p)
		if err != nil {
			return err
		}
		sa.files["/"+p] = a
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	sa.index = sa.files["/index.html"]
	return sa, nil
}

func contentTypeOf(p string) string {
	switch path.Ext(p) {
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".wasm":
		return "application/wasm"
	}
	if t := mime.TypeByExtension(path.Ext(p)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// serveSite answers GET/HEAD for the SPA: a built file when the path names
// one, 404 for unknown files under /assets (a stale hashed name must not
// get HTML), and index.html for every other path so client routes work on
// reload.
func (s *Server) serveSite(c fiber.Ctx) error {
	if retried, err := retryHeadAsGet(c); retried {
		return err
	}
	if c.Method() != fiber.MethodGet {
		return NewError(fiber.StatusNotFound, "not found")
	}
	p := c.Path()
	if a, ok := s.site.files[p]; ok && p != "/index.html" {
		return s.sendAsset(c, a)
	}
	if a := s.site.lazyAsset(p); a != nil {
		return s.sendAsset(c, a)
	}
	if isUnderPrefix(p, "/assets") {
		return NewError(fiber.StatusNotFound, "no such asset: "+p)
	}
	if s.site.index == nil {
		c.Set(fiber.HeaderCacheControl, cacheNoCache)
		c.Status(fiber.StatusServiceUnavailable)
		return c.SendString("devhub: this binary was built without its web interface; build it with `make build`.\n")
	}
	if p == "/index.html" {
		return s.sendAsset(c, s.site.index)
	}
	// A page of the SPA: its HTML with its own head; any other path is a
	// 404 that still shows the SPA (its not-found page).
	body, found := s.spaPage(c, p)
	if !found {
		c.Status(fiber.StatusNotFound)
	}
	h := &c.Response().Header
	h.Set(fiber.HeaderContentType, s.site.index.contentType)
	h.Set(fiber.HeaderCacheControl, cacheNoCache)
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	h.Set(fiber.HeaderETag, etag)
	if inm := c.Get(fiber.HeaderIfNoneMatch); found && inm != "" && etagMatches(inm, etag) {
		c.Status(fiber.StatusNotModified)
		return nil
	}
	return c.Send(body)
}

func (s *Server) sendAsset(c fiber.Ctx, a *asset) error {
	h := &c.Response().Header
	h.Set(fiber.HeaderContentType, a.contentType)
	h.Set(fiber.HeaderCacheControl, a.cacheControl)
	h.Set(fiber.HeaderETag, a.etag)
	body := a.raw
	if a.gz != nil || a.br != nil {
		h.Set(fiber.HeaderVary, fiber.HeaderAcceptEncoding)
		switch negotiateEncoding(c.Get(fiber.HeaderAcceptEncoding), a.br != nil, a.gz != nil) {
		case "br":
			body = a.br
			h.Set(fiber.HeaderContentEncoding, "br")
		case "gzip":
			body = a.gz
			h.Set(fiber.HeaderContentEncoding, "gzip")
		}
	}
	if inm := c.Get(fiber.HeaderIfNoneMatch); inm != "" && etagMatches(inm, a.etag) {
		c.Status(fiber.StatusNotModified)
		return nil
	}
	// The prepared bytes never change: hand them to fasthttp without the
	// copy c.Send would make (a 300 KB bundle per request otherwise).
	c.Response().SetBodyRaw(body)
	return nil
}

// negotiateEncoding picks br over gzip over identity from an
// Accept-Encoding header, honouring q=0 ("not acceptable").
func negotiateEncoding(header string, haveBr, haveGz bool) string {
	q := map[string]float64{}
	for _, part := range strings.Split(header, ",") {
		fields := strings.Split(strings.TrimSpace(part), ";")
		name := strings.ToLower(strings.TrimSpace(fields[0]))
		if name == "" {
			continue
		}
		weight := 1.0
		for _, f := range fields[1:] {
			f = strings.TrimSpace(f)
			if v, ok := strings.CutPrefix(f, "q="); ok {
				if w, err := strconv.ParseFloat(v, 64); err == nil {
					weight = w
				}
			}
		}
		q[name] = weight
	}
	accept := func(enc string) bool {
		if w, ok := q[enc]; ok {
			return w > 0
		}
		w, ok := q["*"]
		return ok && w > 0
	}
	switch {
	case haveBr && accept("br"):
		return "br"
	case haveGz && accept("gzip"):
		return "gzip"
	}
	return ""
}

func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == etag {
			return true
		}
	}
	return false
}
