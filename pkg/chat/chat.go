// Package chat keeps the site's one chat room: its messages, oldest first
// under bbolt sequence ids, and the accounts muted in it until a time.
//
// A message is plain text: it is stored and answered as it was written
// (trimmed), and every client shows it as text. Empty and whitespace-only
// messages are not messages (ErrEmpty). The room keeps at most MaxMessages
// messages and MaxBytes bytes of them; the oldest go first. Each poster may
// post RatePerMinute messages a minute.
package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/paging"
	"github.com/devhub/devhub/pkg/internal/ratelimit"
	"github.com/devhub/devhub/pkg/store"
)

const (
	messagesBucket = "chat_messages"
	mutesBucket    = "chat_mutes"
	metaBucket     = "chat_meta"
)

var bytesKey = []byte("bytes")

// Defaults for Options left at zero (config.Default has the same values).
const (
	DefaultMaxMessages   = 10000
	DefaultMaxBytes      = 8 << 20
	DefaultMaxLength     = 2000
	DefaultRatePerMinute = 20
)

// MaxPage is the largest page History returns.
const MaxPage = 100

// pageRule: a page of MaxPage unless a smaller limit is asked for.
var pageRule = paging.Rule{Default: MaxPage, Max: MaxPage, Over: paging.Cap}

// MaxMute is the longest an account may be muted for.
const MaxMute = 365 * 24 * time.Hour

// ErrEmpty means a message had no text once trimmed: nothing is posted.
var ErrEmpty = errors.New("empty message")

// Options bound the room.
type Options struct {
	MaxMessages   int
	MaxBytes      int64
	MaxLength     int // characters of one message
	RatePerMinute int
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Author is who wrote a message.
type Author struct {
	ID   uint64 `json:"id"`
	Name string `json:"name"`
	// AvatarURL is where the account's avatar is served, filled in when an
	// answer or event is made (an account changes its avatar after it
	// wrote); never stored.
	AvatarURL string `json:"avatarUrl,omitempty"`
}

// Message is one message of the room.
type Message struct {
	ID        uint64    `json:"id"`
	Author    Author    `json:"author"`
	Text      string    `json:"text"`
	CreatedAt time.Time `json:"createdAt"`
}

// Service is the room.
type Service struct {
	st    *store.Store
	opts  Options
	rate  *ratelimit.Limiter[uint64]
	clock func() time.Time
}

// New opens the room's buckets.
func New(st *store.Store, opts Options) (*Service, error) {
	if opts.MaxMessages <= 0 {
		opts.MaxMessages = DefaultMaxMessages
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.MaxLength <= 0 {
		opts.MaxLength = DefaultMaxLength
	}
	if opts.RatePerMinute <= 0 {
		opts.RatePerMinute = DefaultRatePerMinute
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if err := st.EnsureBuckets(messagesBucket, mutesBucket, metaBucket); err != nil {
		return nil, err
	}
	return &Service{st: st, opts: opts, clock: opts.Now,
		rate: ratelimit.New[uint64](opts.RatePerMinute, time.Minute, 0, opts.Now)}, nil
}

// Post adds a message by author. Whitespace around the text is dropped;
// nothing left is ErrEmpty, more than MaxLength characters a validation
// error, a muted author a Forbidden refusal and a poster over their rate a
// RateLimited one. Nothing is stored in any of these cases.
func (s *Service) Post(ctx context.Context, author Author, text string) (*Message, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, ErrEmpty
	}
	if !utf8.ValidString(text) {
		return nil, store.Invalid("text", "invalid", "the message is not valid UTF-8 text")
	}
	if n := utf8.RuneCountInString(text); n > s.opts.MaxLength {
		return nil, store.Invalid("text", "too_long", fmt.Sprintf("a message may be at most %d characters long (this one has %d)", s.opts.MaxLength, n))
	}
	if until, err := s.MutedUntil(author.ID); err != nil {
		return nil, err
	} else if !until.IsZero() {
		return nil, store.Refuse(store.KindForbidden, "you are muted in the chat until "+until.UTC().Format(time.RFC3339))
	}
	if ok, wait := s.rate.Allow(author.ID); !ok {
		return nil, &store.Refusal{Kind: store.KindRateLimited, Message: "too many messages; wait a moment", RetryAfter: wait}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m := &Message{Author: author, Text: text, CreatedAt: s.clock().UTC()}
	err := s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(messagesBucket))
		id, err := b.NextSequence()
		if err != nil {
			return err
		}
		m.ID = id
		raw, err := store.MarshalJSON(m)
		if err != nil {
			return err
		}
		if err := b.Put(store.Itob(id), raw); err != nil {
			return err
		}
		meta := tx.Bucket([]byte(metaBucket))
		total := int64(store.Btoi(meta.Get(bytesKey))) + int64(len(raw))
		total, err = s.trim(b, id, total)
		if err != nil {
			return err
		}
		return meta.Put(bytesKey, store.Itob(uint64(total)))
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// trim drops the oldest messages while the room holds more than
// MaxMessages or MaxBytes (never the newest one, newest), and returns the
// bytes left.
func (s *Service) trim(b *bolt.Bucket, newest uint64, total int64) (int64, error) {
	c := b.Cursor()
	for k, v := c.First(); k != nil && store.Btoi(k) != newest; k, v = c.First() {
		if total <= s.opts.MaxBytes && newest-store.Btoi(k) < uint64(s.opts.MaxMessages) {
			break
		}
		total -= int64(len(v))
		if err := c.Delete(); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// Page is part of the room's history, oldest first.
type Page struct {
	Messages []Message `json:"messages"`
	// Next is the before value of the page of older messages; 0 when there
	// are none.
	Next uint64 `json:"next,omitempty"`
}

// History returns up to limit messages older than before (0: the newest),
// oldest first.
func (s *Service) History(before uint64, limit int) (Page, error) {
	limit = pageRule.Size(limit)
	var msgs []Message
	next := uint64(0)
	err := s.st.View(func(tx *bolt.Tx) error {
		c := tx.Bucket([]byte(messagesBucket)).Cursor()
		var k, v []byte
		if before == 0 {
			k, v = c.Last()
		} else if k, _ = c.Seek(store.Itob(before)); k == nil {
			k, v = c.Last()
		} else {
			k, v = c.Prev()
		}
		for ; k != nil; k, v = c.Prev() {
			if len(msgs) == limit {
				next = msgs[len(msgs)-1].ID
				break
			}
			var m Message
			if err := json.Unmarshal(v, &m); err != nil {
				return fmt.Errorf("decode chat message %d: %w", store.Btoi(k), err)
			}
			msgs = append(msgs, m)
		}
		return nil
	})
	if err != nil {
		return Page{}, err
	}
	out := make([]Message, len(msgs))
	for i, m := range msgs {
		out[len(msgs)-1-i] = m
	}
	return Page{Messages: out, Next: next}, nil
}

// Delete removes message id and returns it.
func (s *Service) Delete(ctx context.Context, id uint64) (*Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var m Message
	err := s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(messagesBucket))
		raw := b.Get(store.Itob(id))
		if raw == nil {
			return store.ErrNotFound
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return err
		}
		meta := tx.Bucket([]byte(metaBucket))
		total := int64(store.Btoi(meta.Get(bytesKey))) - int64(len(raw))
		if err := b.Delete(store.Itob(id)); err != nil {
			return err
		}
		return meta.Put(bytesKey, store.Itob(uint64(max(total, 0))))
	})
	if err != nil {
		return nil, err
	}
	return &m, nil
}

// Mute keeps userID from posting for d (0 lifts a mute) and returns until
// when.
func (s *Service) Mute(ctx context.Context, userID uint64, d time.Duration) (time.Time, error) {
	if d < 0 || d > MaxMute {
		return time.Time{}, store.Invalid("duration", "invalid", "a mute lasts from 0 (lift it) to 365 days")
	}
	if err := ctx.Err(); err != nil {
		return time.Time{}, err
	}
	until := time.Time{}
	err := s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(mutesBucket))
		if d == 0 {
			return b.Delete(store.Itob(userID))
		}
		until = s.clock().UTC().Add(d)
		return store.PutJSON(b, store.Itob(userID), until)
	})
	return until, err
}

// MutedUntil is when userID's mute ends; zero when they are not muted.
func (s *Service) MutedUntil(userID uint64) (time.Time, error) {
	var until time.Time
	err := s.st.View(func(tx *bolt.Tx) error {
		err := store.GetJSON(tx.Bucket([]byte(mutesBucket)), store.Itob(userID), &until)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		return err
	})
	if err != nil || !s.clock().Before(until) {
		return time.Time{}, err
	}
	return until, nil
}

// Mentioned reports whether text mentions the account called name as
// @name: the @ not inside a word or an e-mail address, then the whole name
// in any letter case — spaces included, as display names have them — and no
// letter, digit, '_' or '-' right after it. So "@Anna Petrenko, hi" mentions
// "Anna Petrenko" (and "Anna"), and "@Annabel" mentions neither.
func Mentioned(text, name string) bool {
	name = strings.TrimSpace(name)
	if name == "" {
		return false
	}
	want := utf8.RuneCountInString(name)
	for i := 0; ; {
		j := strings.IndexByte(text[i:], '@')
		if j < 0 {
			return false
		}
		at := i + j
		i = at + 1
		if before, _ := utf8.DecodeLastRuneInString(text[:at]); at > 0 && (nameRune(before) || before == '.' || before == '@') {
			continue
		}
		rest, n := text[at+1:], 0
		end := len(rest)
		for k := range rest {
			if n == want {
				end = k
				break
			}
			n++
		}
		if n < want || !strings.EqualFold(rest[:end], name) {
			continue
		}
		if after, _ := utf8.DecodeRuneInString(rest[end:]); end < len(rest) && (nameRune(after) || after == '-') {
			continue
		}
		return true
	}
}

func nameRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }
