// Package events fans live events out to the open event streams of
// signed-in users (GET /api/events).
//
// Publish gives an event the next id, keeps it in a bounded ring of recent
// events and hands it to every open stream of the users it is addressed to
// (or of every signed-in user when it is addressed to nobody in particular).
// A stream that does not take its events as fast as they come is dropped,
// never waited for: its queue is small and fixed, and when it is full the
// hub forgets the stream and closes its Done channel, so the writer can
// close the connection and free what it held.
//
// A client that reconnects names the last id it saw; Subscribe then replays
// the events after it that were addressed to the user, from the ring. When
// the ring no longer reaches back that far (or the id is from an earlier run
// of the server) the stream starts with Resync set and the client reloads
// what it shows instead.
//
// Ids start at the server's start time in microseconds, so an id from an
// earlier run is always older than the ring and never mistaken for a recent
// one; they stay below 2^53, so a browser reads them exactly.
package events

import (
	"encoding/json"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/devhub/devhub/pkg/store"
)

// Event is one live event as streams receive it.
type Event struct {
	ID   uint64
	Type string // "chat.message", "notification", …
	Data json.RawMessage
	// to are the addressees; nil is every signed-in user.
	to []uint64
	// frame is the event encoded once for every stream (Frame).
	frame []byte
}

// Frame is the event in the text/event-stream format: its id, type and data
// lines and the blank line that ends it.
func (e Event) Frame() []byte {
	if e.frame != nil {
		return e.frame
	}
	return encodeFrame(e.ID, e.Type, e.Data)
}

func encodeFrame(id uint64, typ string, data []byte) []byte {
	b := make([]byte, 0, len(typ)+len(data)+40)
	b = append(b, "id: "...)
	b = strconv.AppendUint(b, id, 10)
	b = append(b, "\nevent: "...)
	b = append(b, typ...)
	b = append(b, "\ndata: "...)
	b = append(b, data...)
	return append(b, "\n\n"...)
}

// addressedTo reports whether user may receive the event.
func (e *Event) addressedTo(user uint64) bool {
	if e.to == nil {
		return true
	}
	for _, id := range e.to {
		if id == user {
			return true
		}
	}
	return false
}

// Options configure a Hub; a zero field takes its default.
type Options struct {
	// Buffer is how many recent events are kept for resuming (1024).
	Buffer int
	// Queue is how many events may wait for one stream's writer before the
	// stream counts as too slow and is dropped (64).
	Queue int
	// MaxStreamsPerUser bounds one account's open streams (16).
	MaxStreamsPerUser int
	// MaxStreams bounds all open streams together (10000).
	MaxStreams int
	// Log receives a note about events that could not be encoded; nil is
	// slog.Default.
	Log *slog.Logger
}

// Defaults for Options left at zero.
const (
	DefaultBuffer            = 1024
	DefaultQueue             = 64
	DefaultMaxStreamsPerUser = 16
	DefaultMaxStreams        = 10000
)

// Why a stream ended on the hub's side (Stream.Reason).
const (
	// ReasonSlow: the stream's queue was full; the client was too slow.
	ReasonSlow = "slow"
	// ReasonShutdown: the hub was closed (the server is stopping).
	ReasonShutdown = "shutdown"
)

// Hub fans events out to streams. Its methods are safe for concurrent use;
// a nil *Hub publishes nothing.
type Hub struct {
	opts Options

	mu      sync.Mutex
	nextID  uint64
	ring    []Event // circular, len == opts.Buffer once full
	head    int     // index of the oldest event when the ring is full
	streams map[uint64]map[*Stream]struct{}
	total   int
	closed  bool

	// onPresence is WatchPresence's fn; presenceQ are the users whose
	// presence changed, for the goroutine that calls it; presenceWake wakes
	// it and presenceStop ends it.
	presenceMu   sync.Mutex
	onPresence   func(userID uint64, online bool)
	presenceQ    []uint64
	presenceWake chan struct{}
	presenceStop chan struct{}
}

// NewHub builds a hub.
func NewHub(opts Options) *Hub {
	if opts.Buffer <= 0 {
		opts.Buffer = DefaultBuffer
	}
	if opts.Queue <= 0 {
		opts.Queue = DefaultQueue
	}
	if opts.MaxStreamsPerUser <= 0 {
		opts.MaxStreamsPerUser = DefaultMaxStreamsPerUser
	}
	if opts.MaxStreams <= 0 {
		opts.MaxStreams = DefaultMaxStreams
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	return &Hub{opts: opts, nextID: uint64(time.Now().UnixMicro()),
		ring: make([]Event, 0, opts.Buffer), streams: map[uint64]map[*Stream]struct{}{},
		presenceWake: make(chan struct{}, 1), presenceStop: make(chan struct{})}
}

// WatchPresence has fn called after a user's first stream opened or their
// last one ended, with whether the user is online at the time of the call.
// Calls come one at a time from a goroutine of the hub's own (so fn may
// Publish), the last call for a user always tells their current state, and
// the same state may be told twice. Only the first call has an effect.
func (h *Hub) WatchPresence(fn func(userID uint64, online bool)) {
	h.presenceMu.Lock()
	defer h.presenceMu.Unlock()
	if h.onPresence != nil {
		return
	}
	h.onPresence = fn
	go h.presenceLoop()
}

// Publish sends an event to the streams of the given users; to == nil means
// every signed-in user, an empty non-nil to nobody. data is encoded as JSON
// once; an event whose data cannot be encoded is logged and not sent.
func (h *Hub) Publish(typ string, to []uint64, data any) {
	if h == nil {
		return
	}
	raw, err := json.Marshal(data)
	if err != nil {
		h.opts.Log.Error("events: encode event", slog.String("type", typ), slog.Any("err", err))
		return
	}
	if to != nil {
		to = append(make([]uint64, 0, len(to)), to...)
	}
	var offline []uint64
	var dropped []*Stream
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.nextID++
	ev := Event{ID: h.nextID, Type: typ, Data: raw, to: to}
	ev.frame = encodeFrame(ev.ID, typ, raw)
	if len(h.ring) < h.opts.Buffer {
		h.ring = append(h.ring, ev)
	} else {
		h.ring[h.head] = ev
		h.head = (h.head + 1) % len(h.ring)
	}
	shared := &ev
	deliver := func(user uint64, set map[*Stream]struct{}) {
		for s := range set {
			select {
			case s.ch <- shared:
			default:
				dropped = append(dropped, s)
				if h.removeLocked(s, ReasonSlow) {
					offline = append(offline, user)
				}
			}
		}
	}
	if to == nil {
		for user, set := range h.streams {
			deliver(user, set)
		}
	} else {
		for _, user := range to {
			if set := h.streams[user]; set != nil {
				deliver(user, set)
			}
		}
	}
	h.mu.Unlock()
	for _, s := range dropped {
		if s.onDrop != nil {
			s.onDrop()
		}
	}
	for _, user := range offline {
		h.presence(user)
	}
}

// Stream is one open event stream of a user. The writer reads C until Done
// is closed (the hub dropped the stream) or its client goes away, then
// calls Close.
type Stream struct {
	// UserID is whose stream it is.
	UserID uint64
	// Backlog are the events after the resumed-from id addressed to the
	// user, oldest first, to be written before anything from C.
	Backlog []Event
	// Resync is set when the resumed-from id is older than the events kept:
	// some events may be missed and the client should reload its state.
	Resync bool

	h      *Hub
	ch     chan *Event // shared between streams: read only
	done   chan struct{}
	reason string // set before done is closed
	onDrop func()
}

// C delivers the stream's events; an *Event is shared by every stream it
// goes to and must not be changed.
func (s *Stream) C() <-chan *Event { return s.ch }

// Done is closed when the hub ended the stream (Reason says why).
func (s *Stream) Done() <-chan struct{} { return s.done }

// Reason is why the hub ended the stream (ReasonSlow, ReasonShutdown), or
// "" while it has not.
func (s *Stream) Reason() string {
	select {
	case <-s.done:
		return s.reason
	default:
		return ""
	}
}

// Close ends the stream (the client went away); it is safe to call more
// than once and after the hub ended the stream.
func (s *Stream) Close() {
	h := s.h
	h.mu.Lock()
	gone := h.removeLocked(s, "")
	h.mu.Unlock()
	if gone {
		h.presence(s.UserID)
	}
}

// Errors Subscribe returns: both are refusals of kind RateLimited, which
// the HTTP layer answers with 429; open streams are unharmed.
var (
	ErrTooManyForUser = &store.Refusal{Kind: store.KindRateLimited,
		Message: "too many open event streams for this account; close a tab or try again later", RetryAfter: 30 * time.Second}
	ErrTooMany = &store.Refusal{Kind: store.KindRateLimited,
		Message: "the server has too many open event streams; try again later", RetryAfter: 30 * time.Second}
	ErrClosed = &store.Refusal{Kind: store.KindRateLimited,
		Message: "the server is stopping; try again in a moment", RetryAfter: 5 * time.Second}
)

// Sub asks for a stream.
type Sub struct {
	UserID uint64
	// Resume is set when the client names LastID, the last event id it saw.
	Resume bool
	LastID uint64
	// OnDrop, when set, is called (outside the hub's lock, once) when the
	// hub drops the stream as too slow; the writer may be stuck writing to
	// a client that does not read, and OnDrop is where its connection is
	// closed so that the writer ends and frees what it holds.
	OnDrop func()
}

// Subscribe opens a stream for sub.UserID. When resuming, the stream's
// Backlog holds the events after sub.LastID addressed to the user, or
// Resync is set when they are no longer all kept.
func (h *Hub) Subscribe(sub Sub) (*Stream, error) {
	userID := sub.UserID
	h.mu.Lock()
	switch {
	case h.closed:
		h.mu.Unlock()
		return nil, ErrClosed
	case len(h.streams[userID]) >= h.opts.MaxStreamsPerUser:
		h.mu.Unlock()
		return nil, ErrTooManyForUser
	case h.total >= h.opts.MaxStreams:
		h.mu.Unlock()
		return nil, ErrTooMany
	}
	s := &Stream{UserID: userID, h: h, ch: make(chan *Event, h.opts.Queue), done: make(chan struct{}), onDrop: sub.OnDrop}
	if sub.Resume {
		s.Backlog, s.Resync = h.sinceLocked(userID, sub.LastID)
	}
	set := h.streams[userID]
	first := set == nil
	if first {
		set = map[*Stream]struct{}{}
		h.streams[userID] = set
	}
	set[s] = struct{}{}
	h.total++
	h.mu.Unlock()
	if first {
		h.presence(userID)
	}
	return s, nil
}

// sinceLocked returns the kept events after lastID addressed to user, and
// whether events after lastID may have been lost (lastID older than the
// ring, or not one this run of the hub gave out).
func (h *Hub) sinceLocked(user, lastID uint64) ([]Event, bool) {
	if lastID > h.nextID {
		return nil, true
	}
	n := len(h.ring)
	oldest := h.nextID - uint64(n) + 1 // id of the oldest kept event
	if lastID+1 < oldest {
		return nil, true
	}
	var out []Event
	for i := 0; i < n; i++ {
		ev := &h.ring[(h.head+i)%n]
		if ev.ID > lastID && ev.addressedTo(user) {
			out = append(out, *ev)
		}
	}
	return out, false
}

// removeLocked forgets s; with a reason it also closes s.Done. It reports
// whether s was the user's last stream (the user went offline).
func (h *Hub) removeLocked(s *Stream, reason string) bool {
	set := h.streams[s.UserID]
	if _, ok := set[s]; !ok {
		return false
	}
	delete(set, s)
	h.total--
	if reason != "" {
		s.reason = reason
		close(s.done)
	}
	if len(set) == 0 {
		delete(h.streams, s.UserID)
		return true
	}
	return false
}

// presence queues a presence change of user for OnPresence.
func (h *Hub) presence(user uint64) {
	h.presenceMu.Lock()
	if h.onPresence == nil {
		h.presenceMu.Unlock()
		return
	}
	h.presenceQ = append(h.presenceQ, user)
	h.presenceMu.Unlock()
	select {
	case h.presenceWake <- struct{}{}:
	default:
	}
}

// presenceLoop calls OnPresence for the queued changes until the hub is
// closed and the queue is empty.
func (h *Hub) presenceLoop() {
	for {
		stopping := false
		select {
		case <-h.presenceWake:
		case <-h.presenceStop:
			stopping = true
		}
		h.presenceMu.Lock()
		q, fn := h.presenceQ, h.onPresence
		h.presenceQ = nil
		h.presenceMu.Unlock()
		for _, user := range q {
			fn(user, h.IsOnline(user))
		}
		if stopping {
			return
		}
	}
}

// Online lists the users with at least one open stream, in no order.
func (h *Hub) Online() []uint64 {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]uint64, 0, len(h.streams))
	for id := range h.streams {
		out = append(out, id)
	}
	return out
}

// IsOnline reports whether user has an open stream.
func (h *Hub) IsOnline(user uint64) bool {
	if h == nil {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.streams[user]) > 0
}

// Streams is the number of open streams.
func (h *Hub) Streams() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.total
}

// Close ends every stream with ReasonShutdown and refuses new ones; later
// Publish calls do nothing. It is safe to call more than once.
func (h *Hub) Close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	var users []uint64
	for user, set := range h.streams {
		for s := range set {
			h.removeLocked(s, ReasonShutdown)
		}
		users = append(users, user)
	}
	h.mu.Unlock()
	for _, user := range users {
		h.presence(user)
	}
	close(h.presenceStop)
}
