package server

import (
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/profile"
	"github.com/devhub/devhub/pkg/store"
)

// portfolioState is the portfolio as served, swapped whole by an admin's edit, and the lock
// that lets one edit write content/profile.yaml at a time.
type portfolioState struct {
	cur  atomic.Pointer[profileAssets]
	save sync.Mutex
}

func (p *portfolioState) get() *profileAssets   { return p.cur.Load() }
func (p *portfolioState) set(pa *profileAssets) { p.cur.Store(pa) }

// mountPortfolioEdit serves PUT /api/profile: an admin's new portfolio, checked as `devhub
// content check` checks the file and written into content/profile.yaml keeping its comments and
// order (profile.Save); the pages show it from the next request on.
func (s *Server) mountPortfolioEdit(api fiber.Router) {
	if s.svc.PortfolioDir == "" {
		return
	}
	api.Put("/profile", s.requireAdmin, s.putPortfolio)
}

func (s *Server) putPortfolio(c fiber.Ctx) error {
	var p profile.Profile
	if err := bindJSON(c, &p); err != nil {
		return err
	}
	s.portfolio.save.Lock()
	defer s.portfolio.save.Unlock()
	l, err := profile.Save(s.svc.PortfolioDir, p, s.svc.PortfolioIcons)
	var pe *profile.Error
	if errors.As(err, &pe) {
		field := pe.Field
		if field == "" {
			field = "profile"
		}
		return store.Invalid(field, "invalid", pe.Msg)
	}
	if err != nil {
		s.logFor(c).Error("portfolio not saved", slog.Any("err", err))
		return NewError(fiber.StatusInternalServerError, "the portfolio could not be written")
	}
	pa, err := newProfileAssets(l)
	if err != nil {
		return err
	}
	s.portfolio.set(pa)
	me := currentUser(c).User.Email
	s.record(c, audit.Event{Type: audit.ProfileChanged, Actor: me, Target: profile.FileName})
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
	return c.Send(pa.json)
}
