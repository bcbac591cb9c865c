package server

import (
	"github.com/gofiber/fiber/v3"
)

// registerReady mounts GET /readyz: 200 when every readiness check passes
// (store read and write, storage, certificate, …), else 503; both name each
// check and what failed. /healthz stays liveness: the process answers.
func (s *Server) registerReady(app *fiber.App) {
	app.Get("/readyz", func(c fiber.Ctx) error {
		c.Set(fiber.HeaderCacheControl, "no-store")
		if s.svc.Ready == nil {
			return c.JSON(fiber.Map{"status": "ready", "checks": []any{}})
		}
		ok, results := s.svc.Ready.Run(c.Context())
		if !ok {
			return c.Status(fiber.StatusServiceUnavailable).JSON(fiber.Map{"status": "not ready", "checks": results})
		}
		return c.JSON(fiber.Map{"status": "ready", "checks": results})
	})
}
