package server

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/usecase"
)

// mountAudit serves the audit log to admins: GET /api/audit?limit&before&type&since.
func (s *Server) mountAudit(api fiber.Router) {
	api.Get("/audit", s.requireAdmin, s.auditList)
}

func (s *Server) auditList(c fiber.Ctx) error {
	var v store.Validator
	q := audit.Query{Limit: queryInt(c, "limit", &v), Type: c.Query("type")}
	if raw := c.Query("before"); raw != "" {
		n, err := strconv.ParseUint(raw, 10, 64)
		if err != nil || n == 0 {
			v.Add("before", "invalid", "before must be an event id")
		}
		q.Before = n
	}
	if raw := c.Query("since"); raw != "" {
		t, err := time.Parse(time.RFC3339, raw)
		if err != nil {
			v.Add("since", "invalid", "since must be an RFC 3339 time such as 2026-11-01T00:00:00Z")
		}
		q.Since = t
	}
	if err := v.Err(); err != nil {
		return err
	}
	events, next, err := s.svc.Audit.List(c.Context(), q)
	if err != nil {
		return err
	}
	out := fiber.Map{"events": events, "next": nil}
	if next != 0 {
		out["next"] = next
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(out)
}

// record writes an audit event about the request c: the time and the
// client's address are filled in. A failure to write it is logged; the
// action it describes has happened either way, so a closed request does not
// stop the record (context.WithoutCancel).
// actor is who asks, for the use-case layer: the signed-in account (if
// any) from the client's address.
func (s *Server) actor(c fiber.Ctx) usecase.Actor {
	return usecase.User(currentUser(c), s.clientIP(c).String())
}

func (s *Server) record(c fiber.Ctx, ev audit.Event) {
	ev.IP = s.clientIP(c).String()
	if err := s.svc.Audit.Record(context.WithoutCancel(c.Context()), ev); err != nil {
		s.logFor(c).Warn("audit log", slog.String("type", ev.Type), slog.Any("err", err))
	}
}
