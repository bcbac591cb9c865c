package server

import (
	"log/slog"

	"github.com/gofiber/fiber/v3"
)

// mountIP tells callers their own address and where it is, from the local
// geo database (never a third-party service). The SPA's language detection
// and the "your IP" tool use it. The address is the one clientIP trusts:
// X-Forwarded-For counts only when the peer is a configured proxy.
func (s *Server) mountIP(api fiber.Router) {
	api.Get("/ip", func(c fiber.Ctx) error {
		ip := s.clientIP(c)
		res, err := s.svc.GeoIP.Lookup(ip)
		if err != nil {
			// A damaged database must not break the page: answer Unknown.
			s.logFor(c).Warn("geoip lookup failed", slog.Any("err", err))
		}
		// The answer is about this caller only: no shared cache may keep it.
		c.Set(fiber.HeaderCacheControl, "private, no-store")
		return c.JSON(res)
	})
}
