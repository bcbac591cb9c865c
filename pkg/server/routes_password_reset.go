package server

import (
	"github.com/gofiber/fiber/v3"
)

// mountPasswordReset binds "forgot password": asking for a reset link by
// e-mail and setting a new password with it. Whether it is offered (mail on
// and server.public_url set) is public, so the sign-in page can link to it.
func (s *Server) mountPasswordReset(app *fiber.App, api fiber.Router) {
	g := api.Group("/auth/password", s.sameOrigin)
	g.Get("/forgot", func(c fiber.Ctx) error {
		return c.JSON(fiber.Map{"available": s.hub.PasswordResetAvailable()})
	})
	g.Post("/forgot", s.forgotPassword)
	g.Post("/reset", s.resetPassword)
	// Reset mails still being queued finish before the store closes.
	app.Hooks().OnPostShutdown(func(error) error { s.hub.Wait(); return nil })
}

// forgotPassword answers 202 whatever the address: whether an account has
// it shows neither in the answer nor in its time.
func (s *Server) forgotPassword(c fiber.Ctx) error {
	var in struct {
		Email string `json:"email"`
		Lang  string `json:"lang"`
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	if err := s.hub.ForgotPassword(c.Context(), s.actor(c), in.Email, in.Lang); err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{
		"message": "if an account has this address, a link to set a new password is on its way"})
}

func (s *Server) resetPassword(c fiber.Ctx) error {
	var in struct {
		Token       string `json:"token"`
		NewPassword string `json:"newPassword"`
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	if err := s.hub.ResetPassword(c.Context(), s.actor(c), in.Token, in.NewPassword); err != nil {
		return err
	}
	s.clearRefreshCookie(c)
	return c.JSON(fiber.Map{"message": "password changed; sign in with the new one"})
}
