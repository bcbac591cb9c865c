// Package discuss is what visitors write on the site: comments under
// articles and the forum (categories, threads, posts), with the one
// moderation mechanism both share — a status per item (pending, published,
// hidden), the rule that decides a new item's status, one block list, one
// rate-limit policy, caps on size and links, and one admin queue.
package discuss

import (
	"context"
	"encoding/binary"
	"net/netip"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/blog"
	"github.com/devhub/devhub/pkg/internal/ratelimit"
	"github.com/devhub/devhub/pkg/store"
)

// Status is where an item stands in moderation.
type Status string

const (
	// Pending waits for an admin; only its author and admins see it.
	Pending Status = "pending"
	// Published is visible to everyone who may read the page.
	Published Status = "published"
	// Hidden was taken down by an admin; only admins see it.
	Hidden Status = "hidden"
)

// Mode says which new items wait for approval.
type Mode string

const (
	// ModeFirst holds an account's items until an admin approved one of them.
	ModeFirst Mode = "first"
	// ModeAll holds every item of a non-admin.
	ModeAll Mode = "all"
	// ModeNone publishes at once.
	ModeNone Mode = "none"
)

// ParseMode reads a moderation mode; "" is ModeFirst.
func ParseMode(s string) (Mode, bool) {
	switch Mode(strings.TrimSpace(s)) {
	case "", ModeFirst:
		return ModeFirst, true
	case ModeAll:
		return ModeAll, true
	case ModeNone:
		return ModeNone, true
	}
	return "", false
}

// EditWindow is how long an author may edit their own item.
const EditWindow = 15 * time.Minute

// Limits are the rules for one kind of item (comments, forum posts).
type Limits struct {
	Moderation Mode
	// MaxBytes caps an item's Markdown.
	MaxBytes int
	// MaxLinks caps the links in one item.
	MaxLinks int
}

// Options configure the service. Zero rates mean no rate limit.
type Options struct {
	Comments Limits
	Forum    Limits
	// RatePerUser and RatePerNetwork are how many items (comments and forum
	// posts together) an account and a client network may post per minute.
	RatePerUser    int
	RatePerNetwork int
	// NewAccountAge is how long an account counts as new; a new account
	// may put at most NewAccountMaxLinks links in one item.
	NewAccountAge      time.Duration
	NewAccountMaxLinks int
}

// DefaultOptions are the built-in limits (config.yaml documents the same).
func DefaultOptions() Options {
	return Options{
		Comments:    Limits{Moderation: ModeFirst, MaxBytes: 8 << 10, MaxLinks: 3},
		Forum:       Limits{Moderation: ModeFirst, MaxBytes: 32 << 10, MaxLinks: 10},
		RatePerUser: 6, RatePerNetwork: 20, NewAccountAge: 24 * time.Hour, NewAccountMaxLinks: 1,
	}
}

// Author names who wrote an item; ID 0 and an empty name is a deleted
// account.
type Author struct {
	ID   uint64 `json:"id"`
	Name string `json:"name"`
	// AvatarURL is where the account's avatar is served, filled in when an
	// answer is made (an account changes its avatar after it wrote); never
	// stored.
	AvatarURL string `json:"avatarUrl,omitempty"`
}

// Poster is the account that posts, as the checks need it.
type Poster struct {
	ID        uint64
	Name      string
	Admin     bool
	CreatedAt time.Time
	IP        netip.Addr
}

// Viewer is who reads: ID 0 is a guest.
type Viewer struct {
	ID    uint64
	Admin bool
}

// sees reports whether v may see an item of status st written by author:
// published items everyone, pending ones their author and admins, hidden
// ones admins.
func (v Viewer) sees(st Status, author uint64) bool {
	switch {
	case st == Published || v.Admin:
		return true
	case st == Pending:
		return v.ID != 0 && v.ID == author
	}
	return false
}

const (
	bucketBlocks        = "discuss_blocks"
	bucketTrusted       = "discuss_trusted"
	bucketComments      = "comments"
	bucketArticleIndex  = "comments_by_article"
	bucketClosed        = "comments_closed"
	bucketCategories    = "forum_categories"
	bucketThreads       = "forum_threads"
	bucketPosts         = "forum_posts"
	bucketThreadIndex   = "forum_posts_by_thread"
	bucketFollows       = "forum_follows"
	maxTitleBytes       = 200
	maxCategoryName     = 80
	maxCategoryDescribe = 500
)

// Service keeps comments, the forum and their moderation in the store.
type Service struct {
	st      *store.Store
	opts    Options
	now     func() time.Time
	perUser *ratelimit.Limiter[uint64]
	perNet  *ratelimit.Limiter[netip.Prefix]
}

// New opens the service over st.
func New(st *store.Store, opts Options) (*Service, error) {
	if err := st.EnsureBuckets(bucketBlocks, bucketTrusted, bucketComments, bucketArticleIndex, bucketClosed,
		bucketCategories, bucketThreads, bucketPosts, bucketThreadIndex, bucketFollows); err != nil {
		return nil, err
	}
	s := &Service{st: st, opts: opts, now: time.Now}
	s.limiters()
	return s, nil
}

func (s *Service) limiters() {
	now := func() time.Time { return s.now() }
	s.perUser, s.perNet = nil, nil
	if s.opts.RatePerUser > 0 {
		s.perUser = ratelimit.New[uint64](s.opts.RatePerUser, time.Minute, 0, now)
	}
	if s.opts.RatePerNetwork > 0 {
		s.perNet = ratelimit.New[netip.Prefix](s.opts.RatePerNetwork, time.Minute, 0, now)
	}
}

// SetClock replaces the clock (tests).
func (s *Service) SetClock(now func() time.Time) { s.now = now; s.limiters() }

// pair is the key of an index entry: two ids, in order.
func pair(a, b uint64) []byte {
	k := make([]byte, 16)
	binary.BigEndian.PutUint64(k, a)
	binary.BigEndian.PutUint64(k[8:], b)
	return k
}

// children calls fn with the second id of every index entry under a.
func children(b *bolt.Bucket, a uint64, fn func(id uint64) error) error {
	prefix := store.Itob(a)
	c := b.Cursor()
	for k, _ := c.Seek(prefix); len(k) == 16 && string(k[:8]) == string(prefix); k, _ = c.Next() {
		if err := fn(binary.BigEndian.Uint64(k[8:])); err != nil {
			return err
		}
	}
	return nil
}

// checked is an item's text once it passed the checks: trimmed Markdown
// and its HTML.
type checked struct {
	content, html string
}

// check validates text for an item under lim as p writes it: not empty,
// within the size cap and the link cap (tighter for new accounts; admins
// have none).
func (s *Service) check(p Poster, content string, lim Limits) (checked, error) {
	content = strings.TrimSpace(content)
	switch {
	case content == "":
		return checked{}, store.Invalid("content", "required", "write something first")
	case !utf8.ValidString(content):
		return checked{}, store.Invalid("content", "invalid", "the text is not valid UTF-8")
	case lim.MaxBytes > 0 && len(content) > lim.MaxBytes:
		return checked{}, store.Invalid("content", "too_long", "the text is longer than the limit of "+itoa(lim.MaxBytes)+" bytes")
	}
	html, links, err := blog.RenderUGC(content)
	if err != nil {
		return checked{}, err
	}
	if !p.Admin {
		maxLinks := lim.MaxLinks
		if s.opts.NewAccountAge > 0 && s.now().Sub(p.CreatedAt) < s.opts.NewAccountAge {
			maxLinks = min(maxLinks, s.opts.NewAccountMaxLinks)
		}
		if links > maxLinks {
			return checked{}, store.Invalid("content", "too_many_links", "at most "+itoa(maxLinks)+" links are allowed here")
		}
	}
	return checked{content: content, html: html}, nil
}

// admit refuses a blocked account and spends one item of p's rate (its
// account's and its network's); admins are not limited.
func (s *Service) admit(tx *bolt.Tx, p Poster) error {
	if tx.Bucket([]byte(bucketBlocks)).Get(store.Itob(p.ID)) != nil {
		return store.Refuse(store.KindForbidden, "this account may not post comments or forum posts")
	}
	if p.Admin {
		return nil
	}
	if s.perUser != nil {
		if ok, wait := s.perUser.Allow(p.ID); !ok {
			return &store.Refusal{Kind: store.KindRateLimited, Message: "too many posts; try again shortly", RetryAfter: wait}
		}
	}
	if s.perNet != nil && p.IP.IsValid() {
		if ok, wait := s.perNet.Allow(ratelimit.Network(p.IP, false)); !ok {
			return &store.Refusal{Kind: store.KindRateLimited, Message: "too many posts from this network; try again shortly", RetryAfter: wait}
		}
	}
	return nil
}

// initialStatus is a new item's status under mode.
func initialStatus(tx *bolt.Tx, p Poster, mode Mode) Status {
	switch {
	case p.Admin || mode == ModeNone:
		return Published
	case mode == ModeAll:
		return Pending
	case tx.Bucket([]byte(bucketTrusted)).Get(store.Itob(p.ID)) != nil:
		return Published
	}
	return Pending
}

// trust marks an account as having had an item approved (ModeFirst
// publishes its next ones at once).
func trust(tx *bolt.Tx, id uint64) error {
	if id == 0 {
		return nil
	}
	return tx.Bucket([]byte(bucketTrusted)).Put(store.Itob(id), []byte{1})
}

// editable refuses an edit by anyone but the author, or after EditWindow.
func (s *Service) editable(author uint64, created time.Time, editor uint64) error {
	if author == 0 || author != editor {
		return store.Refuse(store.KindForbidden, "only the author may edit this")
	}
	if s.now().Sub(created) > EditWindow {
		return store.Refuse(store.KindForbidden, "the time to edit this has passed (15 minutes)")
	}
	return nil
}

// writing is a comment or a forum post, as an edit and moderation see
// them: both are edited by their author alone within EditWindow, and
// publishing either trusts its author.
type writing[T any] interface {
	*T
	author() (id uint64, created time.Time)
	setText(content, html string, edited time.Time)
	setStatus(Status)
}

func (c *Comment) author() (uint64, time.Time) { return c.Author.ID, c.CreatedAt }
func (c *Comment) setText(content, html string, edited time.Time) {
	c.Content, c.HTML, c.EditedAt = content, html, &edited
}
func (c *Comment) setStatus(st Status) { c.Status = st }

func (p *Post) author() (uint64, time.Time) { return p.Author.ID, p.CreatedAt }
func (p *Post) setText(content, html string, edited time.Time) {
	p.Content, p.HTML, p.EditedAt = content, html, &edited
}
func (p *Post) setStatus(st Status) { p.Status = st }

// editWriting changes the text of editor p's own comment or post id (in
// bucket) within EditWindow; a blocked account may not.
func editWriting[T any, W writing[T]](s *Service, bucket string, id uint64, p Poster, content string, lim Limits) (*T, error) {
	ck, err := s.check(p, content, lim)
	if err != nil {
		return nil, err
	}
	var v T
	err = s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucket))
		if err := store.GetJSON(b, store.Itob(id), &v); err != nil {
			return err
		}
		author, created := W(&v).author()
		if err := s.editable(author, created, p.ID); err != nil {
			return err
		}
		if tx.Bucket([]byte(bucketBlocks)).Get(store.Itob(p.ID)) != nil {
			return store.Refuse(store.KindForbidden, "this account may not post comments or forum posts")
		}
		W(&v).setText(ck.content, ck.html, s.now().UTC())
		return store.PutJSON(b, store.Itob(id), v)
	})
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// setWritingStatus moderates the comment or post id (in bucket):
// publishing it trusts its author. then, when set, runs after it in the
// same transaction.
func setWritingStatus[T any, W writing[T]](s *Service, bucket string, id uint64, st Status, then func(*bolt.Tx, *T) error) (*T, error) {
	var v T
	err := s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucket))
		if err := store.GetJSON(b, store.Itob(id), &v); err != nil {
			return err
		}
		W(&v).setStatus(st)
		if author, _ := W(&v).author(); st == Published {
			if err := trust(tx, author); err != nil {
				return err
			}
		}
		if err := store.PutJSON(b, store.Itob(id), v); err != nil {
			return err
		}
		if then != nil {
			return then(tx, &v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// Block is an account refused from posting.
type Block struct {
	UserID uint64    `json:"userId"`
	Name   string    `json:"name"`
	At     time.Time `json:"at"`
}

// BlockUser refuses the account's new items and hides its pending ones.
// It returns how many were hidden.
func (s *Service) BlockUser(_ context.Context, id uint64, name string) (int, error) {
	if id == 0 {
		return 0, store.Invalid("userId", "invalid", "no such account")
	}
	hidden := 0
	err := s.st.Update(func(tx *bolt.Tx) error {
		if err := store.PutJSON(tx.Bucket([]byte(bucketBlocks)), store.Itob(id), Block{UserID: id, Name: name, At: s.now().UTC()}); err != nil {
			return err
		}
		if err := tx.Bucket([]byte(bucketTrusted)).Delete(store.Itob(id)); err != nil {
			return err
		}
		n, err := hidePendingOf(tx, id)
		hidden = n
		return err
	})
	return hidden, err
}

// UnblockUser lets the account post again.
func (s *Service) UnblockUser(_ context.Context, id uint64) error {
	return s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketBlocks))
		if b.Get(store.Itob(id)) == nil {
			return store.ErrNotFound
		}
		return b.Delete(store.Itob(id))
	})
}

// Blocks lists the blocked accounts.
func (s *Service) Blocks() ([]Block, error) {
	out := []Block{}
	err := s.st.View(func(tx *bolt.Tx) error {
		return store.ForEachJSON(tx.Bucket([]byte(bucketBlocks)), func(_ []byte, b *Block) error {
			out = append(out, *b)
			return nil
		})
	})
	return out, err
}

func hidePendingOf(tx *bolt.Tx, id uint64) (int, error) {
	n := 0
	for _, name := range []string{bucketComments, bucketPosts} {
		b := tx.Bucket([]byte(name))
		var keys [][]byte
		var vals []any
		err := b.ForEach(func(k, v []byte) error {
			var it struct {
				Author Author `json:"author"`
				Status Status `json:"status"`
			}
			if err := store.GetJSON(b, k, &it); err != nil {
				return err
			}
			if it.Author.ID != id || it.Status != Pending {
				return nil
			}
			if name == bucketComments {
				var c Comment
				if err := store.GetJSON(b, k, &c); err != nil {
					return err
				}
				c.Status = Hidden
				vals = append(vals, c)
			} else {
				var p Post
				if err := store.GetJSON(b, k, &p); err != nil {
					return err
				}
				p.Status = Hidden
				vals = append(vals, p)
			}
			keys = append(keys, append([]byte(nil), k...))
			return nil
		})
		if err != nil {
			return 0, err
		}
		for i, k := range keys {
			if err := store.PutJSON(b, k, vals[i]); err != nil {
				return 0, err
			}
			if p, ok := vals[i].(Post); ok {
				if err := syncThreadStatus(tx, p); err != nil {
					return 0, err
				}
			}
		}
		n += len(keys)
	}
	return n, nil
}

func itoa(n int) string { return strconv.Itoa(n) }
