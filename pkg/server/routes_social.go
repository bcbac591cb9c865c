package server

import (
	"context"
	"strconv"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/social"
	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/usecase"
)

// contactBodyLimit bounds the contact form's body: the message's limit in
// UTF-8 at its widest, the other fields and the proof of work.
const contactBodyLimit = 64 << 10

// mountSocial registers people search, friends, blocks, direct messages and
// the contact form. Every route but the contact form's is the signed-in
// caller's own: a conversation is named by the other member only, so no
// one, admins included, can name a conversation they are not part of.
func (s *Server) mountSocial(api fiber.Router) {
	api.Get("/users", s.requireUser, s.searchPeople)
	api.Get("/friends", s.requireUser, s.friends)
	api.Post("/friends/requests", s.requireUser, s.requestFriend)
	api.Post("/friends/requests/:id/accept", s.requireUser, s.idAction("id", func(ctx context.Context, a usecase.Actor, id uint64) error {
		return s.hub.AnswerFriendRequest(ctx, a, id, true)
	}))
	api.Post("/friends/requests/:id/decline", s.requireUser, s.idAction("id", func(ctx context.Context, a usecase.Actor, id uint64) error {
		return s.hub.AnswerFriendRequest(ctx, a, id, false)
	}))
	api.Delete("/friends/requests/:id", s.requireUser, s.idAction("id", s.hub.CancelFriendRequest))
	api.Delete("/friends/:userId", s.requireUser, s.idAction("userId", s.hub.Unfriend))
	api.Post("/blocks/:userId", s.requireUser, s.idAction("userId", s.hub.Block))
	api.Delete("/blocks/:userId", s.requireUser, s.idAction("userId", s.hub.Unblock))
	api.Get("/conversations", s.requireUser, s.conversations)
	api.Get("/conversations/:userId/messages", s.requireUser, s.conversationMessages)
	api.Post("/conversations/:userId/messages", s.requireUser, s.sendMessage)
	api.Post("/conversations/:userId/read", s.requireUser, s.markRead)
	api.Delete("/conversations/:userId/messages/:id", s.requireUser, s.deleteMessage)
	api.Get("/contact/challenge", s.contactChallenge)
	api.Post("/contact", s.limitBody(contactBodyLimit), s.contact)
}

// idParam reads the path parameter name as an account or record id (0 is
// the contact form's conversation where a user id is expected).
func idParam(c fiber.Ctx, name string) (uint64, error) {
	raw := c.Params(name)
	id, err := strconv.ParseUint(raw, 10, 64)
	if err != nil || raw[0] == '+' {
		return 0, NewError(fiber.StatusBadRequest, name+" must be a number")
	}
	return id, nil
}

func (s *Server) searchPeople(c fiber.Ctx) error {
	out, err := s.hub.SearchPeople(c.Context(), s.actor(c), c.Query("search"))
	if err != nil {
		return err
	}
	return noStoreJSON(c, out)
}

func noStoreJSON(c fiber.Ctx, v any) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(v)
}

func (s *Server) friends(c fiber.Ctx) error {
	out, err := s.hub.Friends(c.Context(), s.actor(c))
	if err != nil {
		return err
	}
	return noStoreJSON(c, out)
}

func (s *Server) requestFriend(c fiber.Ctx) error {
	var in struct {
		UserID *uint64 `json:"userId"`
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	if in.UserID == nil {
		return store.Invalid("userId", "required", "userId is required")
	}
	r, err := s.hub.RequestFriend(c.Context(), s.actor(c), *in.UserID)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(r)
}

// idAction answers 204 once act has done its work on the account or record
// named by the path parameter name.
func (s *Server) idAction(name string, act func(ctx context.Context, a usecase.Actor, id uint64) error) fiber.Handler {
	return func(c fiber.Ctx) error {
		id, err := idParam(c, name)
		if err != nil {
			return err
		}
		if err := act(c.Context(), s.actor(c), id); err != nil {
			return err
		}
		return c.SendStatus(fiber.StatusNoContent)
	}
}

func (s *Server) conversations(c fiber.Ctx) error {
	out, err := s.hub.Conversations(c.Context(), s.actor(c))
	if err != nil {
		return err
	}
	return noStoreJSON(c, out)
}

func (s *Server) conversationMessages(c fiber.Ctx) error {
	peer, err := idParam(c, "userId")
	if err != nil {
		return err
	}
	var v store.Validator
	before, limit := queryInt(c, "before", &v), queryInt(c, "limit", &v)
	if err := v.Err(); err != nil {
		return err
	}
	out, err := s.hub.ConversationMessages(c.Context(), s.actor(c), peer, uint64(before), limit)
	if err != nil {
		return err
	}
	return noStoreJSON(c, out)
}

func (s *Server) sendMessage(c fiber.Ctx) error {
	peer, err := idParam(c, "userId")
	if err != nil {
		return err
	}
	var in struct {
		Text string `json:"text"`
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	m, err := s.hub.SendMessage(c.Context(), s.actor(c), peer, in.Text)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(m)
}

func (s *Server) markRead(c fiber.Ctx) error {
	peer, err := idParam(c, "userId")
	if err != nil {
		return err
	}
	var in struct {
		UpTo uint64 `json:"upTo"`
	}
	if len(c.Body()) > 0 {
		if err := bindJSON(c, &in); err != nil {
			return err
		}
	}
	at, err := s.hub.MarkConversationRead(c.Context(), s.actor(c), peer, in.UpTo)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"readUpTo": at})
}

func (s *Server) deleteMessage(c fiber.Ctx) error {
	peer, err := idParam(c, "userId")
	if err != nil {
		return err
	}
	return s.idAction("id", func(ctx context.Context, a usecase.Actor, id uint64) error {
		return s.hub.DeleteDirectMessage(ctx, a, peer, id)
	})(c)
}

func (s *Server) contactChallenge(c fiber.Ctx) error {
	return noStoreJSON(c, s.hub.ContactChallenge())
}

// contact answers POST /api/contact {name, email, message, website, altcha}
// for anyone: 201 once the message is kept.
func (s *Server) contact(c fiber.Ctx) error {
	var in struct {
		Name    string `json:"name"`
		Email   string `json:"email"`
		Message string `json:"message"`
		Website string `json:"website"`
		Altcha  string `json:"altcha"`
	}
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	err := s.hub.Contact(c.Context(), s.actor(c), social.ContactInput{Name: in.Name, Email: in.Email, Message: in.Message,
		Website: in.Website, Altcha: in.Altcha, IP: s.clientIP(c)})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"received": true})
}
