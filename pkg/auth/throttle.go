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

// Registration throttling: every registration costs an argon2id hash (19 MiB
// and tens of milliseconds) and a stored account, so a guest must not be able
// to make the server register in a loop. Each client network may attempt
// RegisterMaxPerWindow registrations per RegisterWindow. An attempt counts
// once the form is valid, whether the e-mail was free or taken (the 409 tells
// whether an address has an account, so this also slows down probing for
// them); a form rejected by validation costs nothing and does not count. One
// person registers once; a household or office behind one address still has
// room for several accounts, and the owner can always add more with
// `devhub user create`.
const (
	RegisterMaxPerWindow = 5
	RegisterWindow       = 10 * time.Minute
)

// What a ThrottledError refused.
const (
	ThrottledLogin    = "login"
	ThrottledRegister = "register"
)

// limiterPruneAt is the number of tracked keys above which stale ones are
// dropped, bounding memory under a spray of addresses or e-mails.
const limiterPruneAt = 10_000

// limiter counts attempts per key inside a sliding window.
//
// An attempt is taken (checked and counted under one lock) before the
// expensive work it guards, and given back if it succeeded: checking first
// and counting only after an argon2id run would let a burst of parallel
// requests all pass the check before the first of them was counted.
type limiter struct {
	mu     sync.Mutex
	max    int
	window time.Duration
	hits   map[string][]time.Time
}

func newLimiter(max int, window time.Duration) *limiter {
	return &limiter{max: max, window: window, hits: map[string][]time.Time{}}
}

// recent drops timestamps older than the window; callers hold mu.
func (l *limiter) recent(key string, now time.Time) []time.Time {
	ts := l.hits[key]
	i := 0
	for i < len(ts) && now.Sub(ts[i]) >= l.window {
		i++
	}
	if i == len(ts) {
		delete(l.hits, key)
		return nil
	}
	if i > 0 {
		ts = append(ts[:0:0], ts[i:]...)
		l.hits[key] = ts
	}
	return ts
}

// take counts an attempt at now against every key, unless one of them
// already has max attempts inside the window: then nothing is counted and
// the answer is how long to wait until an attempt becomes possible.
func (l *limiter) take(now time.Time, keys ...string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.hits) > limiterPruneAt {
		for k := range l.hits {
			l.recent(k, now)
		}
	}
	var longest time.Duration
	for _, k := range keys {
		ts := l.recent(k, now)
		if len(ts) < l.max {
			continue
		}
		// Possible again when enough old attempts expire to leave room
		// for one more.
		if d := l.window - now.Sub(ts[len(ts)-l.max]); d > longest {
			longest = d
		}
	}
	if longest > 0 {
		return longest
	}
	for _, k := range keys {
		l.hits[k] = append(l.hits[k], now)
	}
	return 0
}

// release gives back the attempt taken at at (it succeeded and must not
// count) for every key.
func (l *limiter) release(at time.Time, keys ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range keys {
		ts := l.hits[k]
		for i := len(ts) - 1; i >= 0; i-- {
			if ts[i].Equal(at) {
				ts = append(ts[:i:i], ts[i+1:]...)
				break
			}
		}
		if len(ts) == 0 {
			delete(l.hits, k)
		} else {
			l.hits[k] = ts
		}
	}
}

// reset forgets every attempt of key (a successful login of that account).
func (l *limiter) reset(key string) {
	l.mu.Lock()
	delete(l.hits, key)
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
