package auth

import (
	"net/netip"
	"sync"
	"time"

	"github.com/devhub/devhub/pkg/internal/ratelimit"
)

// Login throttling, hard: a sliding window of failed attempts per key. A key
// is either an account as seen from one client network (the normalised
// e-mail, whether or not it exists, so the limiter reveals nothing, paired
// with the network) or a client network alone. Once a key has MaxFailures
// failures inside Window, every further attempt under it is refused until
// the oldest of them leaves the window — even with the right password, or a
// guesser would learn it from the answer.
//
// The account alone is deliberately not a hard key: then five wrong
// passwords a minute from anywhere would lock the owner out from
// everywhere. Failures from all networks together slow the account down
// instead (below): a guesser spread over many networks is held to one guess
// per few seconds per connection, and the owner signing in from a clean
// network still gets in, only a little later.
const (
	LoginMaxFailures = 5
	LoginWindow      = time.Minute
)

// Login throttling, soft: once an account has collected AccountSlowAfter
// failures within AccountFailureWindow (from any networks), each further
// password check for it waits first — AccountDelayBase, doubling with every
// further failure, at most AccountDelayCap.
const (
	AccountSlowAfter     = 5
	AccountFailureWindow = 15 * time.Minute
	AccountDelayBase     = 250 * time.Millisecond
	AccountDelayCap      = 4 * time.Second
)

// accountDelay is the wait before a password check of an account with the
// given number of recent failures.
func accountDelay(failures int) time.Duration {
	if failures < AccountSlowAfter {
		return 0
	}
	steps := failures - AccountSlowAfter
	if steps >= 8 { // past the cap long before the shift could overflow
		return AccountDelayCap
	}
	return min(AccountDelayBase<<steps, AccountDelayCap)
}

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

// Sign-in budget: every password check costs an argon2id run, the
// successful ones too, which the failure count above gives back. Without a
// cap, one account would let its holder keep every hashing slot busy with
// correct sign-ins in a loop while everyone else's sign-in queued behind
// them. A client network may check SignInMaxPerWindow passwords (sign-ins
// and password changes, right or wrong) per SignInWindow: far more than the
// people behind one address sign in, since access tokens are refreshed
// without a password.
const (
	SignInMaxPerWindow = 30
	SignInWindow       = time.Minute
)

// One-time codes, per account from all networks together: hard. A code is
// six digits, and the token between password and code works from any
// network, so the per-network limits alone let a guesser who holds the
// password and many networks (an IPv6 /48 is 65 536 of them) try codes in
// parallel until one hits. An account may get CodeMaxFailures wrong codes
// (one-time or recovery) per CodeWindow; then every code for it is refused
// until the oldest failure leaves the window, the right one too. Only
// someone who knows the password gets this far.
const (
	CodeMaxFailures = 10
	CodeWindow      = 15 * time.Minute
)

// What a ThrottledError refused.
const (
	ThrottledLogin    = "login"    // too many failed sign-ins (account or network)
	ThrottledSignIns  = "sign-ins" // the network's sign-in budget is used up
	ThrottledRegister = "register" // too many registrations from the network
	ThrottledCodes    = "codes"    // too many wrong codes for the account
)

// limiterPruneAt is the number of tracked keys above which stale ones are
// dropped, bounding memory under a spray of addresses or e-mails.
const limiterPruneAt = 10_000

// limiter counts attempts per key inside a sliding window.
//
// An attempt reserves its place (checked and reserved under one lock) before
// the expensive work it guards, and is then either counted (commit) or given
// back (cancel): checking first and counting only after an argon2id run
// would let a burst of parallel requests all pass the check before the first
// of them was counted. A key whose places are taken only by attempts still
// running is refused for a moment (MinRetry), not for a whole window.
type limiter struct {
	mu      sync.Mutex
	max     int
	window  time.Duration
	hits    map[string][]time.Time
	pending map[string]int
}

// minRetry is the wait given when a key is full only of attempts still in
// progress: they end within milliseconds.
const minRetry = time.Second

func newLimiter(max int, window time.Duration) *limiter {
	return &limiter{max: max, window: window, hits: map[string][]time.Time{}, pending: map[string]int{}}
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

// reserve takes a place for one attempt under every key, unless a key is
// full (counted plus reserved attempts reach max): then nothing is taken and
// the answer is how long to wait.
func (l *limiter) reserve(now time.Time, keys ...string) time.Duration {
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
		if len(ts)+l.pending[k] < l.max {
			continue
		}
		d := minRetry
		if len(ts) >= l.max {
			// Possible again when enough counted attempts expire to
			// leave room for one more.
			d = max(d, l.window-now.Sub(ts[len(ts)-l.max]))
		}
		longest = max(longest, d)
	}
	if longest > 0 {
		return longest
	}
	for _, k := range keys {
		l.pending[k]++
	}
	return 0
}

// commit turns reserved places into counted attempts at now.
func (l *limiter) commit(now time.Time, keys ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range keys {
		l.unpend(k)
		l.hits[k] = append(l.recent(k, now), now)
	}
}

// cancel gives reserved places back (the attempt succeeded and must not
// count).
func (l *limiter) cancel(keys ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range keys {
		l.unpend(k)
	}
}

// take reserves and counts at once: for limits where every attempt counts.
func (l *limiter) take(now time.Time, keys ...string) time.Duration {
	if wait := l.reserve(now, keys...); wait > 0 {
		return wait
	}
	l.commit(now, keys...)
	return 0
}

// unpend releases one reservation of k; callers hold mu.
func (l *limiter) unpend(k string) {
	if l.pending[k] <= 1 {
		delete(l.pending, k)
	} else {
		l.pending[k]--
	}
}

// count is the number of counted attempts of key inside the window.
func (l *limiter) count(now time.Time, key string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.recent(key, now))
}

// reset forgets the counted attempts of key (a successful login of that
// account); reservations of attempts still running stay.
func (l *limiter) reset(key string) {
	l.mu.Lock()
	delete(l.hits, key)
	l.mu.Unlock()
}

func accountKey(email string) string { return "acct:" + email }

// pairKey is an account as seen from one network.
func pairKey(acct, network string) string { return acct + "|" + network }

// networkKey is the client network of ip (ratelimit.Network: IPv6 by /64).
func networkKey(ip netip.Addr) string {
	if !ip.IsValid() {
		return "ip:unknown"
	}
	return "ip:" + ratelimit.Network(ip, false).String()
}
