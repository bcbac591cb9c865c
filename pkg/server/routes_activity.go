package server

import (
	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/activity"
	"github.com/devhub/devhub/pkg/store"
)

// mountActivity serves the activity log the SPA writes to. The
// route is open to anonymous visitors, so it is the most abusable write in
// the product: its body limit is far below the app default, each client IP
// is rate-limited, and the service keeps a bounded number of events.
func (s *Server) mountActivity(api fiber.Router) {
	api.Post("/activity/log", activityBodyLimit, s.optionalUser, s.logActivity)
}

// activityBodyLimit refuses bodies over activity.MaxBodyBytes: announced
// ones at once, chunked ones once read (the /api group has already read them,
// bounded by the app-wide limit).
func activityBodyLimit(c fiber.Ctx) error {
	if c.Request().Header.ContentLength() > activity.MaxBodyBytes || len(c.Request().Body()) > activity.MaxBodyBytes {
		return store.TooLarge("request body", activity.MaxBodyBytes)
	}
	return c.Next()
}

// logActivity answers 204 for a stored event, 429 with Retry-After when the
// client's budget is spent, 400 for malformed JSON or invalid fields.
func (s *Server) logActivity(c fiber.Ctx) error {
	ip := s.clientIP(c)
	if ok, wait := s.svc.Activity.Allow(ip); !ok {
		return store.TooMany("too many activity events, slow down", wait)
	}
	// A compressed body is decoded by Fiber; its decoded size counts too.
	if len(c.Body()) > activity.MaxBodyBytes {
		return store.TooLarge("request body", activity.MaxBodyBytes)
	}
	var in activity.Input
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	meta := activity.Meta{IP: ip}
	if u := currentUser(c); u != nil {
		meta.UserID = u.ID
	}
	if _, err := s.svc.Activity.Log(c.Context(), in, meta); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
