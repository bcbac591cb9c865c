package usecase

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/blog"
	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/store"
)

// MaxArticleImageBytes bounds an image put into an article (pasted, dropped
// or chosen as the cover).
const MaxArticleImageBytes = 10 << 20

// articleImageTypes are the image types an article takes: what browsers
// show in an <img> without running anything (no SVG).
var articleImageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// mayWrite refuses anyone but an admin or the owner.
func mayWrite(actor Actor) error {
	if !actor.Admin {
		return store.Refuse(store.KindForbidden, "only an administrator may write articles")
	}
	return nil
}

func articleTarget(id uint64) string { return "article " + strconv.FormatUint(id, 10) }

// CreateArticle stores a new article (a draft, scheduled or published) for
// an admin or the owner.
func (h *Hub) CreateArticle(ctx context.Context, actor Actor, in blog.Input) (*blog.Article, error) {
	if err := mayWrite(actor); err != nil {
		return nil, err
	}
	in.EditedBy = actor.Name()
	a, err := h.Blog.Create(ctx, in)
	if err != nil {
		return nil, err
	}
	h.log().Info("article created", slog.Uint64("id", a.ID), slog.String("status", a.Status), slog.String("by", actor.Name()))
	h.record(ctx, actor, audit.Event{Type: audit.ArticleCreated, Target: articleTarget(a.ID),
		Details: map[string]string{"name": a.Name, "status": a.Status}})
	h.wakeNewsletter()
	return a, nil
}

// EditArticle changes an article for an admin or the owner; with p.Version
// set, a save based on an older version is a conflict.
func (h *Hub) EditArticle(ctx context.Context, actor Actor, id uint64, p blog.Patch) (*blog.Article, error) {
	if err := mayWrite(actor); err != nil {
		return nil, err
	}
	p.EditedBy = actor.Name()
	before, err := h.Blog.Get(id)
	if err != nil {
		return nil, err
	}
	a, err := h.Blog.Update(ctx, id, p)
	if err != nil {
		return nil, err
	}
	if a.Version != before.Version {
		h.record(ctx, actor, audit.Event{Type: audit.ArticleEdited, Target: articleTarget(a.ID),
			Details: map[string]string{"status": a.Status, "version": strconv.Itoa(a.Version)}})
	}
	h.wakeNewsletter()
	return a, nil
}

// DeleteArticle removes an article and its revisions for an admin or the
// owner.
func (h *Hub) DeleteArticle(ctx context.Context, actor Actor, id uint64) error {
	if err := mayWrite(actor); err != nil {
		return err
	}
	a, err := h.Blog.Get(id)
	if err != nil {
		return err
	}
	if err := h.Blog.Delete(ctx, id); err != nil {
		return err
	}
	if h.Discuss != nil {
		if err := h.Discuss.DeleteArticleComments(context.WithoutCancel(ctx), id); err != nil {
			h.log().Error("article deleted, but not its comments", slog.Uint64("id", id), slog.Any("err", err))
		}
	}
	h.log().Info("article deleted", slog.Uint64("id", id), slog.String("by", actor.Name()))
	h.record(ctx, actor, audit.Event{Type: audit.ArticleDeleted, Target: articleTarget(id), Details: map[string]string{"name": a.Name}})
	return nil
}

// ArticleRevisions lists an article's kept earlier versions for an admin.
func (h *Hub) ArticleRevisions(actor Actor, id uint64) ([]blog.Revision, error) {
	if err := mayWrite(actor); err != nil {
		return nil, err
	}
	return h.Blog.Revisions(id)
}

// RestoreRevision puts an earlier version's text back (as a new save) for
// an admin or the owner.
func (h *Hub) RestoreRevision(ctx context.Context, actor Actor, id, rev uint64, version *int) (*blog.Article, error) {
	if err := mayWrite(actor); err != nil {
		return nil, err
	}
	a, err := h.Blog.Restore(ctx, id, rev, version, actor.Name())
	if err != nil {
		return nil, err
	}
	h.record(ctx, actor, audit.Event{Type: audit.ArticleRestored, Target: articleTarget(id),
		Details: map[string]string{"revision": strconv.FormatUint(rev, 10), "version": strconv.Itoa(a.Version)}})
	return a, nil
}

// PreviewArticle renders Markdown as publishing would, for an admin.
func (h *Hub) PreviewArticle(actor Actor, content string) (string, error) {
	if err := mayWrite(actor); err != nil {
		return "", err
	}
	if len(content) > blog.MaxContentLen {
		return "", store.Refuse(store.KindTooLarge, fmt.Sprintf("content is larger than %d bytes", blog.MaxContentLen))
	}
	return blog.RenderMarkdown(blog.NormalizeContent(content))
}

// errImageTooLarge stops an article image's bytes at the limit.
var errImageTooLarge = store.TooLarge("article image", MaxArticleImageBytes)

// capped reads at most max bytes and then fails with errImageTooLarge.
type capped struct {
	r    io.Reader
	left int64
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left <= 0 {
		var one [1]byte
		if n, _ := c.r.Read(one[:]); n > 0 {
			return 0, errImageTooLarge
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// UploadArticleImage stores an image for an article as a public file of the
// file cloud (so it is thumbnailed, listed and removable there like any
// other), for an admin. Only PNG, JPEG, GIF and WebP up to
// MaxArticleImageBytes are taken, judged by the bytes, not the name.
func (h *Hub) UploadArticleImage(ctx context.Context, actor Actor, name string, r io.Reader) (*files.File, error) {
	if err := mayWrite(actor); err != nil {
		return nil, err
	}
	head := make([]byte, 512)
	n, err := io.ReadFull(r, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	head = head[:n]
	if n == 0 {
		return nil, store.Invalid("file", "required", "the image is empty")
	}
	if mt, _ := files.Detect(head, name); !articleImageTypes[mt] {
		return nil, store.Invalid("file", "type", "an article image must be a PNG, JPEG, GIF or WebP picture")
	}
	if name == "" {
		name = "image"
	}
	body := &capped{r: io.MultiReader(bytes.NewReader(head), r), left: MaxArticleImageBytes}
	f, err := h.Files.Save(ctx, name, body, files.Uploader{ID: actor.UserID, Name: actor.Name()})
	if errors.Is(err, errImageTooLarge) {
		return nil, errImageTooLarge
	}
	if err != nil {
		return nil, err
	}
	h.log().Info("article image uploaded", slog.Uint64("file", f.ID), slog.Int64("size", f.Size), slog.String("by", actor.Name()))
	return f, nil
}
