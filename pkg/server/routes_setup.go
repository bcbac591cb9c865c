package server

import (
	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/auth"
)

// mountSetup binds the first run's page API: the link serve prints while
// the store has no admin opens /setup?token=…, which checks the token and
// creates the owner's account with it.
func (s *Server) mountSetup(api fiber.Router) {
	g := api.Group("/setup", s.sameOrigin)
	g.Post("/check", s.setupCheck)
	g.Post("/owner", s.setupOwner)
}

func (s *Server) setupCheck(c fiber.Ctx) error {
	var in struct {
		Token string `json:"token"`
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	if err := s.hub.CheckOwnerSetup(in.Token); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) setupOwner(c fiber.Ctx) error {
	var in struct {
		Token           string `json:"token"`
		Name            string `json:"name"`
		Email           string `json:"email"`
		Password        string `json:"password"`
		ConfirmPassword string `json:"confirmPassword"`
		tokenChoice
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	res, err := s.hub.CreateOwner(c.Context(), s.actor(c), auth.OwnerInput{Token: in.Token, Name: in.Name, Email: in.Email,
		Password: in.Password, ConfirmPassword: in.ConfirmPassword}, s.authClient(c))
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(s.issue(c, res, in.RefreshTokenInBody))
}
