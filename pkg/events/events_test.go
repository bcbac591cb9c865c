package events

import (
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/store"
)

func subscribe(t *testing.T, h *Hub, user uint64) *Stream {
	t.Helper()
	s, err := h.Subscribe(Sub{UserID: user})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// drain returns the events waiting on s without blocking.
func drain(s *Stream) []Event {
	var out []Event
	for {
		select {
		case ev := <-s.C():
			out = append(out, *ev)
		default:
			return out
		}
	}
}

func types(evs []Event) string {
	var parts []string
	for _, e := range evs {
		parts = append(parts, e.Type)
	}
	return strings.Join(parts, ",")
}

func TestPublishReachesOnlyAddressees(t *testing.T) {
	h := NewHub(Options{})
	a1, a2, b, c := subscribe(t, h, 1), subscribe(t, h, 1), subscribe(t, h, 2), subscribe(t, h, 3)
	h.Publish("to.a", []uint64{1}, map[string]int{"n": 1})
	h.Publish("to.ab", []uint64{1, 2}, nil)
	h.Publish("to.all", nil, "x")
	h.Publish("to.nobody", []uint64{}, "x")
	h.Publish("to.absent", []uint64{9}, "x")
	tests := []struct {
		name string
		s    *Stream
		want string
	}{
		{"user 1, first tab", a1, "to.a,to.ab,to.all"},
		{"user 1, second tab", a2, "to.a,to.ab,to.all"},
		{"user 2", b, "to.ab,to.all"},
		{"user 3", c, "to.all"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := types(drain(tt.s)); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestEventFrameAndIDs(t *testing.T) {
	h := NewHub(Options{})
	s := subscribe(t, h, 1)
	h.Publish("chat.message", nil, map[string]string{"text": "a\nb <i>"})
	h.Publish("chat.message", nil, 1)
	evs := drain(s)
	if len(evs) != 2 || evs[1].ID != evs[0].ID+1 {
		t.Fatalf("events %+v", evs)
	}
	f := string(evs[0].Frame())
	if strings.Count(f, "\n") != 4 || !strings.HasSuffix(f, "\n\n") || !strings.HasPrefix(f, "id: ") ||
		!strings.Contains(f, "\nevent: chat.message\ndata: {") {
		t.Fatalf("frame %q", f)
	}
	var v map[string]string
	if err := json.Unmarshal(evs[0].Data, &v); err != nil || v["text"] != "a\nb <i>" {
		t.Fatalf("data %s: %v", evs[0].Data, err)
	}
	if evs[0].ID >= 1<<53 {
		t.Fatalf("id %d is not exact in a browser", evs[0].ID)
	}
}

func TestResume(t *testing.T) {
	h := NewHub(Options{Buffer: 4})
	first := subscribe(t, h, 1)
	h.Publish("a", []uint64{1}, 1)
	h.Publish("other", []uint64{2}, 2)
	h.Publish("b", nil, 3)
	evs := drain(first)
	if len(evs) != 2 {
		t.Fatalf("got %d events", len(evs))
	}
	start := evs[0].ID - 1
	tests := []struct {
		name       string
		last       uint64
		wantTypes  string
		wantResync bool
	}{
		{"from before the first", start, "a,b", false},
		{"from the first", evs[0].ID, "b", false},
		{"from the newest", evs[1].ID, "", false},
		{"from a future id (another run)", evs[1].ID + 100, "", true},
		{"from an id the ring lost", start - 10, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := h.Subscribe(Sub{UserID: 1, LastID: tt.last, Resume: true})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if got := types(s.Backlog); got != tt.wantTypes || s.Resync != tt.wantResync {
				t.Fatalf("backlog %q resync %v, want %q %v", got, s.Resync, tt.wantTypes, tt.wantResync)
			}
		})
	}
	// The ring holds 4: after 2 more events the first is gone.
	for range 2 {
		h.Publish("c", nil, 0)
	}
	s, err := h.Subscribe(Sub{UserID: 1, LastID: start, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.Resync || s.Backlog != nil {
		t.Fatalf("resumed past the ring: resync %v backlog %q", s.Resync, types(s.Backlog))
	}
	s2, err := h.Subscribe(Sub{UserID: 1, LastID: evs[0].ID, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if s2.Resync || types(s2.Backlog) != "b,c,c" {
		t.Fatalf("resumed within the ring: resync %v backlog %q", s2.Resync, types(s2.Backlog))
	}
}

func TestLimits(t *testing.T) {
	h := NewHub(Options{MaxStreamsPerUser: 2, MaxStreams: 3})
	a1, a2 := subscribe(t, h, 1), subscribe(t, h, 1)
	if _, err := h.Subscribe(Sub{UserID: 1}); !errors.Is(err, ErrTooManyForUser) || store.KindOf(err) != store.KindRateLimited {
		t.Fatalf("third stream of one user: %v", err)
	}
	subscribe(t, h, 2)
	if _, err := h.Subscribe(Sub{UserID: 3}); !errors.Is(err, ErrTooMany) {
		t.Fatalf("fourth stream: %v", err)
	}
	// Refusals leave the open streams working.
	h.Publish("x", []uint64{1}, 0)
	if len(drain(a1)) != 1 || len(drain(a2)) != 1 {
		t.Fatal("open streams lost an event after a refusal")
	}
	a1.Close()
	a1.Close()
	if h.Streams() != 2 {
		t.Fatalf("streams %d after a close", h.Streams())
	}
	subscribe(t, h, 3)
}

func TestSlowStreamDropped(t *testing.T) {
	h := NewHub(Options{Queue: 2})
	var drops atomic.Int32
	slow, err := h.Subscribe(Sub{UserID: 1, OnDrop: func() { drops.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	fast := subscribe(t, h, 2)
	for i := range 3 {
		h.Publish("x", nil, i)
		drain(fast)
	}
	select {
	case <-slow.Done():
	default:
		t.Fatal("a stream whose queue was full is still open")
	}
	if slow.Reason() != ReasonSlow || fast.Reason() != "" {
		t.Fatalf("reasons %q %q", slow.Reason(), fast.Reason())
	}
	if drops.Load() != 1 {
		t.Fatalf("OnDrop called %d times", drops.Load())
	}
	if h.IsOnline(1) || !h.IsOnline(2) || h.Streams() != 1 {
		t.Fatal("the dropped stream is still counted")
	}
	h.Publish("y", nil, 0)
	if len(drain(fast)) != 1 {
		t.Fatal("the fast stream missed an event")
	}
}

func TestPresenceAndClose(t *testing.T) {
	type change struct {
		id     uint64
		online bool
	}
	changes := make(chan change, 16)
	h := NewHub(Options{})
	h.WatchPresence(func(id uint64, online bool) { changes <- change{id, online} })
	h.WatchPresence(func(uint64, bool) { t.Error("a second WatchPresence took effect") })
	expect := func(want change) {
		t.Helper()
		select {
		case got := <-changes:
			if got != want {
				t.Fatalf("presence %+v, want %+v", got, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no presence change, want %+v", want)
		}
	}
	a1, _ := h.Subscribe(Sub{UserID: 1})
	expect(change{1, true})
	a2, _ := h.Subscribe(Sub{UserID: 1})
	b, _ := h.Subscribe(Sub{UserID: 2})
	expect(change{2, true}) // a second stream of user 1 is no change
	if got := h.Online(); len(got) != 2 {
		t.Fatalf("online %v", got)
	}
	a1.Close()
	a2.Close()
	expect(change{1, false}) // only once the last one closed
	h.Close()
	h.Close()
	expect(change{2, false})
	select {
	case <-b.Done():
	default:
		t.Fatal("Close left a stream open")
	}
	if b.Reason() != ReasonShutdown {
		t.Fatalf("reason %q", b.Reason())
	}
	if _, err := h.Subscribe(Sub{UserID: 3}); !errors.Is(err, ErrClosed) {
		t.Fatalf("subscribe after close: %v", err)
	}
	h.Publish("x", nil, 0) // no panic, nothing kept
}

func TestNilHubPublishesNothing(t *testing.T) {
	var h *Hub
	h.Publish("x", nil, 1)
	if h.Online() != nil || h.IsOnline(1) {
		t.Fatal("a nil hub has users online")
	}
}

func TestUnencodableDataNotSent(t *testing.T) {
	h := NewHub(Options{Log: slog.New(slog.DiscardHandler)})
	s := subscribe(t, h, 1)
	h.Publish("bad", nil, func() {})
	if len(drain(s)) != 0 {
		t.Fatal("an event that could not be encoded was sent")
	}
}

func TestConcurrentPublishSubscribe(t *testing.T) {
	h := NewHub(Options{Queue: 1024})
	var wg sync.WaitGroup
	for u := range 8 {
		wg.Go(func() {
			for range 50 {
				s, err := h.Subscribe(Sub{UserID: uint64(u)})
				if err != nil {
					t.Error(err)
					return
				}
				h.Publish("x", []uint64{uint64(u)}, u)
				<-s.C()
				s.Close()
			}
		})
	}
	wg.Wait()
	if h.Streams() != 0 || len(h.Online()) != 0 {
		t.Fatalf("streams left: %d", h.Streams())
	}
}
