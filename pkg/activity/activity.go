// Package activity keeps the site's activity log: small events the SPA sends
// (page_load, guest_visit, route_change, …) with the browser's client-info
// object, stamped with server time, client IP and user id.
//
// Anyone may write to the log, so every part of it is bounded: events are
// validated and size-capped as stored (not only as sent), each network is
// rate-limited (limiter.go) and so is everyone together (a crowd of
// addresses cannot push every real event out in a moment), and the store
// keeps at most MaxEvents events and MaxBytes bytes of them, dropping the
// oldest first. Keys are
// bbolt sequence ids, so the oldest events are always at the front of the
// bucket and retention costs one cursor step per append.
package activity

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/ratelimit"
	"github.com/devhub/devhub/pkg/internal/text"
	"github.com/devhub/devhub/pkg/store"
)

// Limits on what one event may carry. The HTTP route caps the whole body at
// MaxBodyBytes; the per-field caps keep a single event from filling that
// budget with one field and keep the stored records small.
const (
	// MaxBodyBytes is the largest request body POST /api/activity/log accepts.
	MaxBodyBytes = 16 << 10
	// MaxActionLen is the longest action name.
	MaxActionLen = 64
	// MaxDetailsBytes caps the compacted details object.
	MaxDetailsBytes = 8 << 10
	// maxShortString caps the short client-info strings (language, platform…).
	maxShortString = 128
	// maxLongString caps the user agent and the referrer.
	maxLongString = 1024
	// MaxStoredBytes caps one event as stored. The fields' caps keep a
	// normal event far below it; only strings full of characters JSON must
	// escape (control characters: six bytes each) could reach it.
	MaxStoredBytes = 16 << 10
)

// Defaults for options left at zero (config.Default has the same values).
const (
	DefaultMaxEvents           = 10000
	DefaultMaxBytes            = 32 << 20
	DefaultRatePerMinute       = 60
	DefaultGlobalRatePerMinute = 1200
)

const (
	bucketName = "activity"
	// metaBucket holds the running byte total of the stored events
	// (bytesKey), so retention by size costs no scan.
	metaBucket = "activity_meta"
)

var bytesKey = []byte("bytes")

// actionPattern keeps action names identifier-like, so they can be filtered
// and shown without escaping: a letter, then letters, digits, '_', '-', '.', ':'.
var actionPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.:-]*$`)

// Connection is the Network Information API's view of the link.
type Connection struct {
	EffectiveType string   `json:"effectiveType"`
	Downlink      *float64 `json:"downlink"`
	RTT           *float64 `json:"rtt"`
}

// ClientInfo is the browser description the SPA attaches to every event.
// Fields the browser does not know are null (pointers) or empty.
type ClientInfo struct {
	UserAgent           string      `json:"userAgent"`
	Language            string      `json:"language"`
	TimeZone            string      `json:"timeZone"`
	ScreenWidth         int         `json:"screenWidth"`
	ScreenHeight        int         `json:"screenHeight"`
	ColorDepth          int         `json:"colorDepth"`
	Referrer            string      `json:"referrer"`
	Platform            string      `json:"platform"`
	Vendor              string      `json:"vendor"`
	Connection          *Connection `json:"connection"`
	DeviceMemory        *float64    `json:"deviceMemory"`
	HardwareConcurrency *int        `json:"hardwareConcurrency"`
	DeviceType          string      `json:"deviceType"`
}

// Input is one event as a client sends it. Unknown JSON fields are ignored.
type Input struct {
	Action     string          `json:"action"`
	Details    json.RawMessage `json:"details"`
	Timestamp  json.RawMessage `json:"timestamp"`
	ClientInfo ClientInfo      `json:"clientInfo"`
}

// Meta is what the server knows about the request, not the client.
type Meta struct {
	IP     netip.Addr
	UserID uint64 // 0 when anonymous
}

// Event is one stored activity event.
type Event struct {
	ID              uint64          `json:"id"`
	Action          string          `json:"action"`
	Details         json.RawMessage `json:"details"`
	ClientInfo      ClientInfo      `json:"clientInfo"`
	ClientTimestamp *time.Time      `json:"clientTimestamp"`
	At              time.Time       `json:"at"`
	IP              string          `json:"ip"`
	UserID          uint64          `json:"userId"`
}

// Options configure a Service.
type Options struct {
	// MaxEvents is how many events are kept; older ones are dropped.
	MaxEvents int
	// MaxBytes bounds the stored events' total size; older ones are dropped.
	MaxBytes int64
	// RatePerMinute is how many events one client IP may log per minute.
	RatePerMinute int
	// GlobalRatePerMinute is how many events all clients together may log
	// per minute.
	GlobalRatePerMinute int
	// MaxTrackedIPs bounds the rate limiter's memory (0: DefaultMaxTrackedIPs).
	MaxTrackedIPs int
	// Now is the clock (tests); nil means time.Now.
	Now func() time.Time
}

// Service appends and queries activity events.
type Service struct {
	st       *store.Store
	max      uint64
	maxBytes int64
	now      func() time.Time
	limiter  *Limiter
	global   *ratelimit.Bucket

	mu      sync.Mutex
	pending []pendingAppend // events waiting for the next transaction
	writing bool            // a caller is writing batches
}

// New creates the service and its bucket.
func New(st *store.Store, o Options) (*Service, error) {
	// The config layer validates these; zero values (tests, partial configs)
	// get the documented defaults rather than an unbounded log.
	if o.MaxEvents <= 0 {
		o.MaxEvents = DefaultMaxEvents
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.RatePerMinute <= 0 {
		o.RatePerMinute = DefaultRatePerMinute
	}
	if o.GlobalRatePerMinute <= 0 {
		o.GlobalRatePerMinute = DefaultGlobalRatePerMinute
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if err := st.EnsureBuckets(bucketName, metaBucket); err != nil {
		return nil, err
	}
	// A store from before the byte total existed: count it once.
	if err := st.Update(func(tx *bolt.Tx) error {
		m := tx.Bucket([]byte(metaBucket))
		if m.Get(bytesKey) != nil {
			return nil
		}
		var total uint64
		if err := tx.Bucket([]byte(bucketName)).ForEach(func(_, v []byte) error {
			total += uint64(len(v))
			return nil
		}); err != nil {
			return err
		}
		return m.Put(bytesKey, store.Itob(total))
	}); err != nil {
		return nil, err
	}
	return &Service{
		st:       st,
		max:      uint64(o.MaxEvents),
		maxBytes: o.MaxBytes,
		now:      o.Now,
		limiter:  NewLimiter(o.RatePerMinute, time.Minute, o.MaxTrackedIPs, o.Now),
		global:   ratelimit.NewBucket(o.GlobalRatePerMinute, time.Minute, o.Now),
	}, nil
}

// Allow spends one event of ip's rate budget and one of the global budget.
// When either is spent it returns false and how long until the next event
// would be accepted.
func (s *Service) Allow(ip netip.Addr) (bool, time.Duration) {
	if ok, wait := s.limiter.Allow(ip); !ok {
		return false, wait
	}
	return s.global.Allow()
}

// Log validates in and appends it as a new event.
func (s *Service) Log(ctx context.Context, in Input, m Meta) (*Event, error) {
	ev, err := s.validate(in)
	if err != nil {
		return nil, err
	}
	ev.At = s.now().UTC()
	if m.IP.IsValid() {
		ev.IP = m.IP.Unmap().String()
	}
	ev.UserID = m.UserID
	raw, err := store.MarshalJSON(ev)
	if err != nil {
		return nil, err
	}
	if len(raw) > MaxStoredBytes {
		var v store.Validator
		v.Add("event", "too_large", fmt.Sprintf("the event must be at most %d bytes as stored", MaxStoredBytes))
		return nil, v.Err()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := s.append(ev); err != nil {
		return nil, fmt.Errorf("activity: append: %w", err)
	}
	return ev, nil
}

// pendingAppend is one event waiting for the group commit.
type pendingAppend struct {
	ev   *Event
	done chan error
}

// append stores ev before returning (a 204 means the event is on disk), with
// group commit: the first caller writes at once; callers that arrive while a
// transaction is being written queue up, and that same writer then stores
// all of them in one transaction and one fsync. A lone visitor waits for one
// write, a crowd shares writes. (bbolt's DB.Batch gets the sharing by always
// waiting up to 10 ms for company; this needs no wait.)
func (s *Service) append(ev *Event) error {
	p := pendingAppend{ev: ev, done: make(chan error, 1)}
	s.mu.Lock()
	s.pending = append(s.pending, p)
	if s.writing {
		s.mu.Unlock()
		return <-p.done
	}
	s.writing = true
	for len(s.pending) > 0 {
		batch := s.pending
		s.pending = nil
		s.mu.Unlock()
		err := s.writeBatchRecovered(batch)
		for _, q := range batch {
			q.done <- err
		}
		s.mu.Lock()
	}
	s.writing = false
	s.mu.Unlock()
	return <-p.done
}

// writeBatchRecovered is writeBatch with a panic turned into the batch's
// error: the writer must always clear `writing`, or every later append
// would queue behind a writer that is gone.
func (s *Service) writeBatchRecovered(batch []pendingAppend) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("activity: write panicked: %v", r)
		}
	}()
	return s.writeBatch(batch)
}

// writeBatch appends the events in one transaction and trims once.
func (s *Service) writeBatch(batch []pendingAppend) error {
	return s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketName))
		m := tx.Bucket([]byte(metaBucket))
		total := int64(store.Btoi(m.Get(bytesKey)))
		var id uint64
		for _, p := range batch {
			var err error
			if id, err = b.NextSequence(); err != nil {
				return err
			}
			p.ev.ID = id
			raw, err := store.MarshalJSON(p.ev)
			if err != nil {
				return err
			}
			if err := b.Put(store.Itob(id), raw); err != nil {
				return err
			}
			total += int64(len(raw))
		}
		total, err := s.trim(b, id, total)
		if err != nil {
			return err
		}
		return m.Put(bytesKey, store.Itob(uint64(total)))
	})
}

// trim drops the oldest events so that, after the event with id newest was
// written, at most s.max remain and they hold at most s.maxBytes; total is
// their size before trimming, the size after is returned. Ids are gap-free
// sequence numbers and only the front is ever deleted, so by count
// everything below newest-max+1 goes. In steady state that is one key;
// after max_events or max_bytes is lowered it is a batch.
func (s *Service) trim(b *bolt.Bucket, newest uint64, total int64) (int64, error) {
	var cutoff []byte
	if newest > s.max {
		cutoff = store.Itob(newest - s.max + 1)
	}
	c := b.Cursor()
	// Collect first: deleting while stepping a bbolt cursor can skip keys.
	var doomed [][]byte
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if (cutoff == nil || bytes.Compare(k, cutoff) >= 0) && total <= s.maxBytes {
			break
		}
		doomed = append(doomed, append([]byte(nil), k...))
		total -= int64(len(v))
	}
	for _, k := range doomed {
		if err := b.Delete(k); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// Filter selects events for List.
type Filter struct {
	// Action keeps only events with this action ("" = all).
	Action string
	// Limit is the most events returned, newest first (0 = all).
	Limit int
}

// List returns the matching events, newest first.
func (s *Service) List(ctx context.Context, f Filter) ([]Event, error) {
	out := []Event{}
	err := s.st.View(func(tx *bolt.Tx) error {
		c := tx.Bucket([]byte(bucketName)).Cursor()
		for k, raw := c.Last(); k != nil; k, raw = c.Prev() {
			if err := ctx.Err(); err != nil {
				return err
			}
			var ev Event
			if err := json.Unmarshal(raw, &ev); err != nil {
				return fmt.Errorf("activity: decode event %d: %w", store.Btoi(k), err)
			}
			if f.Action != "" && ev.Action != f.Action {
				continue
			}
			out = append(out, ev)
			if f.Limit > 0 && len(out) >= f.Limit {
				break
			}
		}
		return nil
	})
	return out, err
}

// Count is the number of stored events.
func (s *Service) Count() (int, error) {
	n := 0
	err := s.st.View(func(tx *bolt.Tx) error {
		n = tx.Bucket([]byte(bucketName)).Stats().KeyN
		return nil
	})
	return n, err
}

// validate checks in and builds the event to store. Bad input is a
// *store.ValidationError naming each offending field.
func (s *Service) validate(in Input) (*Event, error) {
	var v store.Validator
	action := strings.TrimSpace(in.Action)
	switch {
	case action == "":
		v.Add("action", "required", "action is required")
	case len(action) > MaxActionLen:
		v.Add("action", "too_long", fmt.Sprintf("action must be at most %d characters", MaxActionLen))
	case !actionPattern.MatchString(action):
		v.Add("action", "invalid", "action must start with a letter and contain only letters, digits, '_', '-', '.' or ':'")
	}

	details, derr := normalizeDetails(in.Details)
	if derr != nil {
		v.Add("details", derr.code, derr.msg)
	}

	var ts *time.Time
	if t, ok, err := parseTimestamp(in.Timestamp); err != nil {
		v.Add("timestamp", "invalid", err.Error())
	} else if ok {
		ts = &t
	}

	ci := in.ClientInfo
	switch ci.DeviceType {
	case "", "mobile", "tablet", "desktop":
	default:
		v.Add("clientInfo.deviceType", "invalid", "deviceType must be mobile, tablet or desktop")
	}
	for name, n := range map[string]int{"screenWidth": ci.ScreenWidth, "screenHeight": ci.ScreenHeight, "colorDepth": ci.ColorDepth} {
		if n < 0 || n > 1<<20 {
			v.Add("clientInfo."+name, "invalid", name+" is out of range")
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}

	// Browser-provided strings are kept, but cut to size: losing the tail of
	// a huge user agent is better than losing the event.
	ci.UserAgent = text.Truncate(ci.UserAgent, maxLongString)
	ci.Referrer = text.Truncate(ci.Referrer, maxLongString)
	ci.Language = text.Truncate(ci.Language, maxShortString)
	ci.TimeZone = text.Truncate(ci.TimeZone, maxShortString)
	ci.Platform = text.Truncate(ci.Platform, maxShortString)
	ci.Vendor = text.Truncate(ci.Vendor, maxShortString)
	if ci.Connection != nil {
		c := *ci.Connection
		c.EffectiveType = text.Truncate(c.EffectiveType, maxShortString)
		ci.Connection = &c
	}
	return &Event{Action: action, Details: details, ClientInfo: ci, ClientTimestamp: ts}, nil
}

type fieldProblem struct{ code, msg string }

// normalizeDetails accepts a JSON object (or nothing/null, stored as {}) and
// compacts it; anything else, or an object over MaxDetailsBytes, is refused.
func normalizeDetails(raw json.RawMessage) (json.RawMessage, *fieldProblem) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return json.RawMessage(`{}`), nil
	}
	if trimmed[0] != '{' {
		return nil, &fieldProblem{"invalid", "details must be a JSON object"}
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, trimmed); err != nil {
		return nil, &fieldProblem{"invalid", "details must be a JSON object"}
	}
	if buf.Len() > MaxDetailsBytes {
		return nil, &fieldProblem{"too_long", fmt.Sprintf("details must be at most %d bytes", MaxDetailsBytes)}
	}
	return json.RawMessage(buf.Bytes()), nil
}

// parseTimestamp reads the client's timestamp: an RFC 3339 string (what
// Date.toISOString gives) or a number of milliseconds since the epoch
// (Date.now). Absent, null or "" means the client sent none.
func parseTimestamp(raw json.RawMessage) (time.Time, bool, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) || bytes.Equal(trimmed, []byte(`""`)) {
		return time.Time{}, false, nil
	}
	if trimmed[0] == '"' {
		var s string
		if err := json.Unmarshal(trimmed, &s); err != nil {
			return time.Time{}, false, fmt.Errorf("timestamp must be an RFC 3339 date-time")
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return time.Time{}, false, fmt.Errorf("timestamp must be an RFC 3339 date-time")
		}
		return t.UTC(), true, nil
	}
	ms, err := strconv.ParseFloat(string(trimmed), 64)
	if err != nil || ms < 0 || ms > 1e15 {
		return time.Time{}, false, fmt.Errorf("timestamp must be an RFC 3339 date-time or epoch milliseconds")
	}
	return time.UnixMilli(int64(ms)).UTC(), true, nil
}
