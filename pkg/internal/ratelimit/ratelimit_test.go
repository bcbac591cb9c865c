package ratelimit

import (
	"testing"
	"time"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func TestBucketIsShared(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	b := NewBucket(3, time.Minute, clock.now)
	for i := 0; i < 3; i++ {
		if ok, _ := b.Allow(); !ok {
			t.Fatalf("event %d of 3 refused", i+1)
		}
	}
	ok, wait := b.Allow()
	if ok || wait < 19*time.Second || wait > 20*time.Second {
		t.Fatalf("4th event: ok=%v wait=%s; want refused, ~20s", ok, wait)
	}
	clock.advance(wait)
	if ok, _ := b.Allow(); !ok {
		t.Fatal("refused after the announced wait")
	}
}

func TestLimiterKeysAreApart(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	l := New[string](2, time.Minute, 0, clock.now)
	l.Allow("a")
	l.Allow("a")
	if ok, _ := l.Allow("a"); ok {
		t.Fatal("third event of a rate-2 key allowed")
	}
	if ok, _ := l.Allow("b"); !ok {
		t.Fatal("another key was limited by a's events")
	}
	clock.advance(time.Hour) // refills up to the burst, not beyond
	for i := 0; i < 2; i++ {
		if ok, _ := l.Allow("a"); !ok {
			t.Fatalf("after a pause, event %d refused", i+1)
		}
	}
	if ok, _ := l.Allow("a"); ok {
		t.Fatal("burst grew beyond the rate after a long pause")
	}
}

// A client with more keys than the table holds must not reset its own
// spent bucket by pushing it out.
func TestLimiterEvictionCannotReset(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	l := New[int](2, time.Minute, 8, clock.now)
	l.Allow(-1)
	l.Allow(-1)
	allowed := 0
	for i := 0; i < 1000; i++ {
		if ok, _ := l.Allow(i); ok {
			allowed++
		}
	}
	if allowed > 8*2+2 {
		t.Fatalf("%d events from a flood of new keys; want at most the table's and the overflow's budget", allowed)
	}
	if ok, _ := l.Allow(-1); ok {
		t.Fatal("the spent key got a fresh budget after the flood")
	}
	if n := l.Len(); n > 8 {
		t.Fatalf("table holds %d keys, cap 8", n)
	}
	// Refilled buckets are evicted freely.
	clock.advance(time.Hour)
	if ok, _ := l.Allow(5000); !ok {
		t.Fatal("a new key refused after the table had refilled")
	}
}

// A recently seen key survives a flood of others (LRU) and stays limited.
func TestLimiterRecentKeySurvives(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	l := New[int](1, time.Minute, 100, clock.now)
	l.Allow(-1)
	for i := 0; i < 10_000; i++ {
		l.Allow(i)
		if i%50 == 0 {
			l.Allow(-1)
		}
	}
	if ok, _ := l.Allow(-1); ok {
		t.Fatal("a recently seen key was evicted and got a fresh budget")
	}
}

func TestAllowGroupedUnderPressure(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	l := New[string](1, time.Minute, 10, clock.now)
	l.AllowGrouped("early", "g")
	for i := 0; i < 6; i++ { // more than half the table: pressure
		l.Allow(string(rune('A' + i)))
	}
	allowed := 0
	for i := 0; i < 20; i++ {
		if ok, _ := l.AllowGrouped("k"+string(rune('a'+i)), "g"); ok {
			allowed++
		}
	}
	if allowed != 1 {
		t.Fatalf("%d of 20 new keys of one group allowed under pressure, want 1", allowed)
	}
	clock.advance(time.Hour)
	if ok, _ := l.AllowGrouped("early", "g"); !ok {
		t.Fatal("a key tracked before the pressure lost its own bucket")
	}
}

// Slots count what runs now: a key over its own cap is refused while
// another key still gets in, the total cap holds across keys, and a slot
// given back (once, however often release is called) is free again.
func TestSlots(t *testing.T) {
	s := NewSlots[string](3, 2)
	a1, ok1 := s.Take("a")
	_, ok2 := s.Take("a")
	if !ok1 || !ok2 {
		t.Fatal("two slots for a")
	}
	if _, ok := s.Take("a"); ok {
		t.Fatal("a third for a, over its cap")
	}
	b1, ok := s.Take("b")
	if !ok {
		t.Fatal("b refused while a is full")
	}
	if _, ok := s.Take("c"); ok {
		t.Fatal("c admitted over the total cap")
	}
	b1()
	b1()
	if _, ok := s.Take("c"); !ok {
		t.Fatal("c refused after b gave its slot back")
	}
	if _, ok := s.Take("d"); ok {
		t.Fatal("a double release freed two slots")
	}
	if n := s.Active(); n != 3 {
		t.Fatalf("%d slots held, want 3", n)
	}
	a1()
	if n := s.Active(); n != 2 {
		t.Fatalf("%d slots held after a release, want 2", n)
	}
	if _, ok := s.Take("a"); !ok {
		t.Fatal("a refused after giving one back")
	}
}
