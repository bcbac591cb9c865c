package server

import (
	"bytes"
	"context"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/blog"
	"github.com/devhub/devhub/pkg/discuss"
	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/usecase"
)

// mountDiscuss serves comments under articles, the forum, their shared
// moderation (the admin queue and block list) and the forum's Atom feed.
// Guests read; signed-in accounts post; admins moderate.
func (s *Server) mountDiscuss(app *fiber.App, api fiber.Router) {
	api.Get("/blog/:id/comments", s.optionalUser, s.commentList)
	api.Post("/blog/:id/comments", s.requireUser, contentWrite(s, fiber.StatusCreated, s.addComment))
	api.Put("/blog/:id/comments/closed", s.requireAdmin, s.switchOn("id", s.hub.CloseComments, true))
	api.Delete("/blog/:id/comments/closed", s.requireAdmin, s.switchOn("id", s.hub.CloseComments, false))
	api.Get("/comments/counts", s.commentCounts)
	api.Patch("/comments/:id", s.requireUser, contentEdit(s, s.hub.EditComment))
	api.Delete("/comments/:id", s.requireUser, s.deleteByID(s.hub.DeleteComment))
	api.Post("/comments/:id/approve", s.requireAdmin, contentModerate(s, s.hub.ModerateComment, discuss.Published))
	api.Post("/comments/:id/hide", s.requireAdmin, contentModerate(s, s.hub.ModerateComment, discuss.Hidden))

	api.Get("/moderation/queue", s.requireAdmin, s.moderationQueue)
	api.Get("/moderation/blocks", s.requireAdmin, s.moderationBlocks)
	api.Put("/moderation/blocks/:userId", s.requireAdmin, s.switchOn("userId", s.hub.BlockUser, true))
	api.Delete("/moderation/blocks/:userId", s.requireAdmin, s.switchOn("userId", s.hub.BlockUser, false))

	f := api.Group("/forum")
	f.Get("/categories", s.forumCategories)
	f.Post("/categories", s.requireAdmin, s.forumCategorySave)
	f.Patch("/categories/:id", s.requireAdmin, s.forumCategorySave)
	f.Delete("/categories/:id", s.requireAdmin, s.deleteByID(dropResult(s.hub.DeleteForumCategory)))
	f.Get("/categories/:id/threads", s.optionalUser, s.forumThreads)
	f.Post("/categories/:id/threads", s.requireUser, contentWrite(s, fiber.StatusCreated, s.startThread))
	f.Get("/search", s.optionalUser, s.forumThreads)
	f.Get("/threads/:id", s.optionalUser, s.forumThread)
	f.Patch("/threads/:id", s.requireAdmin, s.forumThreadFlags)
	f.Delete("/threads/:id", s.requireAdmin, s.deleteByID(dropResult(s.hub.DeleteForumThread)))
	f.Post("/threads/:id/posts", s.requireUser, contentWrite(s, fiber.StatusCreated, s.replyToThread))
	f.Put("/threads/:id/follow", s.requireUser, s.switchOn("id", s.hub.FollowThread, true))
	f.Delete("/threads/:id/follow", s.requireUser, s.switchOn("id", s.hub.FollowThread, false))
	f.Patch("/posts/:id", s.requireUser, contentEdit(s, s.hub.EditForumPost))
	f.Delete("/posts/:id", s.requireUser, s.deleteByID(s.hub.DeleteForumPost))
	f.Post("/posts/:id/approve", s.requireAdmin, contentModerate(s, s.hub.ModerateForumPost, discuss.Published))
	f.Post("/posts/:id/hide", s.requireAdmin, contentModerate(s, s.hub.ModerateForumPost, discuss.Hidden))
	app.Get("/forum/feed.xml", s.forumFeed)
}

// contentBody is the body of a comment or post: its Markdown, and for a
// comment the comment it replies to.
type contentBody struct {
	Content  *string `json:"content"`
	ParentID *uint64 `json:"parentId"`
	Title    *string `json:"title"`
}

func (b *contentBody) content() string { return deref(b.Content) }

// A comment and a forum post are written, edited, deleted and moderated
// alike, a forum category and thread are deleted alike, and closing
// comments, following a thread and blocking an account are alike too: the
// record named by a path parameter (anything but a positive number is not
// found), the action of the signed-in actor, and the new or changed record
// as JSON, or 204.

// contentWrite is a route whose body is a contentBody: a new comment under
// an article, thread or post in it (201), or the new Markdown of a comment
// or post (200). id is the record the path names.
func contentWrite[T any](s *Server, status int, write func(ctx context.Context, a usecase.Actor, id uint64, body contentBody) (T, error)) fiber.Handler {
	return func(c fiber.Ctx) error {
		id, err := blog.ParseID(c.Params("id"))
		if err != nil {
			return err
		}
		var body contentBody
		if err := bindJSON(c, &body); err != nil {
			return err
		}
		out, err := write(c.Context(), s.actor(c), id, body)
		if err != nil {
			return err
		}
		return c.Status(status).JSON(out)
	}
}

// contentEdit is PATCH /comments/:id and /forum/posts/:id: the new
// Markdown in the body.
func contentEdit[T any](s *Server, edit func(context.Context, usecase.Actor, uint64, string) (T, error)) fiber.Handler {
	return contentWrite(s, fiber.StatusOK, func(ctx context.Context, a usecase.Actor, id uint64, body contentBody) (T, error) {
		return edit(ctx, a, id, body.content())
	})
}

// addComment is POST /blog/:id/comments: a comment on the article, or a
// reply to its comment parentId.
func (s *Server) addComment(ctx context.Context, a usecase.Actor, article uint64, body contentBody) (*discuss.Comment, error) {
	var parent uint64
	if body.ParentID != nil {
		parent = *body.ParentID
	}
	return s.hub.AddComment(ctx, a, article, parent, body.content())
}

// startThread is POST /forum/categories/:id/threads: the title and the
// first post.
func (s *Server) startThread(ctx context.Context, a usecase.Actor, category uint64, body contentBody) (*usecase.ThreadView, error) {
	return s.hub.StartThread(ctx, a, category, deref(body.Title), body.content())
}

// replyToThread is POST /forum/threads/:id/posts.
func (s *Server) replyToThread(ctx context.Context, a usecase.Actor, thread uint64, body contentBody) (*discuss.Post, error) {
	return s.hub.ReplyToThread(ctx, a, thread, body.content())
}

// deleteByID is DELETE /comments/:id, /forum/posts/:id, /forum/categories/:id
// and /forum/threads/:id.
func (s *Server) deleteByID(del func(context.Context, usecase.Actor, uint64) error) fiber.Handler {
	return func(c fiber.Ctx) error {
		id, err := blog.ParseID(c.Params("id"))
		if err != nil {
			return err
		}
		if err := del(c.Context(), s.actor(c), id); err != nil {
			return err
		}
		return c.SendStatus(fiber.StatusNoContent)
	}
}

// dropResult is del without what it returns besides the error (how many
// threads went with a category, the deleted thread): the routes answer 204.
func dropResult[T any](del func(context.Context, usecase.Actor, uint64) (T, error)) func(context.Context, usecase.Actor, uint64) error {
	return func(ctx context.Context, a usecase.Actor, id uint64) error {
		_, err := del(ctx, a, id)
		return err
	}
}

// contentModerate approves or hides a comment or forum post (st).
func contentModerate[T any](s *Server, moderate func(context.Context, usecase.Actor, uint64, discuss.Status) (T, error), st discuss.Status) fiber.Handler {
	return func(c fiber.Ctx) error {
		id, err := blog.ParseID(c.Params("id"))
		if err != nil {
			return err
		}
		out, err := moderate(c.Context(), s.actor(c), id, st)
		if err != nil {
			return err
		}
		return c.JSON(out)
	}
}

// switchOn turns a setting of the record named by the path parameter on
// or off (PUT and DELETE of closed comments, a follow, a block): 204.
func (s *Server) switchOn(param string, set func(context.Context, usecase.Actor, uint64, bool) error, on bool) fiber.Handler {
	return func(c fiber.Ctx) error {
		id, err := blog.ParseID(c.Params(param))
		if err != nil {
			return err
		}
		if err := set(c.Context(), s.actor(c), id, on); err != nil {
			return err
		}
		return c.SendStatus(fiber.StatusNoContent)
	}
}

func (s *Server) commentList(c fiber.Ctx) error {
	id, err := blog.ParseID(c.Params("id"))
	if err != nil {
		return err
	}
	var v store.Validator
	q := discuss.CommentQuery{Limit: queryInt(c, "limit", &v)}
	if raw := c.Query("before"); raw != "" {
		n, err := strconv.ParseUint(raw, 10, 64)
		if err != nil || n == 0 {
			v.Add("before", "invalid", "before must be a comment id")
		}
		q.Before = n
	}
	if err := v.Err(); err != nil {
		return err
	}
	out, err := s.hub.Comments(c.Context(), s.actor(c), id, q)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(out)
}

// maxCountIDs bounds the articles one count request names.
const maxCountIDs = 100

func (s *Server) commentCounts(c fiber.Ctx) error {
	var ids []uint64
	for _, raw := range strings.Split(c.Query("ids"), ",") {
		if raw = strings.TrimSpace(raw); raw == "" {
			continue
		}
		id, err := strconv.ParseUint(raw, 10, 64)
		if err != nil || id == 0 {
			return store.Invalid("ids", "invalid", "ids must be article ids separated by commas")
		}
		ids = append(ids, id)
	}
	if len(ids) > maxCountIDs {
		return store.Invalid("ids", "too_many", "at most "+strconv.Itoa(maxCountIDs)+" ids at once")
	}
	counts, err := s.hub.CommentCounts(c.Context(), s.actor(c), ids)
	if err != nil {
		return err
	}
	out := make(map[string]int, len(counts))
	for id, n := range counts {
		out[strconv.FormatUint(id, 10)] = n
	}
	return c.JSON(fiber.Map{"counts": out})
}

func (s *Server) moderationQueue(c fiber.Ctx) error {
	items, err := s.hub.ModerationQueue(c.Context(), s.actor(c))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(fiber.Map{"items": items})
}

func (s *Server) moderationBlocks(c fiber.Ctx) error {
	blocks, err := s.hub.Blocks(c.Context(), s.actor(c))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(fiber.Map{"blocks": blocks})
}

func (s *Server) forumCategories(c fiber.Ctx) error {
	cats, err := s.hub.ForumCategories(c.Context(), s.actor(c))
	if err != nil {
		return err
	}
	return c.JSON(cats)
}

// categoryBody is the body that creates or changes a forum category.
type categoryBody struct {
	Name         *string           `json:"name"`
	Names        map[string]string `json:"names"`
	Description  *string           `json:"description"`
	Descriptions map[string]string `json:"descriptions"`
	Position     *int              `json:"position"`
}

func (s *Server) forumCategorySave(c fiber.Ctx) error {
	var id uint64
	if raw := c.Params("id"); raw != "" {
		n, err := blog.ParseID(raw)
		if err != nil {
			return err
		}
		id = n
	}
	var body categoryBody
	if err := bindJSON(c, &body); err != nil {
		return err
	}
	cat, err := s.hub.SaveForumCategory(c.Context(), s.actor(c), id, discuss.CategoryInput{Name: body.Name, Names: body.Names,
		Description: body.Description, Descriptions: body.Descriptions, Position: body.Position})
	if err != nil {
		return err
	}
	if id == 0 {
		c.Status(fiber.StatusCreated)
	}
	return c.JSON(cat)
}

// forumThreads lists a category's threads, or searches all of them
// (/forum/search?q=).
func (s *Server) forumThreads(c fiber.Ctx) error {
	var v store.Validator
	pq := queryPage(c, &v)
	q := discuss.ThreadQuery{Page: pq.Page, Limit: pq.Limit, Search: c.Query("q")}
	switch sort := c.Query("sort"); sort {
	case "", string(discuss.Newest), string(discuss.Active):
		q.Sort = discuss.Sort(sort)
	default:
		v.Add("sort", "invalid", "sort must be newest or active")
	}
	if raw := c.Params("id"); raw != "" {
		id, err := blog.ParseID(raw)
		if err != nil {
			return err
		}
		q.Category = id
	} else if strings.TrimSpace(q.Search) == "" {
		v.Add("q", "required", "say what to search for")
	}
	if err := v.Err(); err != nil {
		return err
	}
	cat, page, err := s.hub.ForumThreads(c.Context(), s.actor(c), q)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(fiber.Map{"category": cat, "threads": page.Threads, "total": page.Total})
}

func (s *Server) forumThread(c fiber.Ctx) error {
	id, err := blog.ParseID(c.Params("id"))
	if err != nil {
		return err
	}
	var v store.Validator
	pq := queryPage(c, &v)
	if err := v.Err(); err != nil {
		return err
	}
	view, err := s.hub.ForumThread(c.Context(), s.actor(c), id, pq.Page, pq.Limit)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(view)
}

func (s *Server) forumThreadFlags(c fiber.Ctx) error {
	id, err := blog.ParseID(c.Params("id"))
	if err != nil {
		return err
	}
	var body struct {
		Pinned *bool `json:"pinned"`
		Locked *bool `json:"locked"`
	}
	if err := bindJSON(c, &body); err != nil {
		return err
	}
	t, err := s.hub.SetThreadFlags(c.Context(), s.actor(c), id, discuss.ThreadFlags{Pinned: body.Pinned, Locked: body.Locked})
	if err != nil {
		return err
	}
	return c.JSON(t)
}

// forumFeed is the Atom feed of the newest threads.
func (s *Server) forumFeed(c fiber.Ctx) error {
	threads, err := s.svc.Discuss.RecentThreads(discuss.FeedSize)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := discuss.WriteFeed(&buf, s.cfg.Server.PublicURL, s.siteName(headLang), threads); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/atom+xml; charset=utf-8")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	return c.Send(buf.Bytes())
}
