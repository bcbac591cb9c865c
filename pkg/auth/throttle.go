package auth

import (
	"net/netip"
	"sync"
	"time"
)

// Login throttling: a sliding window of failed attempts per key. A key is
// either an account (the normalised e-mail, whether or not it exists, so the
// limiter reveals nothing) or a client network. Once a key has MaxFailures
// failures inside Window, every further attempt is refused until the oldest
// of them leaves the window — even with the right password, or a guesser
// would learn it from the answer.
const (
	LoginMaxFailures = 5
	LoginWindow      = time.Minute
)

// limiterPruneAt is the number of tracked keys above which stale ones are
// dropped, bounding memory under a spray of addresses or e-mails.
const limiterPruneAt = 10_000

type limiter struct {
	mu     sync.Mutex
	max    int
	window time.Duration
	fails  map[string][]time.Time
}

func newLimiter(max int, window time.Duration) *limiter {
	return &limiter{max: max, window: window, fails: map[string][]time.Time{}}
}

// recent drops timestamps older than the window; callers hold mu.
func (l *limiter) recent(key string, now time.Time) []time.Time {
	ts := l.fails[key]
	i := 0
	for i < len(ts) && now.Sub(ts[i]) >= l.window {
		i++
	}
	if i == len(ts) {
		delete(l.fails, key)
		return nil
	}
	if i > 0 {
		ts = append(ts[:0:0], ts[i:]...)
		l.fails[key] = ts
	}
	return ts
}

// wait returns how long the caller must wait before key may try again; zero
// means it may try now.
func (l *limiter) wait(now time.Time, keys ...string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	var longest time.Duration
	for _, k := range keys {
		ts := l.recent(k, now)
		if len(ts) < l.max {
			continue
		}
		// The attempt becomes possible when enough old failures expire to
		// leave room for one more.
		if d := l.window - now.Sub(ts[len(ts)-l.max]); d > longest {
			longest = d
		}
	}
	return longest
}

// fail records a failed attempt against every key.
func (l *limiter) fail(now time.Time, keys ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.fails) > limiterPruneAt {
		for k := range l.fails {
			l.recent(k, now)
		}
	}
	for _, k := range keys {
		ts := l.recent(k, now)
		if len(ts) >= 2*l.max { // enough to decide; keep the slice bounded
			ts = ts[1:]
		}
		l.fails[k] = append(ts, now)
	}
}

// reset forgets the failures of key (a successful login of that account).
func (l *limiter) reset(key string) {
	l.mu.Lock()
	delete(l.fails, key)
	l.mu.Unlock()
}

func accountKey(email string) string { return "acct:" + email }

// networkKey groups IPv6 clients by /64: one subscriber usually owns a whole
// /64 and could otherwise rotate addresses to dodge the per-IP count.
func networkKey(ip netip.Addr) string {
	if !ip.IsValid() {
		return "ip:unknown"
	}
	ip = ip.Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return "ip:" + p.String()
	}
	return "ip:" + ip.String()
}
