package server

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/internal/paging"
	"github.com/devhub/devhub/pkg/store"
)

// Account management beyond sign-in: a user's own sessions, and the admin
// panel's user management. Every action here is also a CLI command (user
// sessions, user set-role, user rm, user 2fa).
func (s *Server) mountAccounts(g fiber.Router) {
	g.Get("/sessions", s.requireSession, s.ownSessions)
	g.Delete("/sessions", s.requireSession, s.revokeOtherSessions)
	g.Delete("/sessions/:id", s.requireSession, s.revokeOwnSession)
	g.Patch("/admin/users/:id", s.requireAdmin, s.adminSetRole)
	g.Delete("/admin/users/:id", s.requireAdmin, s.adminDeleteUser)
	g.Post("/admin/users/:id/revoke", s.requireAdmin, s.adminRevokeSessions)
	g.Delete("/admin/users/:id/2fa", s.requireAdmin, s.adminResetTwoFactor)
	g.Get("/registration", s.registrationPolicy)
	g.Get("/admin/invites", s.requireAdmin, s.adminInvites)
	g.Post("/admin/invites", s.requireAdmin, s.adminCreateInvite)
	g.Delete("/admin/invites/:id", s.requireAdmin, s.adminDeleteInvite)
	s.mountPasskeys(g)
}

// registrationPolicy tells the sign-in page whether to offer registration
// and whether to ask for an invitation code, and the auth.verify_email
// policy in effect (off where mail cannot carry the links).
func (s *Server) registrationPolicy(c fiber.Ctx) error {
	verify := s.hub.VerifyEmailPolicy()
	if !s.hub.EmailLinksAvailable() {
		verify = auth.VerifyOff
	}
	return c.JSON(fiber.Map{"policy": s.svc.Auth.Registration(), "verifyEmail": verify})
}

func (s *Server) adminInvites(c fiber.Ctx) error {
	list, err := s.svc.Auth.Invites()
	if err != nil {
		return err
	}
	return c.JSON(list)
}

// adminCreateInvite makes an invitation; {expiresIn} is "7d", "36h" or
// empty (7 days). The code is in this answer only.
func (s *Server) adminCreateInvite(c fiber.Ctx) error {
	var in struct {
		ExpiresIn string `json:"expiresIn"`
	}
	if len(c.Body()) > 0 {
		if err := bindJSON(c, &in); err != nil {
			return err
		}
	}
	var ttl time.Duration
	if in.ExpiresIn != "" {
		d, err := auth.ParseTTL(in.ExpiresIn)
		if err == nil && d <= 0 {
			err = errors.New("an invitation must last from 1 minute to 365 days")
		}
		if err != nil {
			return store.Invalid("expiresIn", "invalid", err.Error())
		}
		ttl = d
	}
	inv, err := s.svc.Auth.CreateInvite(c.Context(), currentUser(c).Email, ttl)
	if err != nil {
		return err
	}
	s.record(c, audit.Event{Type: audit.InviteCreated, Actor: currentUser(c).Email, Target: inv.ID,
		Details: map[string]string{"expiresAt": inv.ExpiresAt.Format(time.RFC3339)}})
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(fiber.StatusCreated).JSON(inv)
}

func (s *Server) adminDeleteInvite(c fiber.Ctx) error {
	if err := s.svc.Auth.DeleteInvite(c.Context(), c.Params("id")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// sessionItem is a session as its owner sees it. The browser is worked out
// from the User-Agent by the page.
type sessionItem struct {
	ID         string    `json:"id"`
	CreatedAt  time.Time `json:"createdAt"`
	LastUsedAt time.Time `json:"lastUsedAt"`
	IP         string    `json:"ip"`
	UserAgent  string    `json:"userAgent"`
	Current    bool      `json:"current"`
}

func (s *Server) ownSessions(c fiber.Ctx) error {
	p := currentUser(c)
	all, err := s.svc.Auth.Sessions(p.User.Email)
	if err != nil {
		return err
	}
	out := make([]sessionItem, 0, len(all))
	for _, x := range all {
		out = append(out, sessionItem{ID: x.ID, CreatedAt: x.CreatedAt, LastUsedAt: x.LastUsedAt, IP: x.IP,
			UserAgent: x.UserAgent, Current: x.ID == p.SessionID})
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(out)
}

func (s *Server) revokeOwnSession(c fiber.Ctx) error {
	p := currentUser(c)
	if err := s.svc.Auth.RevokeSession(c.Context(), p.User.ID, c.Params("id")); err != nil {
		return err
	}
	s.record(c, audit.Event{Type: audit.SessionsRevoked, Actor: p.User.Email, Target: p.User.Email, Details: map[string]string{"sessions": "one"}})
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) revokeOtherSessions(c fiber.Ctx) error {
	p := currentUser(c)
	n, err := s.svc.Auth.RevokeOtherSessions(c.Context(), p.User.ID, p.SessionID)
	if err != nil {
		return err
	}
	s.record(c, audit.Event{Type: audit.SessionsRevoked, Actor: p.User.Email, Target: p.User.Email,
		Details: map[string]string{"sessions": "all others", "count": strconv.Itoa(n)}})
	return c.SendStatus(fiber.StatusNoContent)
}

// adminTarget reads :id and finds the account; an admin acting on their
// own account through the panel is refused (a slip of the mouse must not
// lock the owner out: the CLI can still do it).
func (s *Server) adminTarget(c fiber.Ctx) (*auth.User, error) {
	id, err := strconv.ParseUint(c.Params("id"), 10, 64)
	if err != nil || id == 0 {
		return nil, NewError(fiber.StatusBadRequest, "user id must be a positive number")
	}
	u, err := s.svc.Auth.UserByID(id)
	if err != nil {
		return nil, err
	}
	if me := currentUser(c); me != nil && me.ID == u.ID {
		return nil, NewError(fiber.StatusConflict, "admins do not change their own account from the panel; use the profile or the CLI")
	}
	return u, nil
}

func (s *Server) adminSetRole(c fiber.Ctx) error {
	u, err := s.adminTarget(c)
	if err != nil {
		return err
	}
	var in struct {
		Role string `json:"role"`
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	updated, err := s.hub.SetRole(c.Context(), s.actor(c), u.Email, in.Role)
	if err != nil {
		return err
	}
	return c.JSON(updated)
}

// adminDeleteUser deletes an account; ?files=delete deletes the files it
// uploaded too, ?files=keep (the default) leaves them in the file cloud.
func (s *Server) adminDeleteUser(c fiber.Ctx) error {
	u, err := s.adminTarget(c)
	if err != nil {
		return err
	}
	mode := c.Query("files", "keep")
	if mode != "keep" && mode != "delete" {
		return NewError(fiber.StatusBadRequest, "files must be keep or delete")
	}
	if _, err := s.hub.DeleteAccount(c.Context(), s.actor(c), u.Email, mode == "delete"); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) adminRevokeSessions(c fiber.Ctx) error {
	u, err := s.adminTarget(c)
	if err != nil {
		return err
	}
	if _, err := s.hub.RevokeSessions(c.Context(), s.actor(c), u.Email); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) adminResetTwoFactor(c fiber.Ctx) error {
	u, err := s.adminTarget(c)
	if err != nil {
		return err
	}
	if err := s.hub.ResetTwoFactor(c.Context(), s.actor(c), u.Email); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// adminUserPage is GET /api/auth/admin/users: the spec's plain array of
// every account, or with ?search= (in e-mail and name), ?page= and ?limit=
// one page of it; X-Total-Count tells how many matched.
func (s *Server) adminUserPage(c fiber.Ctx) ([]auth.User, error) {
	users, err := s.svc.Auth.Users()
	if err != nil {
		return nil, err
	}
	if q := strings.ToLower(strings.TrimSpace(c.Query("search"))); q != "" {
		kept := users[:0]
		for _, u := range users {
			if strings.Contains(u.Email, q) || strings.Contains(strings.ToLower(u.Name), q) {
				kept = append(kept, u)
			}
		}
		users = kept
	}
	var v store.Validator
	page := paging.Cut(users, usersPageRule.Check(queryPage(c, &v), &v))
	c.Set("X-Total-Count", strconv.Itoa(page.Total))
	if err := v.Err(); err != nil {
		return nil, err
	}
	return page.Items, nil
}

// usersPageRule pages the admin's user list: without a limit, every
// account; no largest page.
var usersPageRule = paging.Rule{}
