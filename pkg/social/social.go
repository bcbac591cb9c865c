// Package social keeps who knows whom and what they say to each other:
// friend requests and friendships, blocks, direct messages between two
// accounts with each side's read marker, and the messages visitors send the
// owner through the contact form (with the proof-of-work challenges that
// guard it). It holds the rules of the data (no request to oneself, no
// second request, a message neither empty nor too long, a blocked pair
// cannot talk); who may act is the use-case layer's business.
//
// Data lives in the store:
//
//	social_requests  request id → Request
//	social_links     user(8) + other(8) → Link (both directions are written)
//	social_blocks    blocker(8) + blocked(8) → when
//	social_messages  conversation(16) + message id(8) → Message
//	social_reads     user(8) + other(8) → Read (membership and read marker)
//	social_pow       spent challenge → its expiry
//
// A conversation's key is its two account ids, lower first; the contact
// form's conversation is ContactPeer (0) with itself.
package social

import (
	"context"
	"net/netip"
	"time"

	"github.com/devhub/devhub/pkg/internal/random"
	"github.com/devhub/devhub/pkg/internal/ratelimit"
	"github.com/devhub/devhub/pkg/store"
)

var (
	bucketRequests = []byte("social_requests")
	bucketLinks    = []byte("social_links")
	bucketBlocks   = []byte("social_blocks")
	bucketMessages = []byte("social_messages")
	bucketReads    = []byte("social_reads")
	bucketPow      = []byte("social_pow")
)

// Options configure the service; zero values take the defaults below.
type Options struct {
	// FriendsOnly lets accounts message only their friends (messages.from:
	// friends); else anyone not blocked (messages.from: anyone).
	FriendsOnly bool
	// MaxLength caps a direct message, in characters.
	MaxLength int
	// PerMinute is how many direct messages one account may send a minute.
	PerMinute int
	// ContactPerHour is how many contact messages one client network may
	// send an hour.
	ContactPerHour int
	// ContactMaxLength caps a contact message, in characters.
	ContactMaxLength int
	// PowMaxNumber is the largest number a contact challenge hides: the
	// browser tries half as many hashes on average.
	PowMaxNumber int
	// PowTTL is how long a contact challenge may be answered.
	PowTTL time.Duration
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Defaults of Options.
const (
	DefaultMaxLength        = 2000
	DefaultPerMinute        = 20
	DefaultContactPerHour   = 5
	DefaultContactMaxLength = 5000
	DefaultPowMaxNumber     = 50000
	DefaultPowTTL           = 20 * time.Minute
)

// Service is the social graph and the messages.
type Service struct {
	st    *store.Store
	o     Options
	now   func() time.Time
	sends *ratelimit.Limiter[uint64]
	// requests bounds the friend requests one account sends, so that
	// asking, cancelling and asking again cannot flood another's
	// notifications.
	requests *ratelimit.Limiter[uint64]
	contact  *ratelimit.Limiter[netip.Prefix]
	hmacKey  []byte
}

// New creates the buckets and the contact form's signing key (kept in the
// store, so challenges outlive a restart).
func New(st *store.Store, o Options) (*Service, error) {
	if o.MaxLength <= 0 {
		o.MaxLength = DefaultMaxLength
	}
	if o.PerMinute <= 0 {
		o.PerMinute = DefaultPerMinute
	}
	if o.ContactPerHour <= 0 {
		o.ContactPerHour = DefaultContactPerHour
	}
	if o.ContactMaxLength <= 0 {
		o.ContactMaxLength = DefaultContactMaxLength
	}
	if o.PowMaxNumber <= 0 {
		o.PowMaxNumber = DefaultPowMaxNumber
	}
	if o.PowTTL <= 0 {
		o.PowTTL = DefaultPowTTL
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if err := st.EnsureBuckets(string(bucketRequests), string(bucketLinks), string(bucketBlocks),
		string(bucketMessages), string(bucketReads), string(bucketPow)); err != nil {
		return nil, err
	}
	key, err := st.MetaOrInit("social_contact_key", func() ([]byte, error) { return random.Bytes(32), nil })
	if err != nil {
		return nil, err
	}
	return &Service{st: st, o: o, now: o.Now, hmacKey: key,
		sends:    ratelimit.New[uint64](o.PerMinute, time.Minute, 0, o.Now),
		requests: ratelimit.New[uint64](FriendRequestsPerHour, time.Hour, 0, o.Now),
		contact:  ratelimit.New[netip.Prefix](o.ContactPerHour, time.Hour, 0, o.Now),
	}, nil
}

// pair is the 16-byte key of a then b.
func pair(a, b uint64) []byte { return append(store.Itob(a), store.Itob(b)...) }

// convKey is the key of the conversation between a and b, lower id first.
func convKey(a, b uint64) []byte {
	if a > b {
		a, b = b, a
	}
	return pair(a, b)
}

// alive gives up before a write transaction once ctx is done.
func alive(ctx context.Context) error { return ctx.Err() }
