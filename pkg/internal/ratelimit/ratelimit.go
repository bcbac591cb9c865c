// Package ratelimit holds the token buckets every limit of devhub is made
// of: one bucket shared by all (Bucket), and a bounded table of buckets per
// key (Limiter) — per client network, per user, per anything comparable.
//
// Each bucket lets a key burst up to `rate` events and then earn `rate`
// more per `per`. Everything lives in memory (a restart forgives everyone).
package ratelimit

import (
	"container/list"
	"net/netip"
	"sync"
	"time"
)

// DefaultMaxKeys bounds a Limiter's table when none is given: about 100
// bytes per entry, so a few MiB however many clients send.
const DefaultMaxKeys = 32768

// minRetry is the shortest wait announced, so it can be sent as a whole
// number of seconds in Retry-After.
const minRetry = time.Second

type bucket[K comparable] struct {
	key    K
	tokens float64
	last   time.Time
}

// refill adds the tokens earned since the bucket was last touched.
func (b *bucket[K]) refill(now time.Time, capacity float64, perToken time.Duration) {
	if elapsed := now.Sub(b.last); elapsed > 0 {
		b.tokens = min(capacity, b.tokens+float64(elapsed)/float64(perToken))
	}
	b.last = now
}

// take refills the bucket and spends one token, or says how long until one
// is there (at least minRetry).
func (b *bucket[K]) take(now time.Time, capacity float64, perToken time.Duration) (bool, time.Duration) {
	b.refill(now, capacity, perToken)
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := time.Duration((1 - b.tokens) * float64(perToken))
	return false, max(wait, minRetry)
}

// Bucket is one token bucket shared by every caller: a global budget.
type Bucket struct {
	mu       sync.Mutex
	b        bucket[struct{}]
	capacity float64
	perToken time.Duration
	now      func() time.Time
}

// NewBucket allows rate events per `per` in all. now is the clock (nil:
// time.Now).
func NewBucket(rate int, per time.Duration, now func() time.Time) *Bucket {
	rate = max(rate, 1)
	if now == nil {
		now = time.Now
	}
	return &Bucket{b: bucket[struct{}]{tokens: float64(rate), last: now()}, capacity: float64(rate),
		perToken: per / time.Duration(rate), now: now}
}

// Allow spends one token, or says how long until one is earned back.
func (g *Bucket) Allow() (bool, time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.b.take(g.now(), g.capacity, g.perToken)
}

// Limiter keeps one bucket per key in a table of at most max keys.
//
// Forgetting a key must never hand it a fresh bucket, or a client with more
// identities than the table holds would reset itself by pushing its own
// entries out. So only a bucket that has earned all its tokens back is ever
// evicted (it would be recreated full anyway); while the least recently
// seen bucket is still spending, new keys are charged to one shared
// overflow bucket until room frees up.
type Limiter[K comparable] struct {
	mu       sync.Mutex
	capacity float64
	perToken time.Duration
	max      int
	now      func() time.Time
	order    *list.List // front = most recently seen; values are *bucket[K]
	byKey    map[K]*list.Element
	overflow bucket[K]
}

// New allows rate events per `per` to each key, tracking at most max keys
// (0: DefaultMaxKeys). now is the clock (nil: time.Now).
func New[K comparable](rate int, per time.Duration, max int, now func() time.Time) *Limiter[K] {
	rate = maxInt(rate, 1)
	if max <= 0 {
		max = DefaultMaxKeys
	}
	if now == nil {
		now = time.Now
	}
	return &Limiter[K]{
		capacity: float64(rate),
		perToken: per / time.Duration(rate),
		max:      max,
		now:      now,
		order:    list.New(),
		byKey:    make(map[K]*list.Element),
		overflow: bucket[K]{tokens: float64(rate), last: now()},
	}
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// Allow spends one token of key's bucket. When none is left it returns false
// and how long until one is earned back (at least a second, for
// Retry-After).
func (l *Limiter[K]) Allow(key K) (bool, time.Duration) {
	return l.AllowGrouped(key, key)
}

// AllowGrouped is Allow for a key that belongs to a wider group (an IPv6
// /64 inside its /48): while the table is more than half full, a key not
// tracked yet is charged to its group's bucket instead of getting its own,
// so rotating keys inside one group stops buying new budgets under a flood.
// A key tracked before the pressure began keeps its own bucket.
func (l *Limiter[K]) AllowGrouped(key, group K) (bool, time.Duration) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if el, ok := l.byKey[key]; ok {
		return l.touch(el, now)
	}
	if l.order.Len() > l.max/2 {
		key = group
		if el, ok := l.byKey[key]; ok {
			return l.touch(el, now)
		}
	}
	if l.order.Len() >= l.max {
		oldest := l.order.Back()
		ob := oldest.Value.(*bucket[K])
		ob.refill(now, l.capacity, l.perToken)
		if ob.tokens < l.capacity {
			return l.overflow.take(now, l.capacity, l.perToken)
		}
		l.order.Remove(oldest)
		delete(l.byKey, ob.key)
	}
	b := &bucket[K]{key: key, tokens: l.capacity, last: now}
	l.byKey[key] = l.order.PushFront(b)
	return b.take(now, l.capacity, l.perToken)
}

func (l *Limiter[K]) touch(el *list.Element, now time.Time) (bool, time.Duration) {
	l.order.MoveToFront(el)
	return el.Value.(*bucket[K]).take(now, l.capacity, l.perToken)
}

// Len is the number of keys currently tracked.
func (l *Limiter[K]) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.order.Len()
}

// Network is the client network an address counts as: the address itself
// for IPv4 (IPv4-mapped IPv6 included) and its /64 for IPv6 — one
// subscriber usually holds a whole /64 and could otherwise rotate addresses
// to dodge a limit — or its /48 when wide (a site's allocation; see
// Limiter.AllowGrouped). The zero Addr gives the zero Prefix: every client
// without an address shares one key.
func Network(ip netip.Addr, wide bool) netip.Prefix {
	ip = ip.Unmap()
	bits := ip.BitLen()
	if ip.Is6() {
		bits = 64
		if wide {
			bits = 48
		}
	}
	p, err := ip.Prefix(bits)
	if err != nil {
		return netip.Prefix{}
	}
	return p
}
