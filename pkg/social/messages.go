package social

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/paging"
	"github.com/devhub/devhub/pkg/store"
)

// ContactPeer is the account id the contact form's conversation is held
// with: no account has it (ids start at 1).
const ContactPeer uint64 = 0

// maxUnread is where unread counting stops: a badge shows "99+" beyond.
const maxUnread = 100

// MaxPage is the largest page of a conversation.
const MaxPage = 100

// pageRule: a page of MaxPage unless a smaller limit is asked for.
var pageRule = paging.Rule{Default: MaxPage, Max: MaxPage, Over: paging.Cap}

// Message is one direct message, or one contact form message (From is
// ContactPeer and Sender says who wrote it).
type Message struct {
	ID        uint64    `json:"id"`
	From      uint64    `json:"from"`
	To        uint64    `json:"to"`
	Text      string    `json:"text"`
	CreatedAt time.Time `json:"createdAt"`
	Sender    *Sender   `json:"sender,omitempty"`
}

// Sender is who wrote a contact form message, as they said.
type Sender struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

// Read is one side's place in a conversation: it exists once the
// conversation has a message, and UpTo is the last message id it read.
type Read struct {
	UpTo uint64    `json:"upTo"`
	At   time.Time `json:"at"`
}

// Summary is one conversation as its member's list shows it.
type Summary struct {
	Other  uint64
	Last   *Message
	Unread int
	// ReadUpTo and OtherReadUpTo are the two read markers (the other's is
	// 0 for the contact conversation).
	ReadUpTo, OtherReadUpTo uint64
}

// conv is the key of the conversation user has with other: the pair's,
// or the contact form's single one.
func conv(user, other uint64) []byte {
	if other == ContactPeer {
		return pair(ContactPeer, ContactPeer)
	}
	return convKey(user, other)
}

func decode(raw []byte, v any) error { return json.Unmarshal(raw, v) }

// checkText applies a message's rules: not blank, valid UTF-8, at most max
// characters.
func checkText(field, text string, max int) error {
	switch {
	case strings.TrimSpace(text) == "":
		return store.Invalid(field, "required", "the message is empty")
	case !utf8.ValidString(text):
		return store.Invalid(field, "invalid", "the message is not valid UTF-8 text")
	case utf8.RuneCountInString(text) > max:
		return store.Invalid(field, "too_long", "the message is longer than "+strconv.Itoa(max)+" characters")
	}
	return nil
}

// Send stores a direct message from from to to. A blank or too long text
// is invalid, a pair where either blocked the other is refused, and a
// sender over its rate is told when to try again.
func (s *Service) Send(ctx context.Context, from, to uint64, text string) (*Message, error) {
	if from == to {
		return nil, store.Invalid("userId", "self", "you cannot message yourself")
	}
	if err := checkText("text", text, s.o.MaxLength); err != nil {
		return nil, err
	}
	if err := s.CanSend(from, to); err != nil {
		return nil, err
	}
	if ok, wait := s.sends.Allow(from); !ok {
		return nil, &store.Refusal{Kind: store.KindRateLimited, Message: "too many messages; wait a moment", RetryAfter: wait}
	}
	if err := alive(ctx); err != nil {
		return nil, err
	}
	m := &Message{From: from, To: to, Text: text}
	err := s.st.Update(func(tx *bolt.Tx) error {
		if blockedTx(tx, from, to) {
			return store.Refuse(store.KindForbidden, "you cannot message this account")
		}
		return s.put(tx, m, from, to)
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// CanSend says why from may not message to, or nil: a pair where either
// blocked the other never may, and with FriendsOnly only friends may.
func (s *Service) CanSend(from, to uint64) error {
	if s.Blocked(from, to) {
		return store.Refuse(store.KindForbidden, "you cannot message this account")
	}
	if s.o.FriendsOnly && !s.AreFriends(from, to) {
		return store.Refuse(store.KindForbidden, "you can message only your friends")
	}
	return nil
}

// put stores m in the conversation of a and b, marks it read by its author
// and makes sure both sides have their place.
func (s *Service) put(tx *bolt.Tx, m *Message, a, b uint64) error {
	mb := tx.Bucket(bucketMessages)
	id, err := mb.NextSequence()
	if err != nil {
		return err
	}
	m.ID, m.CreatedAt = id, s.now().UTC()
	if err := store.PutJSON(mb, append(convKey(a, b), store.Itob(id)...), m); err != nil {
		return err
	}
	rb := tx.Bucket(bucketReads)
	if m.From != ContactPeer {
		if err := store.PutJSON(rb, pair(m.From, m.To), Read{UpTo: id, At: m.CreatedAt}); err != nil {
			return err
		}
		if rb.Get(pair(m.To, m.From)) == nil {
			return store.PutJSON(rb, pair(m.To, m.From), Read{})
		}
	}
	return nil
}

// Messages is a page of the conversation of user and other, oldest first:
// the limit messages before the id before (0: the newest), and whether
// older ones remain.
func (s *Service) Messages(user, other, before uint64, limit int) ([]Message, bool, error) {
	limit = pageRule.Size(limit)
	out := []Message{}
	more := false
	prefix := conv(user, other)
	err := s.st.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketMessages).Cursor()
		k, v := seekBefore(c, prefix, before)
		for ; k != nil && bytes.HasPrefix(k, prefix); k, v = c.Prev() {
			if len(out) == limit {
				more = true
				break
			}
			var m Message
			if err := decode(v, &m); err != nil {
				return err
			}
			out = append(out, m)
		}
		return nil
	})
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, more, err
}

// seekBefore puts c on the last message of the conversation prefix whose id
// is below before (0: the last one).
func seekBefore(c *bolt.Cursor, prefix []byte, before uint64) ([]byte, []byte) {
	end := append(append([]byte(nil), prefix...), store.Itob(^uint64(0))...)
	if before != 0 {
		end = append(append([]byte(nil), prefix...), store.Itob(before)...)
	}
	k, v := c.Seek(end)
	if k == nil {
		return c.Last()
	}
	if before == 0 && bytes.Equal(k, end) {
		return k, v
	}
	return c.Prev()
}

// ReadMarkers are user's and other's places in their conversation.
func (s *Service) ReadMarkers(user, other uint64) (mine, theirs uint64) {
	_ = s.st.View(func(tx *bolt.Tx) error {
		rb := tx.Bucket(bucketReads)
		var r Read
		if store.GetJSON(rb, pair(user, other), &r) == nil {
			mine = r.UpTo
		}
		r = Read{}
		if other != ContactPeer && store.GetJSON(rb, pair(other, user), &r) == nil {
			theirs = r.UpTo
		}
		return nil
	})
	return mine, theirs
}

// MarkRead moves user's read marker in the conversation with other up to
// upTo (0: its newest message); a marker never moves back. A conversation
// without messages is not found. It returns the marker.
func (s *Service) MarkRead(ctx context.Context, user, other, upTo uint64) (uint64, error) {
	if err := alive(ctx); err != nil {
		return 0, err
	}
	var out uint64
	err := s.st.Update(func(tx *bolt.Tx) error {
		prefix := conv(user, other)
		k, _ := seekBefore(tx.Bucket(bucketMessages).Cursor(), prefix, 0)
		if k == nil || !bytes.HasPrefix(k, prefix) {
			return store.ErrNotFound
		}
		last := store.Btoi(k[16:])
		if upTo == 0 || upTo > last {
			upTo = last
		}
		rb := tx.Bucket(bucketReads)
		var r Read
		if err := store.GetJSON(rb, pair(user, other), &r); err != nil && err != store.ErrNotFound {
			return err
		}
		if upTo <= r.UpTo && r.UpTo != 0 {
			out = r.UpTo
			return nil
		}
		out = upTo
		return store.PutJSON(rb, pair(user, other), Read{UpTo: upTo, At: s.now().UTC()})
	})
	return out, err
}

// DeleteMessage deletes message id of the conversation of user and other;
// only its author may (another's is forbidden), and one that is not there
// is not found. It returns the message deleted.
func (s *Service) DeleteMessage(ctx context.Context, user, other, id uint64, anyAuthor bool) (*Message, error) {
	if err := alive(ctx); err != nil {
		return nil, err
	}
	var m Message
	err := s.st.Update(func(tx *bolt.Tx) error {
		mb := tx.Bucket(bucketMessages)
		key := append(conv(user, other), store.Itob(id)...)
		if err := store.GetJSON(mb, key, &m); err != nil {
			return err
		}
		if m.From != user && !anyAuthor {
			return store.Refuse(store.KindForbidden, "you can delete only your own messages")
		}
		return mb.Delete(key)
	})
	if err != nil {
		return nil, err
	}
	return &m, nil
}

// Conversations are user's direct conversations, the latest first.
func (s *Service) Conversations(user uint64) ([]Summary, error) {
	out := []Summary{}
	prefix := store.Itob(user)
	err := s.st.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketReads).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			other := store.Btoi(k[8:])
			if other == ContactPeer {
				continue
			}
			var r Read
			if err := decode(v, &r); err != nil {
				return err
			}
			sum, err := summarise(tx, user, other, r.UpTo)
			if err != nil {
				return err
			}
			if sum.Last == nil {
				continue // every message deleted
			}
			var theirs Read
			if store.GetJSON(tx.Bucket(bucketReads), pair(other, user), &theirs) == nil {
				sum.OtherReadUpTo = theirs.UpTo
			}
			out = append(out, *sum)
		}
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Last.ID > out[j].Last.ID })
	return out, err
}

// ContactSummary is the contact form's conversation as the admin user sees
// it; nil when no one wrote yet.
func (s *Service) ContactSummary(user uint64) (*Summary, error) {
	var out *Summary
	err := s.st.View(func(tx *bolt.Tx) error {
		var r Read
		if err := store.GetJSON(tx.Bucket(bucketReads), pair(user, ContactPeer), &r); err != nil && err != store.ErrNotFound {
			return err
		}
		sum, err := summarise(tx, user, ContactPeer, r.UpTo)
		if err != nil || sum.Last == nil {
			return err
		}
		out = sum
		return nil
	})
	return out, err
}

// summarise finds the last message of the conversation of user and other
// and counts the other's messages after upTo (up to maxUnread).
func summarise(tx *bolt.Tx, user, other, upTo uint64) (*Summary, error) {
	sum := &Summary{Other: other, ReadUpTo: upTo}
	prefix := conv(user, other)
	c := tx.Bucket(bucketMessages).Cursor()
	for k, v := seekBefore(c, prefix, 0); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Prev() {
		id := store.Btoi(k[16:])
		if sum.Last != nil && (id <= upTo || sum.Unread >= maxUnread) {
			break
		}
		var m Message
		if err := decode(v, &m); err != nil {
			return nil, err
		}
		if sum.Last == nil {
			sum.Last = &m
		}
		if id <= upTo {
			break
		}
		if m.From == other {
			sum.Unread++
		}
	}
	return sum, nil
}

// DeleteUser forgets the account id: its friendships, requests and blocks
// both ways, its read markers, and every message it wrote. What others
// wrote to it stays in their conversations, shown as with a deleted
// account.
func (s *Service) DeleteUser(ctx context.Context, id uint64) error {
	prefix := store.Itob(id)
	return s.st.Update(func(tx *bolt.Tx) error {
		lb, rq := tx.Bucket(bucketLinks), tx.Bucket(bucketRequests)
		var keys [][]byte
		c := lb.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var l Link
			if err := decode(v, &l); err != nil {
				return err
			}
			if l.RequestID != 0 {
				if err := rq.Delete(store.Itob(l.RequestID)); err != nil {
					return err
				}
			}
			keys = append(keys, append([]byte(nil), k...), pair(l.Other, id))
		}
		if err := deleteKeys(lb, keys); err != nil {
			return err
		}
		bb := tx.Bucket(bucketBlocks)
		keys = nil
		if err := bb.ForEach(func(k, _ []byte) error {
			if store.Btoi(k[:8]) == id || store.Btoi(k[8:]) == id {
				keys = append(keys, append([]byte(nil), k...))
			}
			return nil
		}); err != nil {
			return err
		}
		if err := deleteKeys(bb, keys); err != nil {
			return err
		}
		rb, mb := tx.Bucket(bucketReads), tx.Bucket(bucketMessages)
		keys = nil
		var gone [][]byte
		c = rb.Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			keys = append(keys, append([]byte(nil), k...))
			other := store.Btoi(k[8:])
			if other == ContactPeer {
				continue
			}
			conv := convKey(id, other)
			mc := mb.Cursor()
			for mk, mv := mc.Seek(conv); mk != nil && bytes.HasPrefix(mk, conv); mk, mv = mc.Next() {
				var m Message
				if err := decode(mv, &m); err != nil {
					return err
				}
				if m.From == id {
					gone = append(gone, append([]byte(nil), mk...))
				}
			}
		}
		if err := deleteKeys(mb, gone); err != nil {
			return err
		}
		return deleteKeys(rb, keys)
	})
}

func deleteKeys(b *bolt.Bucket, keys [][]byte) error {
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}
