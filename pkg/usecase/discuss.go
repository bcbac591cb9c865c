package usecase

import (
	"context"
	"log/slog"
	"net/netip"
	"strconv"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/discuss"
	"github.com/devhub/devhub/pkg/notify"
	"github.com/devhub/devhub/pkg/store"
)

// Audit event types of moderation.
const (
	AuditModApproved  = "moderation.approved"
	AuditModHidden    = "moderation.hidden"
	AuditModDeleted   = "moderation.deleted"
	AuditModBlocked   = "moderation.blocked"
	AuditModUnblocked = "moderation.unblocked"
	AuditForumChanged = "forum.changed"
)

// notifyAll notifies each of to (but never the actor, nor twice), after
// the action is stored; a failure is logged, never the action's failure.
func (h *Hub) notifyAll(ctx context.Context, actor Actor, to []uint64, kind string, data any) {
	if h.Notify == nil {
		return
	}
	seen := map[uint64]bool{actor.UserID: true, 0: true}
	for _, id := range to {
		if seen[id] {
			continue
		}
		seen[id] = true
		if err := h.Notify.Add(context.WithoutCancel(ctx), id, kind, data); err != nil {
			h.log().Warn("notify", slog.String("kind", kind), slog.Uint64("user", id), slog.Any("err", err))
		}
	}
}

// viewerOf is the actor as the discussions' visibility sees it.
func (a Actor) viewerOf() discuss.Viewer { return discuss.Viewer{ID: a.UserID, Admin: a.Admin} }

// poster is the signed-in actor as the one who posts. The owner at the
// terminal has no account to post as.
func (h *Hub) poster(actor Actor) (discuss.Poster, error) {
	if actor.UserID == 0 {
		return discuss.Poster{}, store.Refuse(store.KindForbidden, "sign in to post")
	}
	u, err := h.Auth.UserByID(actor.UserID)
	if err != nil {
		return discuss.Poster{}, store.Refuse(store.KindForbidden, "sign in to post")
	}
	ip, _ := netip.ParseAddr(actor.IP)
	return discuss.Poster{ID: u.ID, Name: u.Name, Admin: u.IsAdmin(), CreatedAt: u.CreatedAt, IP: ip}, nil
}

// articleFor is the article the actor may read, or not found: a draft or
// a scheduled article is an admin's alone, its comments too.
func (h *Hub) articleFor(actor Actor, id uint64) error {
	if h.Blog == nil {
		return store.ErrNotFound
	}
	_, err := h.Blog.GetFor(id, actor.Admin)
	return err
}

// admins are the accounts with the admin role.
func (h *Hub) admins() []uint64 {
	users, err := h.Auth.Users()
	if err != nil {
		return nil
	}
	var out []uint64
	for _, u := range users {
		if u.IsAdmin() {
			out = append(out, u.ID)
		}
	}
	return out
}

// Comments lists the page q of the comments under an article the actor may
// read.
func (h *Hub) Comments(_ context.Context, actor Actor, article uint64, q discuss.CommentQuery) (discuss.Comments, error) {
	if err := h.articleFor(actor, article); err != nil {
		return discuss.Comments{}, err
	}
	cs, err := h.Discuss.CommentsOf(article, actor.viewerOf(), q)
	if err == nil {
		h.avatarLookup().comments(cs.Comments)
	}
	return cs, err
}

// CommentCounts counts the published comments of each article.
func (h *Hub) CommentCounts(_ context.Context, _ Actor, articles []uint64) (map[uint64]int, error) {
	return h.Discuss.CommentCounts(articles)
}

// AddComment posts the actor's comment (a reply to parent when non-zero);
// the parent's author is told of a published reply, the admins of every
// new comment.
func (h *Hub) AddComment(ctx context.Context, actor Actor, article, parent uint64, content string) (*discuss.Comment, error) {
	if err := h.articleFor(actor, article); err != nil {
		return nil, err
	}
	p, err := h.poster(actor)
	if err != nil {
		return nil, err
	}
	c, err := h.Discuss.AddComment(ctx, article, parent, p, content)
	if err != nil {
		return nil, err
	}
	c.Author.AvatarURL = h.avatarLookup().of(c.Author.ID)
	h.announceComment(ctx, actor, c)
	return c, nil
}

// announceComment notifies of a comment: the admins of a new one, the
// parent's author of a published reply.
func (h *Hub) announceComment(ctx context.Context, actor Actor, c *discuss.Comment) {
	data := map[string]any{"commentId": c.ID, "articleId": c.ArticleID, "author": c.Author, "status": c.Status}
	h.notifyAll(ctx, actor, h.admins(), notify.KindCommentNew, data)
	if c.ParentID != nil && c.Status == discuss.Published {
		if parent, err := h.Discuss.Comment(*c.ParentID); err == nil {
			h.notifyAll(ctx, actor, []uint64{parent.Author.ID}, notify.KindCommentReply, data)
		}
	}
}

// EditComment changes the text of the actor's own comment within the edit
// window.
func (h *Hub) EditComment(ctx context.Context, actor Actor, id uint64, content string) (*discuss.Comment, error) {
	if _, err := h.commentFor(actor, id); err != nil {
		return nil, err
	}
	p, err := h.poster(actor)
	if err != nil {
		return nil, err
	}
	c, err := h.Discuss.EditComment(ctx, id, p, content)
	if err == nil {
		c.Author.AvatarURL = h.avatarLookup().of(c.Author.ID)
	}
	return c, err
}

// commentFor is comment id when the actor may see it and its article.
func (h *Hub) commentFor(actor Actor, id uint64) (*discuss.Comment, error) {
	c, err := h.Discuss.Comment(id)
	if err != nil {
		return nil, err
	}
	v := actor.viewerOf()
	if !v.Admin && c.Status != discuss.Published && c.Author.ID != v.ID {
		return nil, store.ErrNotFound
	}
	if c.Status == discuss.Hidden && !v.Admin {
		return nil, store.ErrNotFound
	}
	return c, nil
}

// DeleteComment deletes a comment (and the replies to it): its author or
// an admin.
func (h *Hub) DeleteComment(ctx context.Context, actor Actor, id uint64) error {
	c, err := h.commentFor(actor, id)
	if err != nil {
		return err
	}
	if !actor.Admin && (c.Author.ID == 0 || c.Author.ID != actor.UserID) {
		return store.Refuse(store.KindForbidden, "only the author or an administrator may delete this comment")
	}
	if _, err := h.Discuss.DeleteComment(ctx, id); err != nil {
		return err
	}
	if actor.Admin && c.Author.ID != actor.UserID {
		h.record(ctx, actor, audit.Event{Type: AuditModDeleted, Target: "comment " + strconv.FormatUint(id, 10),
			Details: map[string]string{"author": c.Author.Name}})
	}
	return nil
}

// ModerateComment publishes (approves) or hides a comment. Admins only.
func (h *Hub) ModerateComment(ctx context.Context, actor Actor, id uint64, st discuss.Status) (*discuss.Comment, error) {
	if err := requireAdmin(actor); err != nil {
		return nil, err
	}
	before, err := h.Discuss.Comment(id)
	if err != nil {
		return nil, err
	}
	c, err := h.Discuss.SetCommentStatus(ctx, id, st)
	if err != nil {
		return nil, err
	}
	h.recordModeration(ctx, actor, st, "comment", id, c.Author.Name)
	if before.Status != discuss.Published && st == discuss.Published && c.ParentID != nil {
		if parent, err := h.Discuss.Comment(*c.ParentID); err == nil {
			h.notifyAll(ctx, Actor{UserID: c.Author.ID}, []uint64{parent.Author.ID}, notify.KindCommentReply,
				map[string]any{"commentId": c.ID, "articleId": c.ArticleID, "author": c.Author, "status": c.Status})
		}
	}
	return c, nil
}

func (h *Hub) recordModeration(ctx context.Context, actor Actor, st discuss.Status, kind string, id uint64, author string) {
	typ := AuditModApproved
	if st == discuss.Hidden {
		typ = AuditModHidden
	}
	h.record(ctx, actor, audit.Event{Type: typ, Target: kind + " " + strconv.FormatUint(id, 10),
		Details: map[string]string{"author": author}})
}

// CloseComments closes (or reopens) the comments on an article. Admins only.
func (h *Hub) CloseComments(ctx context.Context, actor Actor, article uint64, closed bool) error {
	if err := requireAdmin(actor); err != nil {
		return err
	}
	if err := h.articleFor(actor, article); err != nil {
		return err
	}
	return h.Discuss.SetCommentsClosed(ctx, article, closed)
}

// AllComments lists comments for the owner's terminal (every status).
func (h *Hub) AllComments(_ context.Context, actor Actor, article uint64, onlyPending bool) ([]discuss.Comment, error) {
	if err := requireAdmin(actor); err != nil {
		return nil, err
	}
	return h.Discuss.AllComments(article, onlyPending)
}

// ModerationQueue is every pending comment and forum post. Admins only.
func (h *Hub) ModerationQueue(_ context.Context, actor Actor) ([]discuss.QueueItem, error) {
	if err := requireAdmin(actor); err != nil {
		return nil, err
	}
	return h.Discuss.Queue()
}

// Blocks lists the accounts blocked from posting. Admins only.
func (h *Hub) Blocks(_ context.Context, actor Actor) ([]discuss.Block, error) {
	if err := requireAdmin(actor); err != nil {
		return nil, err
	}
	return h.Discuss.Blocks()
}

// BlockUser blocks an account from commenting and posting on the forum and
// hides what it has waiting. Admins only; an admin account cannot be
// blocked.
func (h *Hub) BlockUser(ctx context.Context, actor Actor, userID uint64, on bool) error {
	if err := requireAdmin(actor); err != nil {
		return err
	}
	u, err := h.Auth.UserByID(userID)
	if err != nil {
		return err
	}
	if !on {
		if err := h.Discuss.UnblockUser(ctx, userID); err != nil {
			return err
		}
		h.record(ctx, actor, audit.Event{Type: AuditModUnblocked, Target: u.Email})
		return nil
	}
	if u.IsAdmin() {
		return store.Refuse(store.KindConflict, "an administrator cannot be blocked")
	}
	n, err := h.Discuss.BlockUser(ctx, userID, u.Name)
	if err != nil {
		return err
	}
	h.record(ctx, actor, audit.Event{Type: AuditModBlocked, Target: u.Email, Details: map[string]string{"hidden": strconv.Itoa(n)}})
	return nil
}

// ForumCategories lists the forum's categories.
func (h *Hub) ForumCategories(_ context.Context, _ Actor) ([]discuss.Category, error) {
	return h.Discuss.Categories()
}

// SaveForumCategory creates (id 0) or changes a category. Admins only.
func (h *Hub) SaveForumCategory(ctx context.Context, actor Actor, id uint64, in discuss.CategoryInput) (*discuss.Category, error) {
	if err := requireAdmin(actor); err != nil {
		return nil, err
	}
	c, err := h.Discuss.SaveCategory(ctx, id, in)
	if err != nil {
		return nil, err
	}
	h.record(ctx, actor, audit.Event{Type: AuditForumChanged, Target: "category " + strconv.FormatUint(c.ID, 10),
		Details: map[string]string{"name": c.Name}})
	return c, nil
}

// DeleteForumCategory removes a category with its threads. Admins only.
func (h *Hub) DeleteForumCategory(ctx context.Context, actor Actor, id uint64) (int, error) {
	if err := requireAdmin(actor); err != nil {
		return 0, err
	}
	n, err := h.Discuss.DeleteCategory(ctx, id)
	if err != nil {
		return 0, err
	}
	h.record(ctx, actor, audit.Event{Type: AuditForumChanged, Target: "category " + strconv.FormatUint(id, 10),
		Details: map[string]string{"deleted": "true", "threads": strconv.Itoa(n)}})
	return n, nil
}

// ForumThreads lists a category's threads (or, with category 0, all of
// them: the search and the CLI).
func (h *Hub) ForumThreads(_ context.Context, actor Actor, q discuss.ThreadQuery) (*discuss.Category, discuss.ThreadPage, error) {
	var cat *discuss.Category
	if q.Category != 0 {
		c, err := h.Discuss.Category(q.Category)
		if err != nil {
			return nil, discuss.ThreadPage{}, err
		}
		cat = c
	}
	q.Viewer = actor.viewerOf()
	page, err := h.Discuss.Threads(q)
	return cat, page, err
}

// ThreadView is a thread with one page of its posts.
type ThreadView struct {
	Thread    *discuss.Thread   `json:"thread"`
	Category  *discuss.Category `json:"category"`
	Posts     []discuss.Post    `json:"posts"`
	Total     int               `json:"total"`
	Following bool              `json:"following"`
}

// threadFor is thread id when the actor may see it.
func (h *Hub) threadFor(actor Actor, id uint64) (*discuss.Thread, error) {
	t, err := h.Discuss.Thread(id)
	if err != nil {
		return nil, err
	}
	v := actor.viewerOf()
	if !(v.Admin || t.Status == discuss.Published || (t.Status == discuss.Pending && v.ID != 0 && v.ID == t.Author.ID)) {
		return nil, store.ErrNotFound
	}
	return t, nil
}

// ForumThread is a thread and a page of its posts.
func (h *Hub) ForumThread(_ context.Context, actor Actor, id uint64, page, limit int) (*ThreadView, error) {
	t, err := h.threadFor(actor, id)
	if err != nil {
		return nil, err
	}
	posts, err := h.Discuss.Posts(id, actor.viewerOf(), page, limit)
	if err != nil {
		return nil, err
	}
	cat, _ := h.Discuss.Category(t.CategoryID)
	h.avatarLookup().posts(posts.Posts)
	return &ThreadView{Thread: t, Category: cat, Posts: posts.Posts, Total: posts.Total,
		Following: h.Discuss.Following(id, actor.UserID)}, nil
}

// StartThread starts the actor's thread in a category; the admins are told
// when it waits for approval.
func (h *Hub) StartThread(ctx context.Context, actor Actor, category uint64, title, content string) (*ThreadView, error) {
	p, err := h.poster(actor)
	if err != nil {
		return nil, err
	}
	t, post, err := h.Discuss.CreateThread(ctx, category, p, title, content)
	if err != nil {
		return nil, err
	}
	cat, _ := h.Discuss.Category(category)
	post.Author.AvatarURL = h.avatarLookup().of(post.Author.ID)
	return &ThreadView{Thread: t, Category: cat, Posts: []discuss.Post{*post}, Total: 1, Following: true}, nil
}

// ReplyToThread adds the actor's post to a thread; the thread's followers
// are told of a published reply.
func (h *Hub) ReplyToThread(ctx context.Context, actor Actor, thread uint64, content string) (*discuss.Post, error) {
	t, err := h.threadFor(actor, thread)
	if err != nil {
		return nil, err
	}
	p, err := h.poster(actor)
	if err != nil {
		return nil, err
	}
	post, err := h.Discuss.Reply(ctx, thread, p, content)
	if err != nil {
		return nil, err
	}
	post.Author.AvatarURL = h.avatarLookup().of(post.Author.ID)
	if post.Status == discuss.Published {
		h.announceReply(ctx, actor, t, post)
	}
	return post, nil
}

func (h *Hub) announceReply(ctx context.Context, actor Actor, t *discuss.Thread, post *discuss.Post) {
	followers, err := h.Discuss.Followers(t.ID)
	if err != nil {
		h.log().Warn("thread followers", slog.Uint64("thread", t.ID), slog.Any("err", err))
		return
	}
	h.notifyAll(ctx, actor, followers, notify.KindForumReply,
		map[string]any{"threadId": t.ID, "postId": post.ID, "title": t.Title, "author": post.Author})
}

// postFor is post id when the actor may see it.
func (h *Hub) postFor(actor Actor, id uint64) (*discuss.Post, error) {
	p, err := h.Discuss.Post(id)
	if err != nil {
		return nil, err
	}
	v := actor.viewerOf()
	if !(v.Admin || p.Status == discuss.Published || (p.Status == discuss.Pending && v.ID != 0 && v.ID == p.Author.ID)) {
		return nil, store.ErrNotFound
	}
	return p, nil
}

// EditForumPost changes the text of the actor's own post within the edit
// window.
func (h *Hub) EditForumPost(ctx context.Context, actor Actor, id uint64, content string) (*discuss.Post, error) {
	if _, err := h.postFor(actor, id); err != nil {
		return nil, err
	}
	p, err := h.poster(actor)
	if err != nil {
		return nil, err
	}
	post, err := h.Discuss.EditPost(ctx, id, p, content)
	if err == nil {
		post.Author.AvatarURL = h.avatarLookup().of(post.Author.ID)
	}
	return post, err
}

// DeleteForumPost deletes a post (a first post takes its thread along): its
// author or an admin.
func (h *Hub) DeleteForumPost(ctx context.Context, actor Actor, id uint64) error {
	p, err := h.postFor(actor, id)
	if err != nil {
		return err
	}
	if !actor.Admin && (p.Author.ID == 0 || p.Author.ID != actor.UserID) {
		return store.Refuse(store.KindForbidden, "only the author or an administrator may delete this post")
	}
	if _, _, err := h.Discuss.DeletePost(ctx, id); err != nil {
		return err
	}
	if actor.Admin && p.Author.ID != actor.UserID {
		h.record(ctx, actor, audit.Event{Type: AuditModDeleted, Target: "post " + strconv.FormatUint(id, 10),
			Details: map[string]string{"author": p.Author.Name}})
	}
	return nil
}

// DeleteForumThread deletes a thread with its posts. Admins only.
func (h *Hub) DeleteForumThread(ctx context.Context, actor Actor, id uint64) (*discuss.Thread, error) {
	if err := requireAdmin(actor); err != nil {
		return nil, err
	}
	t, err := h.Discuss.DeleteThread(ctx, id)
	if err != nil {
		return nil, err
	}
	h.record(ctx, actor, audit.Event{Type: AuditModDeleted, Target: "thread " + strconv.FormatUint(id, 10),
		Details: map[string]string{"title": t.Title}})
	return t, nil
}

// ModerateForumPost publishes (approves) or hides a post. Admins only. An
// approved reply is announced to the thread's followers.
func (h *Hub) ModerateForumPost(ctx context.Context, actor Actor, id uint64, st discuss.Status) (*discuss.Post, error) {
	if err := requireAdmin(actor); err != nil {
		return nil, err
	}
	before, err := h.Discuss.Post(id)
	if err != nil {
		return nil, err
	}
	p, err := h.Discuss.SetPostStatus(ctx, id, st)
	if err != nil {
		return nil, err
	}
	h.recordModeration(ctx, actor, st, "post", id, p.Author.Name)
	if before.Status != discuss.Published && st == discuss.Published {
		if t, err := h.Discuss.Thread(p.ThreadID); err == nil && t.FirstPostID != p.ID {
			h.announceReply(ctx, Actor{UserID: p.Author.ID}, t, p)
		}
	}
	return p, nil
}

// SetThreadFlags pins or locks a thread. Admins only.
func (h *Hub) SetThreadFlags(ctx context.Context, actor Actor, id uint64, f discuss.ThreadFlags) (*discuss.Thread, error) {
	if err := requireAdmin(actor); err != nil {
		return nil, err
	}
	if f.Pinned == nil && f.Locked == nil {
		return nil, store.Invalid("pinned", "required", "pinned or locked is required")
	}
	return h.Discuss.SetThreadFlags(ctx, id, f)
}

// FollowThread makes the actor follow (or stop following) a thread.
func (h *Hub) FollowThread(ctx context.Context, actor Actor, id uint64, on bool) error {
	if actor.UserID == 0 {
		return store.Refuse(store.KindForbidden, "sign in to follow a thread")
	}
	if _, err := h.threadFor(actor, id); err != nil {
		return err
	}
	return h.Discuss.Follow(ctx, id, actor.UserID, on)
}
