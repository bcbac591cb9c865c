package server

import (
	"github.com/gofiber/fiber/v3"
)

// mountVerifyEmail binds the links mailed to prove an address: opening one
// (a new account's verification, or the confirmation of a change of
// e-mail at the new address) and asking for a new verification link.
func (s *Server) mountVerifyEmail(api fiber.Router) {
	api.Post("/auth/verify-email", s.sameOrigin, s.confirmEmail)
	api.Post("/auth/verify-email/resend", s.sameOrigin, s.resendVerification)
}

// confirmEmail spends the link's token; whoever holds the link may, signed
// in or not.
func (s *Server) confirmEmail(c fiber.Ctx) error {
	var in struct {
		Token string `json:"token"`
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	res, err := s.hub.ConfirmEmail(c.Context(), s.actor(c), in.Token)
	if err != nil {
		return err
	}
	return c.JSON(res)
}

// resendVerification answers 202 whatever the address: whether an account
// has it, or is verified already, shows neither in the answer nor in its
// time.
func (s *Server) resendVerification(c fiber.Ctx) error {
	var in struct {
		Email string `json:"email"`
		Lang  string `json:"lang"`
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	actor := s.actor(c)
	actor.Lang = in.Lang
	if err := s.hub.ResendVerification(c.Context(), actor, in.Email); err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{
		"message": "if an account with this address waits for verification, a new link is on its way"})
}
