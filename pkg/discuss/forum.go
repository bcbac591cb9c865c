package discuss

import (
	"context"
	"sort"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/paging"
	"github.com/devhub/devhub/pkg/internal/text"
	"github.com/devhub/devhub/pkg/store"
)

// Category is a forum section. Names and Descriptions hold translations by
// language code ("uk", "en"); Name and Description are the default.
type Category struct {
	ID           uint64            `json:"id"`
	Name         string            `json:"name"`
	Names        map[string]string `json:"names"`
	Description  string            `json:"description"`
	Descriptions map[string]string `json:"descriptions"`
	Position     int               `json:"position"`
	// Threads and LastActivity are counted over the published threads.
	Threads      int        `json:"threads"`
	LastActivity *time.Time `json:"lastActivity"`
}

// CategoryInput is what an admin sets on a category.
type CategoryInput struct {
	Name         *string
	Names        map[string]string
	Description  *string
	Descriptions map[string]string
	Position     *int
}

// Thread is a forum topic; its status is that of its first post.
type Thread struct {
	ID         uint64    `json:"id"`
	CategoryID uint64    `json:"categoryId"`
	Title      string    `json:"title"`
	Author     Author    `json:"author"`
	Status     Status    `json:"status"`
	Pinned     bool      `json:"pinned"`
	Locked     bool      `json:"locked"`
	CreatedAt  time.Time `json:"createdAt"`
	LastPostAt time.Time `json:"lastPostAt"`
	// Replies counts the published posts after the first.
	Replies     int    `json:"replies"`
	FirstPostID uint64 `json:"firstPostId"`
}

// Post is one message in a thread; the first post is the thread's body.
type Post struct {
	ID        uint64     `json:"id"`
	ThreadID  uint64     `json:"threadId"`
	Author    Author     `json:"author"`
	Content   string     `json:"content"`
	HTML      string     `json:"html"`
	Status    Status     `json:"status"`
	CreatedAt time.Time  `json:"createdAt"`
	EditedAt  *time.Time `json:"editedAt,omitempty"`
}

func validLangs(field string, m map[string]string, max int, v *store.Validator) map[string]string {
	out := map[string]string{}
	for l, s := range m {
		l, s = strings.ToLower(strings.TrimSpace(l)), strings.TrimSpace(s)
		if l == "" || len(l) > 10 {
			v.Add(field, "invalid", "a language code is 1–10 characters")
			continue
		}
		if len(s) > max {
			v.Add(field, "too_long", "at most "+itoa(max)+" bytes")
			continue
		}
		if s != "" {
			out[l] = s
		}
	}
	return out
}

// Categories lists the categories in their order, with counts that v sees.
func (s *Service) Categories() ([]Category, error) {
	out := []Category{}
	err := s.st.View(func(tx *bolt.Tx) error {
		byID := map[uint64]int{}
		err := store.ForEachJSON(tx.Bucket([]byte(bucketCategories)), func(_ []byte, c *Category) error {
			byID[c.ID] = len(out)
			out = append(out, *c)
			return nil
		})
		if err != nil {
			return err
		}
		return store.ForEachJSON(tx.Bucket([]byte(bucketThreads)), func(_ []byte, t *Thread) error {
			i, ok := byID[t.CategoryID]
			if !ok || t.Status != Published {
				return nil
			}
			out[i].Threads++
			if out[i].LastActivity == nil || t.LastPostAt.After(*out[i].LastActivity) {
				at := t.LastPostAt
				out[i].LastActivity = &at
			}
			return nil
		})
	})
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Position != out[j].Position {
			return out[i].Position < out[j].Position
		}
		return out[i].ID < out[j].ID
	})
	return out, err
}

// Category is category id.
func (s *Service) Category(id uint64) (*Category, error) {
	return store.ViewJSON[Category](s.st, []byte(bucketCategories), id)
}

// SaveCategory creates a category (id 0) or changes one.
func (s *Service) SaveCategory(_ context.Context, id uint64, in CategoryInput) (*Category, error) {
	var v store.Validator
	var c Category
	err := s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketCategories))
		if id != 0 {
			if err := store.GetJSON(b, store.Itob(id), &c); err != nil {
				return err
			}
		} else {
			c.Position = b.Stats().KeyN + 1
		}
		if in.Name != nil {
			c.Name = strings.TrimSpace(*in.Name)
		}
		if c.Name == "" {
			v.Add("name", "required", "a category needs a name")
		} else if len(c.Name) > maxCategoryName {
			v.Add("name", "too_long", "at most "+itoa(maxCategoryName)+" bytes")
		}
		if in.Description != nil {
			c.Description = strings.TrimSpace(*in.Description)
			if len(c.Description) > maxCategoryDescribe {
				v.Add("description", "too_long", "at most "+itoa(maxCategoryDescribe)+" bytes")
			}
		}
		if in.Names != nil {
			c.Names = validLangs("names", in.Names, maxCategoryName, &v)
		}
		if in.Descriptions != nil {
			c.Descriptions = validLangs("descriptions", in.Descriptions, maxCategoryDescribe, &v)
		}
		if in.Position != nil {
			c.Position = *in.Position
		}
		if c.Names == nil {
			c.Names = map[string]string{}
		}
		if c.Descriptions == nil {
			c.Descriptions = map[string]string{}
		}
		if err := v.Err(); err != nil {
			return err
		}
		if id == 0 {
			n, err := b.NextSequence()
			if err != nil {
				return err
			}
			c.ID = n
		}
		c.Threads, c.LastActivity = 0, nil
		return store.PutJSON(b, store.Itob(c.ID), c)
	})
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// DeleteCategory removes a category with its threads and posts, and
// returns how many threads went.
func (s *Service) DeleteCategory(_ context.Context, id uint64) (int, error) {
	n := 0
	err := s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketCategories))
		if b.Get(store.Itob(id)) == nil {
			return store.ErrNotFound
		}
		var ids []uint64
		err := store.ForEachJSON(tx.Bucket([]byte(bucketThreads)), func(_ []byte, t *Thread) error {
			if t.CategoryID == id {
				ids = append(ids, t.ID)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, t := range ids {
			if err := deleteThreadTx(tx, t); err != nil {
				return err
			}
		}
		n = len(ids)
		return b.Delete(store.Itob(id))
	})
	return n, err
}

// Sort orders a thread list: Newest by creation, Active by last post.
type Sort string

const (
	Newest Sort = "newest"
	Active Sort = "active"
)

// ThreadQuery asks for a page of threads.
type ThreadQuery struct {
	Category uint64
	Sort     Sort
	// Search, when set, ranks the threads that contain all its words.
	Search      string
	Page, Limit int
	Viewer      Viewer
}

// ThreadPage is one page of threads and how many there are in all.
type ThreadPage struct {
	Threads []Thread `json:"threads"`
	Total   int      `json:"total"`
}

// pageRule pages threads and posts: 20 by default, and a limit outside
// 1…100 is the default.
var pageRule = paging.Rule{Default: 20, Max: 100, Over: paging.Reset}

// Relevance ranks of a search hit, best first, as the blog ranks articles:
// the exact phrase in the title, every term in the title, the rest (found
// in the posts).
const (
	rankPhrase = iota
	rankTitle
	rankBody
)

// Threads lists threads: the pinned ones first, then by q.Sort; with a
// search, by relevance rank, newest first within a rank.
func (s *Service) Threads(q ThreadQuery) (ThreadPage, error) {
	pq, _ := pageRule.Normalize(paging.Query{Page: q.Page, Limit: q.Limit}) // lenient: never refuses
	terms := text.Words(q.Search)
	type hit struct {
		t    Thread
		rank int
	}
	var hits []hit
	err := s.st.View(func(tx *bolt.Tx) error {
		posts := tx.Bucket([]byte(bucketPosts))
		ix := tx.Bucket([]byte(bucketThreadIndex))
		return store.ForEachJSON(tx.Bucket([]byte(bucketThreads)), func(_ []byte, t *Thread) error {
			if (q.Category != 0 && t.CategoryID != q.Category) || !q.Viewer.sees(t.Status, t.Author.ID) {
				return nil
			}
			if len(terms) == 0 {
				hits = append(hits, hit{t: *t})
				return nil
			}
			title := text.Fold(t.Title)
			if text.ContainsAll(title, terms) {
				r := rankTitle
				if text.PhraseIn(terms, strings.Fields(title)) {
					r = rankPhrase
				}
				hits = append(hits, hit{t: *t, rank: r})
				return nil
			}
			var body strings.Builder
			body.WriteString(title)
			err := children(ix, t.ID, func(id uint64) error {
				var p Post
				if err := store.GetJSON(posts, store.Itob(id), &p); err != nil {
					return err
				}
				if p.Status == Published {
					body.WriteByte(' ')
					body.WriteString(text.Fold(p.Content))
				}
				return nil
			})
			if err != nil {
				return err
			}
			if text.ContainsAll(body.String(), terms) {
				hits = append(hits, hit{t: *t, rank: rankBody})
			}
			return nil
		})
	})
	if err != nil {
		return ThreadPage{}, err
	}
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if len(terms) > 0 {
			if a.rank != b.rank {
				return a.rank < b.rank
			}
			return a.t.CreatedAt.After(b.t.CreatedAt)
		}
		if a.t.Pinned != b.t.Pinned {
			return a.t.Pinned
		}
		if q.Sort == Active {
			return a.t.LastPostAt.After(b.t.LastPostAt)
		}
		return a.t.CreatedAt.After(b.t.CreatedAt)
	})
	p := paging.Map(hits, pq, func(h hit) Thread { return h.t })
	return ThreadPage{Threads: p.Items, Total: p.Total}, nil
}

// Thread is thread id.
func (s *Service) Thread(id uint64) (*Thread, error) {
	return store.ViewJSON[Thread](s.st, []byte(bucketThreads), id)
}

// PostPage is one page of a thread's posts, oldest first.
type PostPage struct {
	Posts []Post `json:"posts"`
	Total int    `json:"total"`
}

// Posts lists the posts of thread that v sees, page by page.
func (s *Service) Posts(thread uint64, v Viewer, page, limit int) (PostPage, error) {
	q, _ := pageRule.Normalize(paging.Query{Page: page, Limit: limit}) // lenient: never refuses
	out := paging.Start[Post](q)
	err := s.st.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketPosts))
		return children(tx.Bucket([]byte(bucketThreadIndex)), thread, func(id uint64) error {
			var p Post
			if err := store.GetJSON(b, store.Itob(id), &p); err != nil {
				return err
			}
			if !v.sees(p.Status, p.Author.ID) {
				return nil
			}
			out.Add(p)
			return nil
		})
	})
	return PostPage{Posts: out.Items, Total: out.Total}, err
}

// Post is post id.
func (s *Service) Post(id uint64) (*Post, error) {
	return store.ViewJSON[Post](s.st, []byte(bucketPosts), id)
}

// CreateThread starts a thread in category with its first post; the
// starter follows it.
func (s *Service) CreateThread(_ context.Context, category uint64, p Poster, title, content string) (*Thread, *Post, error) {
	title = strings.TrimSpace(title)
	var v store.Validator
	switch {
	case title == "":
		v.Add("title", "required", "a thread needs a title")
	case len(title) > maxTitleBytes:
		v.Add("title", "too_long", "at most "+itoa(maxTitleBytes)+" bytes")
	}
	ck, err := s.check(p, content, s.opts.Forum)
	if err != nil {
		return nil, nil, err
	}
	if err := v.Err(); err != nil {
		return nil, nil, err
	}
	var t Thread
	var post Post
	err = s.st.Update(func(tx *bolt.Tx) error {
		if tx.Bucket([]byte(bucketCategories)).Get(store.Itob(category)) == nil {
			return store.ErrNotFound
		}
		if err := s.admit(tx, p); err != nil {
			return err
		}
		tb, pb := tx.Bucket([]byte(bucketThreads)), tx.Bucket([]byte(bucketPosts))
		tid, err := tb.NextSequence()
		if err != nil {
			return err
		}
		pid, err := pb.NextSequence()
		if err != nil {
			return err
		}
		now := s.now().UTC()
		st := initialStatus(tx, p, s.opts.Forum.Moderation)
		author := Author{ID: p.ID, Name: p.Name}
		t = Thread{ID: tid, CategoryID: category, Title: title, Author: author, Status: st, CreatedAt: now, LastPostAt: now, FirstPostID: pid}
		post = Post{ID: pid, ThreadID: tid, Author: author, Content: ck.content, HTML: ck.html, Status: st, CreatedAt: now}
		if err := store.PutJSON(tb, store.Itob(tid), t); err != nil {
			return err
		}
		if err := store.PutJSON(pb, store.Itob(pid), post); err != nil {
			return err
		}
		if err := tx.Bucket([]byte(bucketThreadIndex)).Put(pair(tid, pid), nil); err != nil {
			return err
		}
		return tx.Bucket([]byte(bucketFollows)).Put(pair(tid, p.ID), nil)
	})
	if err != nil {
		return nil, nil, err
	}
	return &t, &post, nil
}

// Reply adds p's post to thread, which p can see; a locked thread takes
// replies from admins only.
func (s *Service) Reply(_ context.Context, thread uint64, p Poster, content string) (*Post, error) {
	ck, err := s.check(p, content, s.opts.Forum)
	if err != nil {
		return nil, err
	}
	var post Post
	err = s.st.Update(func(tx *bolt.Tx) error {
		tb := tx.Bucket([]byte(bucketThreads))
		var t Thread
		if err := store.GetJSON(tb, store.Itob(thread), &t); err != nil {
			return err
		}
		if !(Viewer{ID: p.ID, Admin: p.Admin}).sees(t.Status, t.Author.ID) {
			return store.ErrNotFound
		}
		if t.Locked && !p.Admin {
			return store.Refuse(store.KindForbidden, "this thread is locked")
		}
		if err := s.admit(tx, p); err != nil {
			return err
		}
		pb := tx.Bucket([]byte(bucketPosts))
		pid, err := pb.NextSequence()
		if err != nil {
			return err
		}
		post = Post{ID: pid, ThreadID: thread, Author: Author{ID: p.ID, Name: p.Name}, Content: ck.content, HTML: ck.html,
			Status: initialStatus(tx, p, s.opts.Forum.Moderation), CreatedAt: s.now().UTC()}
		if err := store.PutJSON(pb, store.Itob(pid), post); err != nil {
			return err
		}
		if err := tx.Bucket([]byte(bucketThreadIndex)).Put(pair(thread, pid), nil); err != nil {
			return err
		}
		return syncThreadStatus(tx, post)
	})
	if err != nil {
		return nil, err
	}
	return &post, nil
}

// syncThreadStatus brings the thread of p up to date after p changed: its
// status follows its first post, its reply count and last activity follow
// the published replies.
func syncThreadStatus(tx *bolt.Tx, p Post) error {
	tb := tx.Bucket([]byte(bucketThreads))
	var t Thread
	if err := store.GetJSON(tb, store.Itob(p.ThreadID), &t); err != nil {
		return err
	}
	if p.ID == t.FirstPostID {
		t.Status = p.Status
	}
	pb := tx.Bucket([]byte(bucketPosts))
	t.Replies, t.LastPostAt = 0, t.CreatedAt
	err := children(tx.Bucket([]byte(bucketThreadIndex)), t.ID, func(id uint64) error {
		if id == t.FirstPostID {
			return nil
		}
		var r Post
		if err := store.GetJSON(pb, store.Itob(id), &r); err != nil {
			return err
		}
		if r.Status == Published {
			t.Replies++
			if r.CreatedAt.After(t.LastPostAt) {
				t.LastPostAt = r.CreatedAt
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return store.PutJSON(tb, store.Itob(t.ID), t)
}

// EditPost changes the text of p's own post within EditWindow.
func (s *Service) EditPost(_ context.Context, id uint64, p Poster, content string) (*Post, error) {
	return editWriting[Post](s, bucketPosts, id, p, content, s.opts.Forum)
}

// DeletePost removes a post; removing a thread's first post removes the
// thread. It returns the post and whether the thread went with it.
func (s *Service) DeletePost(_ context.Context, id uint64) (*Post, bool, error) {
	var p Post
	threadGone := false
	err := s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketPosts))
		if err := store.GetJSON(b, store.Itob(id), &p); err != nil {
			return err
		}
		var t Thread
		if err := store.GetJSON(tx.Bucket([]byte(bucketThreads)), store.Itob(p.ThreadID), &t); err != nil {
			return err
		}
		if t.FirstPostID == id {
			threadGone = true
			return deleteThreadTx(tx, t.ID)
		}
		if err := b.Delete(store.Itob(id)); err != nil {
			return err
		}
		if err := tx.Bucket([]byte(bucketThreadIndex)).Delete(pair(p.ThreadID, id)); err != nil {
			return err
		}
		return syncThreadStatus(tx, p)
	})
	if err != nil {
		return nil, false, err
	}
	return &p, threadGone, nil
}

// DeleteThread removes a thread with its posts and follows.
func (s *Service) DeleteThread(_ context.Context, id uint64) (*Thread, error) {
	var t Thread
	err := s.st.Update(func(tx *bolt.Tx) error {
		if err := store.GetJSON(tx.Bucket([]byte(bucketThreads)), store.Itob(id), &t); err != nil {
			return err
		}
		return deleteThreadTx(tx, id)
	})
	if err != nil {
		return nil, err
	}
	return &t, nil
}

func deleteThreadTx(tx *bolt.Tx, id uint64) error {
	for _, name := range []string{bucketThreadIndex, bucketFollows} {
		ix := tx.Bucket([]byte(name))
		var ids []uint64
		if err := children(ix, id, func(c uint64) error { ids = append(ids, c); return nil }); err != nil {
			return err
		}
		for _, c := range ids {
			if name == bucketThreadIndex {
				if err := tx.Bucket([]byte(bucketPosts)).Delete(store.Itob(c)); err != nil {
					return err
				}
			}
			if err := ix.Delete(pair(id, c)); err != nil {
				return err
			}
		}
	}
	return tx.Bucket([]byte(bucketThreads)).Delete(store.Itob(id))
}

// SetPostStatus approves (publishes) or hides a post; approving trusts its
// author under ModeFirst. The first post's status is the thread's.
func (s *Service) SetPostStatus(_ context.Context, id uint64, st Status) (*Post, error) {
	return setWritingStatus[Post](s, bucketPosts, id, st, func(tx *bolt.Tx, p *Post) error { return syncThreadStatus(tx, *p) })
}

// ThreadFlags are what an admin sets on a thread (nil: unchanged).
type ThreadFlags struct {
	Pinned, Locked *bool
}

// SetThreadFlags pins or locks a thread.
func (s *Service) SetThreadFlags(_ context.Context, id uint64, f ThreadFlags) (*Thread, error) {
	var t Thread
	err := s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketThreads))
		if err := store.GetJSON(b, store.Itob(id), &t); err != nil {
			return err
		}
		if f.Pinned != nil {
			t.Pinned = *f.Pinned
		}
		if f.Locked != nil {
			t.Locked = *f.Locked
		}
		return store.PutJSON(b, store.Itob(id), t)
	})
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// Follow makes user follow thread (or stop, with on false).
func (s *Service) Follow(_ context.Context, thread, user uint64, on bool) error {
	return s.st.Update(func(tx *bolt.Tx) error {
		if tx.Bucket([]byte(bucketThreads)).Get(store.Itob(thread)) == nil {
			return store.ErrNotFound
		}
		b := tx.Bucket([]byte(bucketFollows))
		if on {
			return b.Put(pair(thread, user), nil)
		}
		return b.Delete(pair(thread, user))
	})
}

// Followers are the accounts following thread.
func (s *Service) Followers(thread uint64) ([]uint64, error) {
	var out []uint64
	err := s.st.View(func(tx *bolt.Tx) error {
		return children(tx.Bucket([]byte(bucketFollows)), thread, func(id uint64) error { out = append(out, id); return nil })
	})
	return out, err
}

// Following reports whether user follows thread.
func (s *Service) Following(thread, user uint64) bool {
	on := false
	_ = s.st.View(func(tx *bolt.Tx) error {
		on = user != 0 && tx.Bucket([]byte(bucketFollows)).Get(pair(thread, user)) != nil
		return nil
	})
	return on
}

// QueueItem is an item waiting for an admin: a comment or a forum post.
type QueueItem struct {
	Kind      string    `json:"kind"`
	ID        uint64    `json:"id"`
	Author    Author    `json:"author"`
	Content   string    `json:"content"`
	HTML      string    `json:"html"`
	CreatedAt time.Time `json:"createdAt"`
	// ArticleID is a comment's article; ThreadID and ThreadTitle a post's
	// thread.
	ArticleID   uint64 `json:"articleId,omitempty"`
	ThreadID    uint64 `json:"threadId,omitempty"`
	ThreadTitle string `json:"threadTitle,omitempty"`
}

// Queue kinds.
const (
	KindComment = "comment"
	KindPost    = "post"
)

// Queue lists every pending comment and post, oldest first.
func (s *Service) Queue() ([]QueueItem, error) {
	out := []QueueItem{}
	err := s.st.View(func(tx *bolt.Tx) error {
		err := store.ForEachJSON(tx.Bucket([]byte(bucketComments)), func(_ []byte, c *Comment) error {
			if c.Status == Pending {
				out = append(out, QueueItem{Kind: KindComment, ID: c.ID, Author: c.Author, Content: c.Content, HTML: c.HTML,
					CreatedAt: c.CreatedAt, ArticleID: c.ArticleID})
			}
			return nil
		})
		if err != nil {
			return err
		}
		tb := tx.Bucket([]byte(bucketThreads))
		return store.ForEachJSON(tx.Bucket([]byte(bucketPosts)), func(_ []byte, p *Post) error {
			if p.Status != Pending {
				return nil
			}
			var t Thread
			if err := store.GetJSON(tb, store.Itob(p.ThreadID), &t); err != nil {
				return err
			}
			out = append(out, QueueItem{Kind: KindPost, ID: p.ID, Author: p.Author, Content: p.Content, HTML: p.HTML,
				CreatedAt: p.CreatedAt, ThreadID: p.ThreadID, ThreadTitle: t.Title})
			return nil
		})
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].CreatedAt.Before(out[j].CreatedAt) })
	return out, err
}

// ForgetAuthor is what deleting an account does here: its pending items
// are removed (nobody approved them), its published and hidden ones stay
// with the author shown as a deleted account (ID 0, no name) so that the
// replies around them still read; its follows, block entry and trust go.
func (s *Service) ForgetAuthor(_ context.Context, user uint64) error {
	if user == 0 {
		return nil
	}
	return s.st.Update(func(tx *bolt.Tx) error {
		cb := tx.Bucket([]byte(bucketComments))
		var comments []Comment
		err := store.ForEachJSON(cb, func(_ []byte, c *Comment) error {
			if c.Author.ID == user {
				comments = append(comments, *c)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, c := range comments {
			if c.Status == Pending {
				if err := cb.Delete(store.Itob(c.ID)); err != nil {
					return err
				}
				if err := tx.Bucket([]byte(bucketArticleIndex)).Delete(pair(c.ArticleID, c.ID)); err != nil {
					return err
				}
				continue
			}
			c.Author = Author{}
			if err := store.PutJSON(cb, store.Itob(c.ID), c); err != nil {
				return err
			}
		}
		pb, tb := tx.Bucket([]byte(bucketPosts)), tx.Bucket([]byte(bucketThreads))
		var posts []Post
		err = store.ForEachJSON(pb, func(_ []byte, p *Post) error {
			if p.Author.ID == user {
				posts = append(posts, *p)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, p := range posts {
			var t Thread
			if err := store.GetJSON(tb, store.Itob(p.ThreadID), &t); err != nil {
				continue
			}
			if p.Status == Pending {
				if t.FirstPostID == p.ID {
					if err := deleteThreadTx(tx, t.ID); err != nil {
						return err
					}
					continue
				}
				if err := pb.Delete(store.Itob(p.ID)); err != nil {
					return err
				}
				if err := tx.Bucket([]byte(bucketThreadIndex)).Delete(pair(p.ThreadID, p.ID)); err != nil {
					return err
				}
				continue
			}
			p.Author = Author{}
			if err := store.PutJSON(pb, store.Itob(p.ID), p); err != nil {
				return err
			}
			if t.FirstPostID == p.ID {
				t.Author = Author{}
				if err := store.PutJSON(tb, store.Itob(t.ID), t); err != nil {
					return err
				}
			}
		}
		fb := tx.Bucket([]byte(bucketFollows))
		var follows [][]byte
		_ = fb.ForEach(func(k, _ []byte) error {
			if len(k) == 16 && string(k[8:]) == string(store.Itob(user)) {
				follows = append(follows, append([]byte(nil), k...))
			}
			return nil
		})
		for _, k := range follows {
			if err := fb.Delete(k); err != nil {
				return err
			}
		}
		if err := tx.Bucket([]byte(bucketTrusted)).Delete(store.Itob(user)); err != nil {
			return err
		}
		return tx.Bucket([]byte(bucketBlocks)).Delete(store.Itob(user))
	})
}
