package server

import (
	"errors"
	"io/fs"
	"mime"
	"path"
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
	a.etag = etagOf(raw)
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
	// An article named by its slug moves to its address by number, the one
	// the SPA reads and the canonical link names.
	if to, ok := s.articleBySlugRedirect(c, p); ok {
		if q := c.Request().URI().QueryString(); len(q) > 0 {
			to += "?" + string(q) // a shared link's query (a campaign's tags) comes along
		}
		return c.Redirect().Status(fiber.StatusMovedPermanently).To(to)
	}
	// A page of the SPA: its HTML with its own head; any other path is a
	// 404 that still shows the SPA (its not-found page), never a 304.
	body, found := s.spaPage(c, p)
	ct := content{contentType: s.site.index.contentType, cacheControl: cacheNoCache, identity: memory(body)}
	if found {
		ct.etag = etagOf(body)
	} else {
		c.Status(fiber.StatusNotFound)
	}
	if st, ok := c.Locals(spaStatusKey).(int); ok && found {
		// A page that exists but says its subject is gone (a share link's
		// 410): the status tells crawlers and scripts too; never a 304.
		ct.etag = ""
		c.Status(st)
	}
	return sendContent(c, &ct)
}

// sendAsset answers with a prepared file of the site and its variants.
func (s *Server) sendAsset(c fiber.Ctx, a *asset) error {
	ct := content{contentType: a.contentType, cacheControl: a.cacheControl, etag: a.etag, identity: memory(a.raw)}
	var br, gz payload
	if a.br != nil {
		br, ct.br = memory(a.br), &br
	}
	if a.gz != nil {
		gz, ct.gz = memory(a.gz), &gz
	}
	return sendContent(c, &ct)
}
