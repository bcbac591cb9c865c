package server

import (
	"strings"

	"github.com/gofiber/fiber/v3"
)

// Identity is the caller as the auth service vouches for it.
type Identity struct {
	ID    uint64
	Email string
	Name  string
	Role  string
}

// IsAdmin reports whether the caller may perform admin actions.
func (i *Identity) IsAdmin() bool { return i != nil && i.Role == "admin" }

const identityKey = "devhub.identity"

// bearerToken reads the access token from the Authorization header only;
// tokens in query strings leak into logs and referrers and are ignored.
func bearerToken(c fiber.Ctx) string {
	h := c.Get(fiber.HeaderAuthorization)
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// optionalUser attaches the caller's identity when a valid token is sent
// and lets anonymous requests through.
func (s *Server) optionalUser(c fiber.Ctx) error {
	if tok := bearerToken(c); tok != "" && s.svc.Authenticate != nil {
		if id, err := s.svc.Authenticate(c.Context(), tok); err == nil && id != nil {
			c.Locals(identityKey, id)
		}
	}
	return c.Next()
}

// authenticate resolves the bearer token to an identity or a 401.
func (s *Server) authenticate(c fiber.Ctx) (*Identity, error) {
	tok := bearerToken(c)
	if tok == "" || s.svc.Authenticate == nil {
		return nil, NewError(fiber.StatusUnauthorized, "authentication required")
	}
	id, err := s.svc.Authenticate(c.Context(), tok)
	if err != nil || id == nil {
		return nil, NewError(fiber.StatusUnauthorized, "invalid or expired token")
	}
	return id, nil
}

// requireUser answers 401 unless a valid access token is sent.
func (s *Server) requireUser(c fiber.Ctx) error {
	id, err := s.authenticate(c)
	if err != nil {
		return err
	}
	c.Locals(identityKey, id)
	return c.Next()
}

// requireAdmin answers 401 without a valid token and 403 for non-admins.
func (s *Server) requireAdmin(c fiber.Ctx) error {
	id, err := s.authenticate(c)
	if err != nil {
		return err
	}
	if !id.IsAdmin() {
		return NewError(fiber.StatusForbidden, "administrator rights required")
	}
	c.Locals(identityKey, id)
	return c.Next()
}

// currentUser is the identity attached by optionalUser/requireUser, or nil.
func currentUser(c fiber.Ctx) *Identity {
	id, _ := c.Locals(identityKey).(*Identity)
	return id
}
