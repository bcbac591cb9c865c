package activity

import (
	"container/list"
	"net/netip"
	"sync"
	"time"
)

// DefaultMaxTrackedIPs bounds the limiter's table: about 100 bytes per
// entry, so the worst case is a few MiB however many addresses send.
const DefaultMaxTrackedIPs = 32768

// Limiter is a per-client token bucket: each client may burst up to `rate`
// events and then gets `rate` more per `per`. It lives in memory only (a
// restart forgives everyone), and its table is bounded: past max clients the
// least recently seen one is forgotten, so a flood of distinct addresses
// costs a fixed amount of memory. IPv6 clients are keyed by their /64,
// because one subscriber usually holds a whole /64 and could otherwise
// rotate addresses to dodge the limit.
type Limiter struct {
	mu       sync.Mutex
	capacity float64
	perToken time.Duration // time to earn one token back
	max      int
	now      func() time.Time
	order    *list.List // front = most recently seen; values are *bucket
	byKey    map[netip.Prefix]*list.Element
	// overflow is charged for new clients while the table is full of
	// buckets still spending (see Allow).
	overflow bucket
}

type bucket struct {
	key    netip.Prefix
	tokens float64
	last   time.Time
}

// NewLimiter allows rate events per `per` to each client, tracking at most
// max clients (0: DefaultMaxTrackedIPs). now is the clock (nil: time.Now).
func NewLimiter(rate int, per time.Duration, max int, now func() time.Time) *Limiter {
	if rate < 1 {
		rate = 1
	}
	if max <= 0 {
		max = DefaultMaxTrackedIPs
	}
	if now == nil {
		now = time.Now
	}
	return &Limiter{
		capacity: float64(rate),
		perToken: per / time.Duration(rate),
		max:      max,
		now:      now,
		order:    list.New(),
		byKey:    make(map[netip.Prefix]*list.Element),
		overflow: bucket{tokens: float64(rate), last: now()},
	}
}

// Allow spends one token of ip's bucket. When none is left it returns false
// and how long until one is earned back (at least one second, so it can be
// sent as Retry-After).
//
// The table is bounded, and forgetting a client must never hand it a fresh
// bucket: an attacker with more addresses than the table holds would
// otherwise reset itself by pushing its own entries out. So:
//   - under pressure (the table more than half full) IPv6 clients are keyed
//     by their /48 instead of their /64 — one site's allocation shares one
//     bucket, so rotating /64s stops paying off;
//   - only a bucket that has earned all its tokens back is ever evicted (it
//     would be recreated full anyway); when the least recently seen one is
//     still spending, a new client is charged to one shared overflow bucket
//     until room frees up.
func (l *Limiter) Allow(ip netip.Addr) (bool, time.Duration) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()

	key := limiterKey(ip, l.order.Len() > l.max/2)
	var b *bucket
	if el, ok := l.byKey[key]; ok {
		l.order.MoveToFront(el)
		b = el.Value.(*bucket)
	} else if el, ok := l.byKey[limiterKey(ip, false)]; ok {
		// Known before the pressure began: keep its own (spent) bucket.
		l.order.MoveToFront(el)
		b = el.Value.(*bucket)
	} else {
		if l.order.Len() >= l.max {
			oldest := l.order.Back()
			ob := oldest.Value.(*bucket)
			ob.refill(now, l.capacity, l.perToken)
			if ob.tokens < l.capacity {
				return l.overflow.take(now, l.capacity, l.perToken)
			}
			l.order.Remove(oldest)
			delete(l.byKey, ob.key)
		}
		b = &bucket{key: key, tokens: l.capacity, last: now}
		l.byKey[key] = l.order.PushFront(b)
	}
	return b.take(now, l.capacity, l.perToken)
}

// refill adds the tokens earned since the bucket was last touched.
func (b *bucket) refill(now time.Time, capacity float64, perToken time.Duration) {
	if elapsed := now.Sub(b.last); elapsed > 0 {
		b.tokens = min(capacity, b.tokens+float64(elapsed)/float64(perToken))
	}
	b.last = now
}

// take refills the bucket and spends one token, or says how long until one
// is there (at least a second, for Retry-After).
func (b *bucket) take(now time.Time, capacity float64, perToken time.Duration) (bool, time.Duration) {
	b.refill(now, capacity, perToken)
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := time.Duration((1 - b.tokens) * float64(perToken))
	return false, max(wait, time.Second)
}

// RateLimit is one token bucket shared by every caller: a global budget.
type RateLimit struct {
	mu       sync.Mutex
	b        bucket
	capacity float64
	perToken time.Duration
	now      func() time.Time
}

// NewRateLimit allows rate events per `per` in all (bursts up to rate).
func NewRateLimit(rate int, per time.Duration, now func() time.Time) *RateLimit {
	if rate < 1 {
		rate = 1
	}
	if now == nil {
		now = time.Now
	}
	return &RateLimit{b: bucket{tokens: float64(rate), last: now()}, capacity: float64(rate),
		perToken: per / time.Duration(rate), now: now}
}

// Allow spends one token, or says how long until one is earned back.
func (r *RateLimit) Allow() (bool, time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.b.take(r.now(), r.capacity, r.perToken)
}

// Len is the number of clients currently tracked.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.order.Len()
}

// limiterKey is the address itself for IPv4 and the /64 for IPv6 (the /48
// when wide).
func limiterKey(ip netip.Addr, wide bool) netip.Prefix {
	ip = ip.Unmap()
	bits := ip.BitLen()
	if ip.Is6() {
		bits = 64
		if wide {
			bits = 48
		}
	}
	p, err := ip.Prefix(bits)
	if err != nil { // the zero Addr: everyone without an address shares one bucket
		return netip.Prefix{}
	}
	return p
}
