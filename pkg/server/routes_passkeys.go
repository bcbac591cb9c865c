package server

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/netip"
	"net/url"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/internal/ratelimit"
	"github.com/devhub/devhub/pkg/store"
)

// passkeyBeginsPerMinute is how many passkey ceremonies one client network
// may begin per minute. The ceremonies waiting at once are bounded (the
// oldest give way), and anyone may begin a sign-in: without this, one client
// beginning a few thousand in half a second pushed out every other visitor's
// sign-in and registration in progress. A person begins one per attempt.
const passkeyBeginsPerMinute = 20

// mountPasskeys serves the WebAuthn ceremonies: adding, listing and
// removing passkeys (signed in), signing in with a passkey alone, and a
// passkey as the second step of a password sign-in.
func (s *Server) mountPasskeys(g fiber.Router) {
	begins := ratelimit.New[netip.Prefix](passkeyBeginsPerMinute, time.Minute, 0, nil)
	limitBegins := func(c fiber.Ctx) error {
		ip := s.clientIP(c)
		if ok, wait := begins.AllowGrouped(ratelimit.Network(ip, false), ratelimit.Network(ip, true)); !ok {
			return store.TooMany("too many passkey requests from this network; try again later", wait)
		}
		return c.Next()
	}
	g.Get("/passkeys", s.requireSession, s.passkeyList)
	g.Delete("/passkeys/:id", s.requireSession, s.passkeyDelete)
	g.Post("/passkeys/register/begin", s.requireSession, limitBegins, s.passkeyRegisterBegin)
	g.Post("/passkeys/register/finish", s.requireSession, s.passkeyRegisterFinish)
	g.Post("/passkeys/login/begin", limitBegins, s.passkeyLoginBegin)
	g.Post("/passkeys/login/finish", s.passkeyLoginFinish)
	g.Post("/login/2fa/passkey/begin", limitBegins, s.passkeySecondBegin)
	g.Post("/login/2fa/passkey/finish", s.passkeySecondFinish)
}

// relyingParty is the site the passkeys belong to: server.public_url, or
// without one the host this request was sent to (a setup on localhost).
func (s *Server) relyingParty(c fiber.Ctx) auth.RelyingParty {
	if pub := s.cfg.Server.PublicURL; pub != "" {
		if u, err := url.Parse(pub); err == nil && u.Host != "" {
			return auth.RelyingParty{ID: u.Hostname(), Origin: u.Scheme + "://" + u.Host}
		}
	}
	host := string(c.Request().Host())
	return auth.RelyingParty{ID: c.Hostname(), Origin: c.Scheme() + "://" + host}
}

// passkeyError answers a failed verification: of a sign-in a 401, of a
// registration a 400, its reason logged only.
func (s *Server) passkeyError(c fiber.Ctx, err error, signIn bool) error {
	switch {
	case errors.Is(err, auth.ErrPasskeyFailed):
		// The reason (origin, signature, counter…) is for the log only.
		s.logFor(c).Info("passkey refused", slog.Any("err", err))
		if signIn {
			return NewError(fiber.StatusUnauthorized, auth.ErrPasskeyFailed.Error())
		}
		return NewError(fiber.StatusBadRequest, auth.ErrPasskeyFailed.Error())
	}
	return err
}

type ceremonyAnswer struct {
	CeremonyID string          `json:"ceremonyId"`
	MFAToken   string          `json:"mfaToken"`
	Name       string          `json:"name"`
	Credential json.RawMessage `json:"credential"`
	tokenChoice
}

func (s *Server) passkeyList(c fiber.Ctx) error {
	list, err := s.svc.Auth.Passkeys(currentUser(c).User.ID)
	if err != nil {
		return err
	}
	return c.JSON(list)
}

func (s *Server) passkeyDelete(c fiber.Ctx) error {
	p := currentUser(c)
	if err := s.svc.Auth.DeletePasskey(c.Context(), p.User.ID, c.Params("id")); err != nil {
		return err
	}
	s.record(c, audit.Event{Type: audit.PasskeyRemoved, Actor: p.User.Email, Target: p.User.Email})
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) passkeyRegisterBegin(c fiber.Ctx) error {
	cer, err := s.svc.Auth.BeginPasskeyRegistration(c.Context(), currentUser(c), s.relyingParty(c))
	if err != nil {
		return s.passkeyError(c, err, false)
	}
	return c.JSON(cer)
}

func (s *Server) passkeyRegisterFinish(c fiber.Ctx) error {
	var in ceremonyAnswer
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	p := currentUser(c)
	pk, err := s.svc.Auth.FinishPasskeyRegistration(c.Context(), p, s.relyingParty(c), in.CeremonyID, in.Name, in.Credential)
	if err != nil {
		return s.passkeyError(c, err, false)
	}
	s.record(c, audit.Event{Type: audit.PasskeyAdded, Actor: p.User.Email, Target: p.User.Email, Details: map[string]string{"name": pk.Name}})
	return c.Status(fiber.StatusCreated).JSON(pk)
}

func (s *Server) passkeyLoginBegin(c fiber.Ctx) error {
	cer, err := s.svc.Auth.BeginPasskeyLogin(c.Context(), s.relyingParty(c))
	if err != nil {
		return s.passkeyError(c, err, true)
	}
	return c.JSON(cer)
}

func (s *Server) passkeyLoginFinish(c fiber.Ctx) error {
	var in ceremonyAnswer
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	res, err := s.svc.Auth.FinishPasskeyLogin(c.Context(), s.relyingParty(c), in.CeremonyID, in.Credential, s.authClient(c))
	if err != nil {
		if errors.Is(err, auth.ErrPasskeyFailed) {
			s.record(c, audit.Event{Type: audit.SignInFailed, Details: map[string]string{"reason": "passkey"}})
		}
		return s.passkeyError(c, err, true)
	}
	s.record(c, audit.Event{Type: audit.SignIn, Actor: res.User.Email, Target: res.User.Email, Details: map[string]string{"method": "passkey"}})
	return c.JSON(s.issue(c, res, in.RefreshTokenInBody))
}

func (s *Server) passkeySecondBegin(c fiber.Ctx) error {
	var in ceremonyAnswer
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	cer, err := s.svc.Auth.BeginPasskeySecondFactor(c.Context(), s.relyingParty(c), in.MFAToken)
	if err != nil {
		return s.passkeyError(c, err, true)
	}
	return c.JSON(cer)
}

func (s *Server) passkeySecondFinish(c fiber.Ctx) error {
	var in ceremonyAnswer
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	res, err := s.svc.Auth.FinishPasskeySecondFactor(c.Context(), s.relyingParty(c), in.MFAToken, in.CeremonyID, in.Credential, s.authClient(c))
	if err != nil {
		if errors.Is(err, auth.ErrPasskeyFailed) {
			s.record(c, audit.Event{Type: audit.SignInFailed, Details: map[string]string{"reason": "passkey"}})
		}
		return s.passkeyError(c, err, true)
	}
	s.record(c, audit.Event{Type: audit.SignIn, Actor: res.User.Email, Target: res.User.Email,
		Details: map[string]string{"method": "password + passkey"}})
	return c.JSON(s.issue(c, res, in.RefreshTokenInBody))
}
