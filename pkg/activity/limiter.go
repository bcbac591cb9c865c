package activity

import (
	"net/netip"
	"time"

	"github.com/devhub/devhub/pkg/internal/ratelimit"
)

// DefaultMaxTrackedIPs bounds the limiter's table (ratelimit.DefaultMaxKeys).
const DefaultMaxTrackedIPs = ratelimit.DefaultMaxKeys

// Limiter is a per-client token bucket (ratelimit.Limiter): each client may
// burst up to `rate` events and then gets `rate` more per `per`. IPv4
// clients are keyed by their address, IPv6 clients by their /64 — one
// subscriber usually holds a whole /64 and could otherwise rotate addresses
// to dodge the limit — and by their /48 while the table is under pressure.
type Limiter struct {
	l *ratelimit.Limiter[netip.Prefix]
}

// NewLimiter allows rate events per `per` to each client, tracking at most
// max clients (0: DefaultMaxTrackedIPs). now is the clock (nil: time.Now).
func NewLimiter(rate int, per time.Duration, max int, now func() time.Time) *Limiter {
	return &Limiter{l: ratelimit.New[netip.Prefix](rate, per, max, now)}
}

// Allow spends one token of ip's bucket. When none is left it returns false
// and how long until one is earned back (at least one second, so it can be
// sent as Retry-After).
func (l *Limiter) Allow(ip netip.Addr) (bool, time.Duration) {
	return l.l.AllowGrouped(ratelimit.Network(ip, false), ratelimit.Network(ip, true))
}

// Len is the number of clients currently tracked.
func (l *Limiter) Len() int { return l.l.Len() }
