package server

import (
	"bytes"
	"compress/gzip"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
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

// openAPIBytes is the contract as JSON with its strong ETag and its brotli
// and gzip variants: the document is fixed in the binary, so it is
// compressed once, on the first request, and every later one is answered
// from these bytes (304 when the client has them).
type openAPIBytes struct {
	json, br, gz []byte
	etag         string
}

var openAPIDoc = sync.OnceValues(func() (*openAPIBytes, error) {
	doc, err := api.JSON()
	if err != nil {
		return nil, err
	}
	var b, z bytes.Buffer
	bw := brotli.NewWriterLevel(&b, brotli.BestCompression)
	bw.Write(doc)
	if err := bw.Close(); err != nil {
		return nil, err
	}
	zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	zw.Write(doc)
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return &openAPIBytes{json: doc, br: b.Bytes(), gz: z.Bytes(), etag: etagOf(doc)}, nil
})

// mountDocs serves the OpenAPI document and its reader.
func (s *Server) mountDocs(g fiber.Router) {
	g.Get("/openapi.json", func(c fiber.Ctx) error {
		doc, err := openAPIDoc()
		if err != nil {
			return err
		}
		br, gz := memory(doc.br), memory(doc.gz)
		return sendContent(c, &content{contentType: fiber.MIMEApplicationJSONCharsetUTF8, cacheControl: cacheNoCache,
			etag: doc.etag, identity: memory(doc.json), br: &br, gz: &gz})
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
