package server

import (
	"io"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/roms/cores"
)

// coreRoutes serves the emulator cores (pkg/roms/cores) under /cores/.
type coreRoutes struct{ cat *cores.Catalog }

// index answers /cores/index.json: which cores this server has and the URLs
// of their files.
func (r coreRoutes) index(c fiber.Ctx) error {
	c.Set(fiber.HeaderAccessControlAllowOrigin, "*")
	c.Set(fiber.HeaderCacheControl, cacheNoCache)
	return c.JSON(fiber.Map{"cores": r.cat.List()})
}

// file serves one core file, precompressed when the client accepts it; the
// index's URLs carry the content hash, so the answer is cached immutably.
func (r coreRoutes) file(c fiber.Ctx) error {
	cf, ok := r.cat.File(c.Params("+"))
	if !ok {
		return NewError(fiber.StatusNotFound, "no such core file")
	}
	c.Set(fiber.HeaderAccessControlAllowOrigin, "*")
	ct := content{contentType: contentTypeOf(cf.Name()), cacheControl: cacheImmutable, etag: `"` + cf.Hash + `"`,
		identity: corePayload(cf, "", cf.Size)}
	if data := cf.Bytes(); data != nil {
		ct.identity = memory(data)
	}
	var br, gz payload
	if cf.BrSize > 0 {
		br, ct.br = corePayload(cf, ".br", cf.BrSize), &br
	}
	if cf.GzSize > 0 {
		gz, ct.gz = corePayload(cf, ".gz", cf.GzSize), &gz
	}
	return sendContent(c, &ct)
}

// corePayload is one of a core file's encodings, opened when it is sent.
func corePayload(cf *cores.File, variant string, size int64) payload {
	return payload{size: size, open: func() (io.ReadCloser, error) { return cf.Open(variant) }}
}
