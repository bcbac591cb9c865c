package discuss

import (
	"context"
	"encoding/json"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
)

// Comment is one comment under an article. ParentID is the top-level
// comment it replies to (replies go one level deep), or nil.
type Comment struct {
	ID        uint64     `json:"id"`
	ArticleID uint64     `json:"articleId"`
	ParentID  *uint64    `json:"parentId"`
	Author    Author     `json:"author"`
	Content   string     `json:"content"`
	HTML      string     `json:"html"`
	Status    Status     `json:"status"`
	CreatedAt time.Time  `json:"createdAt"`
	EditedAt  *time.Time `json:"editedAt,omitempty"`
}

// Comments are one page of the comments under an article a viewer sees,
// oldest first: up to the page's limit of top-level comments, the newest
// ones older than its cursor, each with every reply it has (replies go
// one level deep and stay with their parent). Closed is whether new ones
// are closed; Next is the cursor of the page of older top-level comments
// (nil when none is older), Older how many top-level comments are older
// than this page, Published how many published comments the article has
// in all (replies included).
type Comments struct {
	Comments  []Comment `json:"comments"`
	Closed    bool      `json:"closed"`
	Next      *uint64   `json:"next"`
	Older     int       `json:"older"`
	Published int       `json:"published"`
}

// A page of comments holds DefaultCommentThreads top-level comments when
// the request names no limit, and at most MaxCommentThreads.
const (
	DefaultCommentThreads = 50
	MaxCommentThreads     = 200
)

// CommentQuery picks a page of comments: Limit top-level comments (0: the
// default, capped at MaxCommentThreads), those before the top-level
// comment id Before (0: the newest).
type CommentQuery struct {
	Limit  int
	Before uint64
}

// CommentsOf lists the page q of the comments under article that v may see.
func (s *Service) CommentsOf(article uint64, v Viewer, q CommentQuery) (Comments, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultCommentThreads
	}
	limit = min(limit, MaxCommentThreads)
	out := Comments{Comments: []Comment{}}
	var seen []Comment
	err := s.st.View(func(tx *bolt.Tx) error {
		out.Closed = tx.Bucket([]byte(bucketClosed)).Get(store.Itob(article)) != nil
		b := tx.Bucket([]byte(bucketComments))
		return children(tx.Bucket([]byte(bucketArticleIndex)), article, func(id uint64) error {
			var c Comment
			if err := store.GetJSON(b, store.Itob(id), &c); err != nil {
				return err
			}
			if c.Status == Published {
				out.Published++
			}
			if v.sees(c.Status, c.Author.ID) {
				seen = append(seen, c)
			}
			return nil
		})
	})
	if err != nil {
		return out, err
	}
	// The page's threads: the last limit top-level comments before the
	// cursor (ids grow with time, so the index's order is the age).
	var tops []uint64
	for _, c := range seen {
		if c.ParentID == nil && (q.Before == 0 || c.ID < q.Before) {
			tops = append(tops, c.ID)
		}
	}
	first := max(len(tops)-limit, 0)
	page := make(map[uint64]bool, len(tops)-first)
	for _, id := range tops[first:] {
		page[id] = true
	}
	if out.Older = first; first > 0 {
		next := tops[first]
		out.Next = &next
	}
	for _, c := range seen {
		if page[c.ID] || (c.ParentID != nil && page[*c.ParentID]) {
			out.Comments = append(out.Comments, c)
		}
	}
	return out, nil
}

// CommentCounts is how many published comments each article has.
func (s *Service) CommentCounts(articles []uint64) (map[uint64]int, error) {
	out := make(map[uint64]int, len(articles))
	err := s.st.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketComments))
		for _, a := range articles {
			n := 0
			err := children(tx.Bucket([]byte(bucketArticleIndex)), a, func(id uint64) error {
				var c Comment
				if err := store.GetJSON(b, store.Itob(id), &c); err != nil {
					return err
				}
				if c.Status == Published {
					n++
				}
				return nil
			})
			if err != nil {
				return err
			}
			out[a] = n
		}
		return nil
	})
	return out, err
}

// Comment is comment id.
func (s *Service) Comment(id uint64) (*Comment, error) {
	return store.ViewJSON[Comment](s.st, []byte(bucketComments), id)
}

// AllComments lists every comment, newest first; with onlyPending just
// those waiting (the CLI's list).
func (s *Service) AllComments(article uint64, onlyPending bool) ([]Comment, error) {
	out := []Comment{}
	err := s.st.View(func(tx *bolt.Tx) error {
		c := tx.Bucket([]byte(bucketComments)).Cursor()
		for k, v := c.Last(); k != nil; k, v = c.Prev() {
			var cm Comment
			if err := json.Unmarshal(v, &cm); err != nil {
				return err
			}
			if (article == 0 || cm.ArticleID == article) && (!onlyPending || cm.Status == Pending) {
				out = append(out, cm)
			}
		}
		return nil
	})
	return out, err
}

// AddComment posts p's comment under article (which the caller made sure
// p may read), as a reply to parent when non-zero.
func (s *Service) AddComment(_ context.Context, article, parent uint64, p Poster, content string) (*Comment, error) {
	ck, err := s.check(p, content, s.opts.Comments)
	if err != nil {
		return nil, err
	}
	var c Comment
	err = s.st.Update(func(tx *bolt.Tx) error {
		if tx.Bucket([]byte(bucketClosed)).Get(store.Itob(article)) != nil && !p.Admin {
			return store.Refuse(store.KindForbidden, "comments on this article are closed")
		}
		b := tx.Bucket([]byte(bucketComments))
		if parent != 0 {
			var pc Comment
			if err := store.GetJSON(b, store.Itob(parent), &pc); err != nil || pc.ArticleID != article ||
				!(Viewer{ID: p.ID, Admin: p.Admin}).sees(pc.Status, pc.Author.ID) {
				return store.Invalid("parentId", "invalid", "no such comment under this article")
			}
			if pc.ParentID != nil {
				return store.Invalid("parentId", "too_deep", "replies go one level deep: reply to the first comment of the thread")
			}
		}
		if err := s.admit(tx, p); err != nil {
			return err
		}
		id, err := b.NextSequence()
		if err != nil {
			return err
		}
		c = Comment{ID: id, ArticleID: article, Author: Author{ID: p.ID, Name: p.Name}, Content: ck.content, HTML: ck.html,
			Status: initialStatus(tx, p, s.opts.Comments.Moderation), CreatedAt: s.now().UTC()}
		if parent != 0 {
			c.ParentID = &parent
		}
		if err := store.PutJSON(b, store.Itob(id), c); err != nil {
			return err
		}
		return tx.Bucket([]byte(bucketArticleIndex)).Put(pair(article, id), nil)
	})
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// EditComment changes the text of editor's own comment within EditWindow.
func (s *Service) EditComment(_ context.Context, id uint64, p Poster, content string) (*Comment, error) {
	return editWriting[Comment](s, bucketComments, id, p, content, s.opts.Comments)
}

// DeleteComment removes a comment and the replies to it, and returns it.
func (s *Service) DeleteComment(_ context.Context, id uint64) (*Comment, error) {
	var c Comment
	err := s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketComments))
		if err := store.GetJSON(b, store.Itob(id), &c); err != nil {
			return err
		}
		ix := tx.Bucket([]byte(bucketArticleIndex))
		var gone []uint64
		err := children(ix, c.ArticleID, func(other uint64) error {
			var r Comment
			if err := store.GetJSON(b, store.Itob(other), &r); err != nil {
				return err
			}
			if r.ParentID != nil && *r.ParentID == id {
				gone = append(gone, other)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, g := range append(gone, id) {
			if err := b.Delete(store.Itob(g)); err != nil {
				return err
			}
			if err := ix.Delete(pair(c.ArticleID, g)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// SetCommentStatus approves (publishes) or hides a comment; approving
// trusts its author under ModeFirst.
func (s *Service) SetCommentStatus(_ context.Context, id uint64, st Status) (*Comment, error) {
	return setWritingStatus[Comment](s, bucketComments, id, st, nil)
}

// DeleteArticleComments removes every comment of a deleted article (and
// its closed mark), so none stays waiting in the moderation queue.
func (s *Service) DeleteArticleComments(_ context.Context, article uint64) error {
	return s.st.Update(func(tx *bolt.Tx) error {
		ix := tx.Bucket([]byte(bucketArticleIndex))
		var ids []uint64
		if err := children(ix, article, func(id uint64) error { ids = append(ids, id); return nil }); err != nil {
			return err
		}
		for _, id := range ids {
			if err := tx.Bucket([]byte(bucketComments)).Delete(store.Itob(id)); err != nil {
				return err
			}
			if err := ix.Delete(pair(article, id)); err != nil {
				return err
			}
		}
		return tx.Bucket([]byte(bucketClosed)).Delete(store.Itob(article))
	})
}

// SetCommentsClosed closes or reopens the comments on an article.
func (s *Service) SetCommentsClosed(_ context.Context, article uint64, closed bool) error {
	return s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketClosed))
		if closed {
			return b.Put(store.Itob(article), []byte{1})
		}
		return b.Delete(store.Itob(article))
	})
}
