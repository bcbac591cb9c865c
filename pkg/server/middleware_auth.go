package server

import (
	"strings"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/auth"
)

// principalKey holds the request's *auth.Principal once the bearer token has
// been checked, and errPrincipalKey the 401 when it was sent but refused, so
// that the token is checked at most once per request whichever of the
// checks below run.
const (
	principalKey    = "devhub.principal"
	errPrincipalKey = "devhub.principal.err"
)

// bearerToken reads the access token from the Authorization header only;
// tokens in query strings leak into logs and referrers and are ignored.
func bearerToken(c fiber.Ctx) string {
	h := c.Get(fiber.HeaderAuthorization)
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// authenticate is the one authentication step: it resolves the bearer token
// to the caller's principal (with the session it belongs to) through
// Services.Authenticate and stores it on the request, or answers why it
// could not.
func (s *Server) authenticate(c fiber.Ctx) (*auth.Principal, error) {
	if p, ok := c.Locals(principalKey).(*auth.Principal); ok {
		return p, nil
	}
	if err, ok := c.Locals(errPrincipalKey).(error); ok {
		return nil, err
	}
	p, err := s.resolvePrincipal(c)
	if err != nil {
		c.Locals(errPrincipalKey, err)
		return nil, err
	}
	c.Locals(principalKey, p)
	return p, nil
}

func (s *Server) resolvePrincipal(c fiber.Ctx) (*auth.Principal, error) {
	tok := bearerToken(c)
	if tok == "" || s.svc.Authenticate == nil {
		return nil, NewError(fiber.StatusUnauthorized, "authentication required")
	}
	p, err := s.svc.Authenticate(tok)
	if err != nil || p == nil {
		return nil, NewError(fiber.StatusUnauthorized, "invalid or expired token")
	}
	return p, nil
}

// optionalUser attaches the caller's principal when a valid token is sent
// and lets anonymous requests (and refused tokens) through.
func (s *Server) optionalUser(c fiber.Ctx) error {
	_, _ = s.authenticate(c)
	return c.Next()
}

// requireUser answers 401 unless a valid access token is sent.
func (s *Server) requireUser(c fiber.Ctx) error {
	if _, err := s.authenticate(c); err != nil {
		return err
	}
	return c.Next()
}

// requireAdmin answers 401 without a valid token and 403 for non-admins.
func (s *Server) requireAdmin(c fiber.Ctx) error {
	p, err := s.authenticate(c)
	if err != nil {
		return err
	}
	if !p.IsAdmin() {
		return NewError(fiber.StatusForbidden, "administrator rights required")
	}
	return c.Next()
}

// requireSession is requireUser for the handlers that act on the session
// the access token belongs to (logout, change-password, two-factor).
func (s *Server) requireSession(c fiber.Ctx) error {
	// Any refusal here reads "invalid or expired token", as it always has.
	if p, err := s.authenticate(c); err != nil || p.SessionID == "" {
		return NewError(fiber.StatusUnauthorized, "invalid or expired token")
	}
	return c.Next()
}

// currentUser is the principal attached by one of the checks above, or nil.
func currentUser(c fiber.Ctx) *auth.Principal {
	p, _ := c.Locals(principalKey).(*auth.Principal)
	return p
}
