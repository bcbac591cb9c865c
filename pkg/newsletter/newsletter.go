// Package newsletter keeps the blog's newsletter: the subscribers (double
// opt-in: an address is only mailed articles once its owner followed the
// confirmation link), their single-purpose tokens, and the record of which
// articles were mailed, so each is mailed at most once whatever restarts or
// edits follow.
//
// Languages: a subscriber reads one of the languages letters are written in
// (uk, ru, en) and is mailed the articles written in that language only.
// Translations are separate articles: each language version is mailed to
// its own language's subscribers when it goes public, once; an article in
// any other language is mailed to nobody.
package newsletter

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/mail"
	"net/netip"
	"sort"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/random"
	"github.com/devhub/devhub/pkg/internal/ratelimit"
	"github.com/devhub/devhub/pkg/store"
)

var (
	bucketSubscribers = []byte("newsletter_subscribers") // normalised e-mail → Subscriber
	bucketTokens      = []byte("newsletter_tokens")      // sha256(token) → tokenRecord
	bucketSent        = []byte("newsletter_sent")        // article id → Sent
	bucketMeta        = []byte("newsletter_meta")
	keySince          = []byte("since")
)

// Limits.
const (
	// ConfirmTTL is how long a confirmation link works; a subscription not
	// confirmed within it expires and is removed.
	ConfirmTTL = 48 * time.Hour
	// ResendAfter is the least time between two confirmation letters to one
	// address; a request within it is answered the same and mails nothing.
	ResendAfter = 10 * time.Minute
	// MaxPerNetwork subscribe requests per NetworkWindow from one client
	// network; more are refused (429) whatever the address.
	MaxPerNetwork = 5
	NetworkWindow = 15 * time.Minute
	// MaxPerHour subscribe requests are taken from everyone together in an
	// hour: each may mail a confirmation letter to any address, and many
	// networks together (a botnet, an IPv6 /48) must not turn the site
	// into a sender of unwanted mail that spoils its mail reputation.
	MaxPerHour = 200
	// MaxEmailBytes bounds an address.
	MaxEmailBytes = 254
)

// Token purposes: a token does one thing only.
const (
	PurposeConfirm     = "confirm"
	PurposeUnsubscribe = "unsubscribe"
)

// Subscriber is one address on the list.
type Subscriber struct {
	Email     string    `json:"email"`
	Lang      string    `json:"lang"`
	Confirmed bool      `json:"confirmed"`
	CreatedAt time.Time `json:"createdAt"`
	// ConfirmedAt is when the confirmation link was followed.
	ConfirmedAt time.Time `json:"confirmedAt,omitzero"`
	// Expires is when an unconfirmed subscription lapses; SentAt when its
	// last confirmation letter was made.
	Expires time.Time `json:"expires,omitzero"`
	SentAt  time.Time `json:"sentAt,omitzero"`
	// UnsubToken is carried by every letter to the subscriber (link and
	// List-Unsubscribe header), so it is kept as is; it can only end this
	// subscription.
	UnsubToken string `json:"unsubToken"`
}

// stored is a Subscriber as the store keeps it (with its token hash).
type stored struct {
	Subscriber
	ConfirmHash string `json:"confirmHash,omitempty"`
}

type tokenRecord struct {
	Purpose string `json:"purpose"`
	Email   string `json:"email"`
}

// Service is the newsletter's data.
type Service struct {
	st      *store.Store
	now     func() time.Time
	perNet  *ratelimit.Limiter[netip.Prefix]
	all     *ratelimit.Bucket
	wake    chan struct{}
	sinceAt time.Time
}

// New opens the newsletter on st. The first open records the time from
// which published articles are mailed (those public before it never are).
func New(st *store.Store) (*Service, error) {
	if err := st.EnsureBuckets(string(bucketSubscribers), string(bucketTokens), string(bucketSent), string(bucketMeta)); err != nil {
		return nil, err
	}
	s := &Service{st: st, now: func() time.Time { return time.Now().UTC() }, wake: make(chan struct{}, 1)}
	s.perNet = ratelimit.New[netip.Prefix](MaxPerNetwork, NetworkWindow, 0, func() time.Time { return s.now() })
	s.all = ratelimit.NewBucket(MaxPerHour, time.Hour, func() time.Time { return s.now() })
	err := st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketMeta)
		if v := b.Get(keySince); v != nil {
			return s.sinceAt.UnmarshalText(v)
		}
		s.sinceAt = s.now()
		v, _ := s.sinceAt.MarshalText()
		return b.Put(keySince, v)
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// SetClock replaces the time source (tests).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.now() }

// Since is when the newsletter began: only articles that went public at or
// after it are mailed.
func (s *Service) Since() time.Time { return s.sinceAt }

// Wake asks the dispatcher to look for articles to mail now (an article was
// saved); it never blocks.
func (s *Service) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Woken is the channel Wake signals.
func (s *Service) Woken() <-chan struct{} { return s.wake }

// NormalizeEmail is the address as the list keys it.
func NormalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// ValidEmail accepts a bare address (no display name) with a local part and
// a domain.
func ValidEmail(email string) bool {
	if email == "" || len(email) > MaxEmailBytes || strings.ContainsAny(email, " \t\r\n<>\"") {
		return false
	}
	a, err := mail.ParseAddress(email)
	return err == nil && a.Address == email && strings.Contains(email[strings.LastIndexByte(email, '@')+1:], ".")
}

// Allow takes one subscribe request from ip's network and from the site's
// hourly total, or refuses it (rate limited) without looking at any
// address.
func (s *Service) Allow(ip netip.Addr) error {
	if ok, wait := s.perNet.Allow(ratelimit.Network(ip, false)); !ok {
		return store.TooMany("too many newsletter requests from this network; try again later", wait)
	}
	if ok, wait := s.all.Allow(); !ok {
		return store.TooMany("too many newsletter requests just now; try again later", wait)
	}
	return nil
}

func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return []byte(hex.EncodeToString(h[:]))
}

// Confirmation is a confirmation letter to send.
type Confirmation struct {
	Email, Lang, Token string
	Expires            time.Time
}

// Subscribe adds email (in lang) as an unconfirmed subscriber, or renews
// the link of one that is still unconfirmed, and returns the confirmation
// to mail. It returns nil when there is nothing to mail: the address is
// already confirmed, or was sent a link less than ResendAfter ago. Expired
// subscriptions are removed on the way.
func (s *Service) Subscribe(ctx context.Context, email, lang string) (*Confirmation, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	email = NormalizeEmail(email)
	if !ValidEmail(email) {
		return nil, store.Invalid("email", "invalid", "enter an e-mail address")
	}
	now := s.now()
	var out *Confirmation
	err := s.st.Update(func(tx *bolt.Tx) error {
		if err := s.expireTx(tx, now); err != nil {
			return err
		}
		subs, toks := tx.Bucket(bucketSubscribers), tx.Bucket(bucketTokens)
		var cur stored
		err := store.GetJSON(subs, []byte(email), &cur)
		switch {
		case err == nil && cur.Confirmed:
			return nil
		case err == nil && now.Sub(cur.SentAt) < ResendAfter:
			return nil
		case err == nil:
			if cur.ConfirmHash != "" {
				if err := toks.Delete([]byte(cur.ConfirmHash)); err != nil {
					return err
				}
			}
		case errors.Is(err, store.ErrNotFound):
			cur = stored{Subscriber: Subscriber{Email: email, CreatedAt: now}}
		default:
			return err
		}
		token := random.Token(32)
		cur.Lang, cur.SentAt, cur.Expires = lang, now, now.Add(ConfirmTTL)
		cur.ConfirmHash = string(hashToken(token))
		if err := store.PutJSON(toks, []byte(cur.ConfirmHash), tokenRecord{Purpose: PurposeConfirm, Email: email}); err != nil {
			return err
		}
		if err := store.PutJSON(subs, []byte(email), cur); err != nil {
			return err
		}
		out = &Confirmation{Email: email, Lang: lang, Token: token, Expires: cur.Expires}
		return nil
	})
	return out, err
}

// errLink is the answer to a link that is unknown, spent, expired or made
// for another purpose: which of these it is does not show.
var errLink = store.Refuse(store.KindNotFound, "this link is invalid, expired or already used")

// Confirm follows a confirmation link: the subscription is confirmed and its
// token spent.
func (s *Service) Confirm(ctx context.Context, token string) (*Subscriber, error) {
	return s.useToken(ctx, token, PurposeConfirm, func(tx *bolt.Tx, sub *stored, now time.Time) error {
		if sub.Confirmed || now.After(sub.Expires) {
			return errLink
		}
		if err := tx.Bucket(bucketTokens).Delete([]byte(sub.ConfirmHash)); err != nil {
			return err
		}
		sub.Confirmed, sub.ConfirmedAt, sub.Expires, sub.ConfirmHash = true, now, time.Time{}, ""
		sub.UnsubToken = random.Token(32)
		if err := store.PutJSON(tx.Bucket(bucketTokens), hashToken(sub.UnsubToken),
			tokenRecord{Purpose: PurposeUnsubscribe, Email: sub.Email}); err != nil {
			return err
		}
		return store.PutJSON(tx.Bucket(bucketSubscribers), []byte(sub.Email), sub)
	})
}

// Unsubscribe follows an unsubscribe link: the subscriber is removed with
// their tokens (so the link is spent).
func (s *Service) Unsubscribe(ctx context.Context, token string) (*Subscriber, error) {
	return s.useToken(ctx, token, PurposeUnsubscribe, func(tx *bolt.Tx, sub *stored, _ time.Time) error {
		return deleteTx(tx, sub)
	})
}

// Check is the subscriber a link of purpose would act on, without acting
// (the page a GET of the link opens): errLink when the link would be
// refused.
func (s *Service) Check(ctx context.Context, token, purpose string) (*Subscriber, error) {
	if err := checkToken(ctx, token); err != nil {
		return nil, err
	}
	var out *Subscriber
	err := s.st.View(func(tx *bolt.Tx) error {
		sub, err := subscriberOf(tx, token, purpose)
		if err != nil {
			return err
		}
		if purpose == PurposeConfirm && (sub.Confirmed || s.now().After(sub.Expires)) {
			return errLink
		}
		out = &sub.Subscriber
		return nil
	})
	return out, err
}

func (s *Service) useToken(ctx context.Context, token, purpose string, fn func(tx *bolt.Tx, sub *stored, now time.Time) error) (*Subscriber, error) {
	if err := checkToken(ctx, token); err != nil {
		return nil, err
	}
	var out *Subscriber
	err := s.st.Update(func(tx *bolt.Tx) error {
		sub, err := subscriberOf(tx, token, purpose)
		if err != nil {
			return err
		}
		if err := fn(tx, sub, s.now()); err != nil {
			return err
		}
		out = &sub.Subscriber
		return nil
	})
	return out, err
}

// checkToken refuses a token no link can carry before the store is read.
func checkToken(ctx context.Context, token string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if token == "" || len(token) > 128 {
		return errLink
	}
	return nil
}

// subscriberOf is the subscriber token's link of purpose names: errLink
// for an unknown token, one of another purpose, or a subscriber gone.
func subscriberOf(tx *bolt.Tx, token, purpose string) (*stored, error) {
	var rec tokenRecord
	if err := store.GetJSON(tx.Bucket(bucketTokens), hashToken(token), &rec); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, errLink
		}
		return nil, err
	}
	if rec.Purpose != purpose {
		return nil, errLink
	}
	var sub stored
	if err := store.GetJSON(tx.Bucket(bucketSubscribers), []byte(rec.Email), &sub); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, errLink
		}
		return nil, err
	}
	return &sub, nil
}

func deleteTx(tx *bolt.Tx, sub *stored) error {
	toks := tx.Bucket(bucketTokens)
	if sub.ConfirmHash != "" {
		if err := toks.Delete([]byte(sub.ConfirmHash)); err != nil {
			return err
		}
	}
	if sub.UnsubToken != "" {
		if err := toks.Delete(hashToken(sub.UnsubToken)); err != nil {
			return err
		}
	}
	return tx.Bucket(bucketSubscribers).Delete([]byte(sub.Email))
}

// expireTx removes the unconfirmed subscriptions whose link lapsed.
func (s *Service) expireTx(tx *bolt.Tx, now time.Time) error {
	var gone []stored
	err := store.ForEachJSON(tx.Bucket(bucketSubscribers), func(_ []byte, sub *stored) error {
		if !sub.Confirmed && now.After(sub.Expires) {
			gone = append(gone, *sub)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i := range gone {
		if err := deleteTx(tx, &gone[i]); err != nil {
			return err
		}
	}
	return nil
}

// Expire removes the unconfirmed subscriptions whose link lapsed; it writes
// to the store only when there is one.
func (s *Service) Expire(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now, lapsed := s.now(), false
	err := s.st.View(func(tx *bolt.Tx) error {
		return store.ForEachJSON(tx.Bucket(bucketSubscribers), func(_ []byte, sub *stored) error {
			lapsed = lapsed || !sub.Confirmed && now.After(sub.Expires)
			return nil
		})
	})
	if err != nil || !lapsed {
		return err
	}
	return s.st.Update(func(tx *bolt.Tx) error { return s.expireTx(tx, now) })
}

// Subscribers lists the list (unconfirmed ones that have not lapsed too),
// by address.
func (s *Service) Subscribers() ([]Subscriber, error) {
	now := s.now()
	var out []Subscriber
	err := s.st.View(func(tx *bolt.Tx) error {
		return store.ForEachJSON(tx.Bucket(bucketSubscribers), func(_ []byte, sub *stored) error {
			if sub.Confirmed || !now.After(sub.Expires) {
				out = append(out, sub.Subscriber)
			}
			return nil
		})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Email < out[j].Email })
	return out, err
}

// Counts is how many subscribers there are.
type Counts struct {
	// Confirmed are mailed articles; Pending have not followed their
	// confirmation link yet.
	Confirmed int `json:"confirmed"`
	Pending   int `json:"pending"`
	// ByLang counts the confirmed subscribers per language.
	ByLang map[string]int `json:"byLang"`
}

// Count counts the subscribers.
func (s *Service) Count() (Counts, error) {
	subs, err := s.Subscribers()
	c := Counts{ByLang: map[string]int{}}
	for _, sub := range subs {
		if sub.Confirmed {
			c.Confirmed++
			c.ByLang[sub.Lang]++
		} else {
			c.Pending++
		}
	}
	return c, err
}
