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
	}
}

// Allow spends one token of ip's bucket. When none is left it returns false
// and how long until one is earned back (at least one second, so it can be
// sent as Retry-After).
func (l *Limiter) Allow(ip netip.Addr) (bool, time.Duration) {
	key := limiterKey(ip)
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()

	var b *bucket
	if el, ok := l.byKey[key]; ok {
		l.order.MoveToFront(el)
		b = el.Value.(*bucket)
		if elapsed := now.Sub(b.last); elapsed > 0 {
			b.tokens += float64(elapsed) / float64(l.perToken)
			if b.tokens > l.capacity {
				b.tokens = l.capacity
			}
		}
		b.last = now
	} else {
		if l.order.Len() >= l.max {
			oldest := l.order.Back()
			l.order.Remove(oldest)
			delete(l.byKey, oldest.Value.(*bucket).key)
		}
		b = &bucket{key: key, tokens: l.capacity, last: now}
		l.byKey[key] = l.order.PushFront(b)
	}

	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := time.Duration((1 - b.tokens) * float64(l.perToken))
	if wait < time.Second {
		wait = time.Second
	}
	return false, wait
}

// Len is the number of clients currently tracked.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.order.Len()
}

// limiterKey is the address itself for IPv4 and the /64 for IPv6.
func limiterKey(ip netip.Addr) netip.Prefix {
	ip = ip.Unmap()
	bits := ip.BitLen()
	if ip.Is6() {
		bits = 64
	}
	p, err := ip.Prefix(bits)
	if err != nil { // the zero Addr: everyone without an address shares one bucket
		return netip.Prefix{}
	}
	return p
}
