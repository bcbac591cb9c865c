package server

import "github.com/gofiber/fiber/v3"

// mountSite serves the public settings the SPA needs: footer contacts and
// the donation banner, all from config so nothing owner-specific is compiled
// into the front end.
func (s *Server) mountSite(api fiber.Router) {
	api.Get("/site", func(c fiber.Ctx) error {
		site := s.cfg.Site
		if site.Contacts.Phones == nil {
			site.Contacts.Phones = []string{}
		}
		return c.JSON(site)
	})
}
