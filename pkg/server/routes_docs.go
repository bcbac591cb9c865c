package server

import (
	"strings"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/api"
)

// docsPage is the reader of the contract: Redoc, bundled into the binary and
// served from here, so it works under the site's CSP (scripts from 'self'
// only) and without any third-party host.
const docsPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>devhub API</title>
</head>
<body>
<redoc spec-url="/api/openapi.json" disable-telemetry="true"></redoc>
<script type="module" src="/api/docs/` + api.ReaderVersion + `.js"></script>
</body>
</html>
`

// mountDocs serves the OpenAPI document and its reader.
func (s *Server) mountDocs(g fiber.Router) {
	g.Get("/openapi.json", func(c fiber.Ctx) error {
		doc, err := api.JSON()
		if err != nil {
			return err
		}
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
		c.Set(fiber.HeaderCacheControl, cacheNoCache)
		return c.Send(doc)
	})
	g.Get("/docs", func(c fiber.Ctx) error {
		if len(api.Reader) == 0 {
			c.Set(fiber.HeaderContentType, fiber.MIMETextPlainCharsetUTF8)
			return c.Status(fiber.StatusOK).SendString("This binary was built without the API reader; " +
				"the contract is at /api/openapi.json (make build includes the reader).")
		}
		c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
		c.Set(fiber.HeaderCacheControl, cacheNoCache)
		// The site's CSP, plus the icon font Redoc carries inline as a data:
		// URL, and images from this site only: Redoc shows a "by Redocly" logo
		// from their CDN, which must not be fetched (telemetry is switched
		// off above for the same reason).
		csp := strings.Replace(spaCSP, "font-src 'self'", "font-src 'self' data:", 1)
		csp = strings.Replace(csp, "img-src 'self' data: blob: https:", "img-src 'self' data:", 1)
		c.Set(fiber.HeaderContentSecurityPolicy, csp)
		return c.SendString(docsPage)
	})
	g.Get("/docs/"+api.ReaderVersion+".js", func(c fiber.Ctx) error {
		if len(api.Reader) == 0 {
			return NewError(fiber.StatusNotFound, "not found")
		}
		c.Set(fiber.HeaderContentType, "text/javascript; charset=utf-8")
		c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable")
		return c.Send(api.Reader)
	})
}
