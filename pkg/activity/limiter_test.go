package activity

import (
	"net/netip"
	"testing"
	"time"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func TestLimiter(t *testing.T) {
	a := netip.MustParseAddr("203.0.113.1")
	b := netip.MustParseAddr("203.0.113.2")
	clock := &fakeClock{t: time.Unix(1_700_000_000, 0)}
	l := NewLimiter(3, time.Minute, 0, clock.now)

	for i := 1; i <= 3; i++ {
		if ok, _ := l.Allow(a); !ok {
			t.Fatalf("event %d of 3 refused", i)
		}
	}
	ok, wait := l.Allow(a)
	if ok {
		t.Fatal("4th event in a minute allowed")
	}
	if wait < 19*time.Second || wait > 20*time.Second {
		t.Fatalf("retry after %s, want ~20s (one token per 20s)", wait)
	}
	if ok, _ := l.Allow(b); !ok {
		t.Fatal("another IP was limited by a's traffic")
	}
	// Refusals do not consume anything: after the wait one more goes through.
	clock.advance(wait)
	if ok, _ := l.Allow(a); !ok {
		t.Fatal("refused after waiting the announced time")
	}
	if ok, _ := l.Allow(a); ok {
		t.Fatal("two events allowed after earning one token")
	}
	// A long pause refills up to the burst size, not beyond.
	clock.advance(time.Hour)
	for i := 1; i <= 3; i++ {
		if ok, _ := l.Allow(a); !ok {
			t.Fatalf("after a pause, event %d of 3 refused", i)
		}
	}
	if ok, _ := l.Allow(a); ok {
		t.Fatal("burst grew beyond the rate after a long pause")
	}
}

func TestLimiterRetryAfterAtLeastOneSecond(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	l := NewLimiter(6000, time.Minute, 0, clock.now) // one token per 10ms
	ip := netip.MustParseAddr("192.0.2.1")
	for {
		if ok, wait := l.Allow(ip); !ok {
			if wait != time.Second {
				t.Fatalf("retry after %s, want the 1s floor", wait)
			}
			return
		}
	}
}

func TestLimiterIPv6SharesSlash64(t *testing.T) {
	l := NewLimiter(2, time.Minute, 0, (&fakeClock{t: time.Unix(0, 0)}).now)
	for _, s := range []string{"2001:db8:1:2::1", "2001:db8:1:2:ffff::9"} {
		if ok, _ := l.Allow(netip.MustParseAddr(s)); !ok {
			t.Fatalf("%s refused", s)
		}
	}
	if ok, _ := l.Allow(netip.MustParseAddr("2001:db8:1:2::abcd")); ok {
		t.Fatal("a third address in the same /64 got a fresh budget")
	}
	if ok, _ := l.Allow(netip.MustParseAddr("2001:db8:1:3::1")); !ok {
		t.Fatal("a different /64 was limited")
	}
	// IPv4 and its IPv4-mapped IPv6 form are the same client.
	if ok, _ := l.Allow(netip.MustParseAddr("192.0.2.7")); !ok {
		t.Fatal("first IPv4 event refused")
	}
	l.Allow(netip.MustParseAddr("::ffff:192.0.2.7"))
	if ok, _ := l.Allow(netip.MustParseAddr("192.0.2.7")); ok {
		t.Fatal("IPv4-mapped form has its own budget")
	}
}

// A flood of distinct addresses must not grow memory without bound: the
// table stays at its cap, and the least recently seen clients are dropped.
func TestLimiterTableIsBounded(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	l := NewLimiter(1, time.Minute, 100, clock.now)
	heavy := netip.MustParseAddr("203.0.113.99")
	l.Allow(heavy)
	for i := 0; i < 10_000; i++ {
		l.Allow(netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)}))
		if i%50 == 0 {
			l.Allow(heavy) // recently seen: survives eviction, stays limited
		}
	}
	if n := l.Len(); n != 100 {
		t.Fatalf("limiter tracks %d clients, want the cap of 100", n)
	}
	if ok, _ := l.Allow(heavy); ok {
		t.Fatal("a client seen recently was evicted and got a fresh budget")
	}
}

// An attacker holding more /64s than the table has room for must not reset
// its own spent bucket by pushing it out: while every tracked bucket is
// still spending, newcomers share one overflow bucket instead of evicting.
func TestLimiterEvictionCannotResetAClient(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	l := NewLimiter(2, time.Minute, 8, clock.now)
	attacker := netip.MustParseAddr("2001:db8:aaaa:1::1")
	l.Allow(attacker)
	l.Allow(attacker)
	if ok, _ := l.Allow(attacker); ok {
		t.Fatal("third event of a rate-2 client allowed")
	}
	allowed := 0
	for i := 0; i < 1000; i++ {
		// a fresh /48 each time: aggregation cannot help, only the eviction rule
		ip := netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb9, byte(i >> 8), byte(i), 0, 1, 15: 1})
		if ok, _ := l.Allow(ip); ok {
			allowed++
		}
	}
	if allowed > 8*2+2 {
		t.Fatalf("%d events from a flood of new networks allowed; want at most the table's and the overflow's budget", allowed)
	}
	if ok, _ := l.Allow(attacker); ok {
		t.Fatal("the spent client got a fresh budget after the flood")
	}
	// Buckets that have earned everything back are evicted freely: after a
	// quiet spell new clients get their own budget again.
	clock.advance(time.Hour)
	if ok, _ := l.Allow(netip.MustParseAddr("198.51.100.7")); !ok {
		t.Fatal("a new client refused after the table had refilled")
	}
	if n := l.Len(); n > 8 {
		t.Fatalf("table holds %d clients, cap 8", n)
	}
}

// Under pressure IPv6 clients are keyed by their /48: rotating /64s inside
// one allocation stops buying new budgets.
func TestLimiterAggregatesTo48UnderPressure(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	l := NewLimiter(1, time.Minute, 10, clock.now)
	for i := 0; i < 6; i++ { // more than half the table: pressure
		l.Allow(netip.AddrFrom4([4]byte{192, 0, 2, byte(i)}))
	}
	allowed := 0
	for i := 0; i < 50; i++ {
		ip := netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0x00, 0x07, 0x00, byte(i), 15: 1})
		if ok, _ := l.Allow(ip); ok {
			allowed++
		}
	}
	if allowed != 1 {
		t.Fatalf("%d events allowed from 50 /64s of one /48 under pressure, want 1", allowed)
	}
}
