package server

import (
	"errors"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
)

// refreshCookie carries the refresh token for the browser: httpOnly (no
// script can read it), SameSite=Strict (never sent cross-site, so no CSRF on
// /refresh), scoped to /api/auth (never sent with other requests), and
// Secure whenever the site is public over https.
const refreshCookie = "refresh_token"

// mountAuth binds the accounts API (pkg/auth holds the logic).
func (s *Server) mountAuth(api fiber.Router) {
	// Sign-in and everything the refresh cookie can do is for this site's
	// own pages (and scripts, which send no Origin).
	g := api.Group("/auth", s.sameOrigin)
	g.Post("/register", s.authRegister)
	g.Post("/login", s.authLogin)
	g.Post("/refresh", s.authRefresh)
	g.Post("/logout", s.authLogout)
	g.Get("/profile", s.requireSession, s.authProfile)
	g.Post("/change-password", s.requireSession, s.authChangePassword)
	g.Get("/admin/users", s.requireAdmin, s.authAdminUsers)
	g.Post("/login/2fa", s.authLoginMFA)
	g.Get("/2fa", s.requireSession, s.authTwoFactor)
	g.Post("/2fa/totp", s.requireSession, s.authTOTPBegin)
	g.Post("/2fa/totp/confirm", s.requireSession, s.authTOTPConfirm)
	g.Delete("/2fa/totp", s.requireSession, s.authTOTPDisable)
	s.mountAccounts(g)
	s.mountSelf(g)
}

func (s *Server) authClient(c fiber.Ctx) auth.Client {
	return auth.Client{IP: s.clientIP(c), UserAgent: c.Get(fiber.HeaderUserAgent)}
}

func (s *Server) setRefreshCookie(c fiber.Ctx, token string) {
	c.Cookie(&fiber.Cookie{
		Name:     refreshCookie,
		Value:    token,
		Path:     "/api/auth",
		MaxAge:   int(s.svc.Auth.RefreshTTL() / time.Second),
		HTTPOnly: true,
		SameSite: fiber.CookieSameSiteStrictMode,
		Secure:   s.hsts, // public_url is https
	})
}

func (s *Server) clearRefreshCookie(c fiber.Ctx) {
	c.Cookie(&fiber.Cookie{
		Name:     refreshCookie,
		Value:    "",
		Path:     "/api/auth",
		Expires:  time.Unix(0, 0),
		MaxAge:   -1,
		HTTPOnly: true,
		SameSite: fiber.CookieSameSiteStrictMode,
		Secure:   s.hsts,
	})
}

// refreshFromRequest reads the refresh token from a JSON body (scripts and
// API clients; fromBody is then true) or else from the cookie (the browser).
func refreshFromRequest(c fiber.Ctx) (token string, fromBody bool, err error) {
	if len(c.Body()) > 0 {
		var in struct {
			RefreshToken string `json:"refreshToken"`
		}
		if err := bindJSON(c, &in); err != nil {
			return "", false, err
		}
		if in.RefreshToken != "" {
			return in.RefreshToken, true, nil
		}
	}
	return c.Cookies(refreshCookie), false, nil
}

type registerBody struct {
	Name            string `json:"name"`
	Email           string `json:"email"`
	Password        string `json:"password"`
	ConfirmPassword string `json:"confirmPassword"`
	// Invite is the invitation code when auth.registration is invite.
	Invite string `json:"invite"`
	// Lang is the language of the letters the account gets.
	Lang string `json:"lang"`
	// No role field: whatever role a client sends is dropped here.
	tokenChoice
}

// tokenChoice is how a client asks for the refresh token in the JSON
// answer. The browser never does: its refresh token lives in the httpOnly
// cookie, out of reach of any script that might run in the page. Scripts
// and API clients without a cookie jar ask with "refreshTokenInBody": true.
type tokenChoice struct {
	RefreshTokenInBody bool `json:"refreshTokenInBody"`
}

// issue sets the refresh cookie of res and returns the answer's tokens:
// with the refresh token only when the client asked for it.
func (s *Server) issue(c fiber.Ctx, res *auth.AuthResult, inBody bool) *auth.AuthResult {
	s.setRefreshCookie(c, res.Tokens.RefreshToken)
	out := *res
	if !inBody {
		out.Tokens.RefreshToken = ""
	}
	return &out
}

func (s *Server) authRegister(c fiber.Ctx) error {
	var in registerBody
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	actor := s.actor(c)
	actor.Lang = in.Lang
	res, err := s.hub.Register(c.Context(), actor, auth.RegisterInput{Name: in.Name, Email: in.Email, Password: in.Password,
		ConfirmPassword: in.ConfirmPassword, Invite: in.Invite}, s.authClient(c))
	if err != nil {
		return err
	}
	s.record(c, audit.Event{Type: audit.UserCreated, Actor: res.User.Email, Target: res.User.Email, Details: map[string]string{"via": "registration"}})
	if res.VerificationRequired {
		// No session until the address is verified: 202 and no cookie.
		return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"user": res.User, "verificationRequired": true})
	}
	return c.Status(fiber.StatusCreated).JSON(s.issue(c, res, in.RefreshTokenInBody))
}

func (s *Server) authLogin(c fiber.Ctx) error {
	var in struct {
		Email    string `json:"email"`
		Password string `json:"password"`
		tokenChoice
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	res, err := s.svc.Auth.Login(c.Context(), in.Email, in.Password, s.authClient(c))
	if errors.Is(err, auth.ErrInvalidCredentials) {
		// Throttled attempts are not recorded: they were never checked.
		email := auth.NormalizeEmail(in.Email)
		s.record(c, audit.Event{Type: audit.SignInFailed, Actor: email, Target: email, Details: map[string]string{"reason": "password"}})
	}
	if err != nil {
		return err
	}
	if res.Challenge != nil {
		// Two-factor sign-in: no session and no cookie until the code.
		return c.JSON(res.Challenge)
	}
	s.record(c, audit.Event{Type: audit.SignIn, Actor: res.User.Email, Target: res.User.Email, Details: map[string]string{"method": "password"}})
	return c.JSON(s.issue(c, res, in.RefreshTokenInBody))
}

// authLoginMFA is the second step of a two-factor sign-in.
func (s *Server) authLoginMFA(c fiber.Ctx) error {
	var in struct {
		MFAToken string `json:"mfaToken"`
		Code     string `json:"code"`
		tokenChoice
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	res, err := s.svc.Auth.LoginMFA(c.Context(), in.MFAToken, in.Code, s.authClient(c))
	if errors.Is(err, auth.ErrInvalidCode) {
		s.record(c, audit.Event{Type: audit.SignInFailed, Details: map[string]string{"reason": "one-time code"}})
		return NewError(fiber.StatusUnauthorized, err.Error())
	}
	if err != nil {
		return err
	}
	s.record(c, audit.Event{Type: audit.SignIn, Actor: res.User.Email, Target: res.User.Email, Details: map[string]string{"method": "password + one-time code"}})
	return c.JSON(s.issue(c, res, in.RefreshTokenInBody))
}

func (s *Server) authTwoFactor(c fiber.Ctx) error {
	st, err := s.svc.Auth.TwoFactor(currentUser(c).User.Email)
	if err != nil {
		return err
	}
	return c.JSON(st)
}

func (s *Server) authTOTPBegin(c fiber.Ctx) error {
	en, err := s.svc.Auth.BeginTOTP(c.Context(), currentUser(c))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(en)
}

// codeBody is {code}: a one-time or recovery code.
type codeBody struct {
	Code string `json:"code"`
}

// confirmTOTPBody is {code, signOutOthers}. signOutOthers absent means
// true: turning on a second factor ends the sessions begun without it unless
// the caller asks to keep them.
type confirmTOTPBody struct {
	Code          string `json:"code"`
	SignOutOthers *bool  `json:"signOutOthers"`
}

func (s *Server) authTOTPConfirm(c fiber.Ctx) error {
	var in confirmTOTPBody
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	signOutOthers := in.SignOutOthers == nil || *in.SignOutOthers
	p := currentUser(c)
	codes, n, err := s.svc.Auth.ConfirmTOTP(c.Context(), p, in.Code, signOutOthers, s.authClient(c))
	if err != nil {
		return err
	}
	me := p.User.Email
	s.record(c, audit.Event{Type: audit.TwoFactorOn, Actor: me, Target: me})
	if n > 0 {
		s.record(c, audit.Event{Type: audit.SessionsRevoked, Actor: me, Target: me,
			Details: map[string]string{"sessions": "all others", "count": strconv.Itoa(n)}})
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(fiber.Map{"recoveryCodes": codes, "signedOut": n})
}

func (s *Server) authTOTPDisable(c fiber.Ctx) error {
	var in codeBody
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	if err := s.svc.Auth.DisableTOTP(c.Context(), currentUser(c), in.Code, s.authClient(c)); err != nil {
		return err
	}
	me := currentUser(c).User.Email
	s.record(c, audit.Event{Type: audit.TwoFactorOff, Actor: me, Target: me})
	return c.SendStatus(fiber.StatusNoContent)
}

// refreshAnswer keeps the spec's `token` next to the DESIGN's names. The
// new refresh token is in it only for a client that sent its refresh token
// in the body (it has no cookie to receive it in).
type refreshAnswer struct {
	Token        string    `json:"token"`
	AccessToken  string    `json:"accessToken"`
	RefreshToken string    `json:"refreshToken,omitempty"`
	ExpiresIn    int64     `json:"expiresIn"`
	User         auth.User `json:"user"`
}

func (s *Server) authRefresh(c fiber.Ctx) error {
	tok, fromBody, err := refreshFromRequest(c)
	if err != nil {
		return err
	}
	res, err := s.svc.Auth.Refresh(c.Context(), tok, s.authClient(c))
	if err != nil {
		s.clearRefreshCookie(c)
		return err
	}
	res = s.issue(c, res, fromBody)
	return c.JSON(refreshAnswer{
		Token: res.Tokens.AccessToken, AccessToken: res.Tokens.AccessToken,
		RefreshToken: res.Tokens.RefreshToken, ExpiresIn: res.Tokens.ExpiresIn, User: res.User,
	})
}

// authLogout ends the session named by the access token, or by the refresh
// token when the access token has already expired.
func (s *Server) authLogout(c fiber.Ctx) error {
	s.clearRefreshCookie(c)
	ended := false
	if p, err := s.svc.Auth.Authenticate(bearerToken(c)); err == nil {
		if err := s.svc.Auth.Logout(c.Context(), p.SessionID); err != nil {
			return err
		}
		ended = true
	}
	tok, _, err := refreshFromRequest(c)
	if err != nil {
		return err
	}
	if tok != "" && s.svc.Auth.LogoutRefresh(c.Context(), tok) == nil {
		ended = true
	}
	if !ended {
		return NewError(fiber.StatusUnauthorized, "no session to end")
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) authProfile(c fiber.Ctx) error {
	return c.JSON(currentUser(c).User)
}

func (s *Server) authChangePassword(c fiber.Ctx) error {
	var in struct {
		OldPassword string `json:"oldPassword"`
		NewPassword string `json:"newPassword"`
		tokenChoice
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	res, err := s.svc.Auth.ChangePassword(c.Context(), currentUser(c), in.OldPassword, in.NewPassword, s.authClient(c))
	if err != nil {
		return err
	}
	s.record(c, audit.Event{Type: audit.PasswordChanged, Actor: res.User.Email, Target: res.User.Email})
	// Every earlier token and session is now invalid, the caller's too; the
	// answer (and the cookie) carry the caller's new session.
	res = s.issue(c, res, in.RefreshTokenInBody)
	return c.JSON(fiber.Map{"message": "Password changed successfully", "token": res.Tokens.AccessToken,
		"accessToken": res.Tokens.AccessToken, "tokens": res.Tokens})
}

func (s *Server) authAdminUsers(c fiber.Ctx) error {
	users, err := s.adminUserPage(c)
	if err != nil {
		return err
	}
	return c.JSON(users)
}
