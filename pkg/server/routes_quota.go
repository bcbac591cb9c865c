package server

import (
	"github.com/gofiber/fiber/v3"
)

// mountQuota binds GET /api/auth/quota. It sits beside the file cloud
// rather than in the accounts area: the quota is about stored bytes and is
// answered whenever the file cloud is.
func (s *Server) mountQuota(api fiber.Router) {
	api.Get("/auth/quota", s.requireUser, s.authQuota)
}

// authQuota answers GET /api/auth/quota: what the caller stores beside what
// they may store (a null limit is unlimited).
func (s *Server) authQuota(c fiber.Ctx) error {
	r, err := s.svc.Quota.Report(currentUser(c).ID)
	if err != nil {
		return err
	}
	return c.JSON(r)
}
