// Package quota bounds what one account may store: bytes and files, with
// defaults from the configuration and overrides per user kept in bbolt.
//
// It counts nothing itself. Each area that stores bytes for a user (the file
// cloud, the games' save states) registers a Meter, and the quota of a user
// is checked against the sum of every meter. Admins are unlimited unless an
// override says otherwise; the owner on the CLI (user id 0) is never limited.
//
// Checking and committing must happen as one step, or two uploads finishing
// together could both fit alone and overshoot together: Within runs the
// caller's commit under the service's lock after checking the figures.
package quota

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
)

const bucketName = "quotas"

// Amount is what a user stores, or is about to.
type Amount struct {
	Bytes int64 `json:"bytes"`
	Files int64 `json:"files"`
}

// Add sums two amounts.
func (a Amount) Add(b Amount) Amount {
	return Amount{Bytes: a.Bytes + b.Bytes, Files: a.Files + b.Files}
}

// Limit is a user's effective quota; a nil field is unlimited.
type Limit struct {
	Bytes *int64 `json:"bytes"`
	Files *int64 `json:"files"`
}

// Allows reports whether storing amount stays within l.
func (l Limit) Allows(a Amount) bool {
	return (l.Bytes == nil || a.Bytes <= *l.Bytes) && (l.Files == nil || a.Files <= *l.Files)
}

// Report is what GET /api/auth/quota and `devhub user quota --json` show.
type Report struct {
	Used  Amount `json:"used"`
	Limit Limit  `json:"limit"`
}

// Override is a per-user setting. A nil field falls back to the default;
// Unlimited (a negative value) lifts the limit.
type Override struct {
	Bytes *int64 `json:"bytes,omitempty"`
	Files *int64 `json:"files,omitempty"`
}

// Unlimited is the stored value of an override without a limit.
const Unlimited int64 = -1

// ErrExceeded is wrapped by every *ExceededError.
var ErrExceeded = errors.New("storage quota exceeded")

// ExceededError says what a refused write would have brought the user to.
type ExceededError struct {
	Used  Amount // stored before the refused write
	Limit Limit
}

func (e *ExceededError) Error() string { return ErrExceeded.Error() }
func (e *ExceededError) Unwrap() error { return ErrExceeded }

// Meter reports what one area stores for a user.
type Meter func(userID uint64) Amount

// Service is the quota of every account.
type Service struct {
	st       *store.Store
	defaults Limit
	isAdmin  func(userID uint64) bool

	mu     sync.Mutex // serialises Within
	meters []Meter
}

// New opens the overrides bucket. defaults is the limit of a user without
// an override (from files.quota_bytes and files.quota_files; zero there
// means unlimited); isAdmin tells admins, who are unlimited by default.
func New(st *store.Store, defaults Amount, isAdmin func(userID uint64) bool) (*Service, error) {
	if err := st.EnsureBuckets(bucketName); err != nil {
		return nil, err
	}
	if isAdmin == nil {
		isAdmin = func(uint64) bool { return false }
	}
	var d Limit
	if defaults.Bytes > 0 {
		d.Bytes = &defaults.Bytes
	}
	if defaults.Files > 0 {
		d.Files = &defaults.Files
	}
	return &Service{st: st, defaults: d, isAdmin: isAdmin}, nil
}

// AddMeter counts one more area towards every user's usage.
func (s *Service) AddMeter(m Meter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.meters = append(s.meters, m)
}

// Usage is what a user stores now, over every meter.
func (s *Service) Usage(userID uint64) Amount {
	s.mu.Lock()
	meters := s.meters
	s.mu.Unlock()
	return usage(meters, userID)
}

func usage(meters []Meter, userID uint64) Amount {
	var a Amount
	for _, m := range meters {
		a = a.Add(m(userID))
	}
	return a
}

// Override is a user's stored override (zero when none).
func (s *Service) Override(userID uint64) (Override, error) {
	var o Override
	err := s.st.View(func(tx *bolt.Tx) error {
		err := store.GetJSON(tx.Bucket([]byte(bucketName)), store.Itob(userID), &o)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		return err
	})
	return o, err
}

// SetOverride stores a user's override; an override with both fields nil
// removes it, so the defaults apply again. It gives up before the
// transaction once ctx is done.
func (s *Service) SetOverride(ctx context.Context, userID uint64, o Override) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketName))
		if o.Bytes == nil && o.Files == nil {
			return b.Delete(store.Itob(userID))
		}
		return store.PutJSON(b, store.Itob(userID), o)
	})
}

// Limit is a user's effective quota.
func (s *Service) Limit(userID uint64) (Limit, error) {
	if userID == 0 {
		return Limit{}, nil
	}
	o, err := s.Override(userID)
	if err != nil {
		return Limit{}, err
	}
	l := s.defaults
	if s.isAdmin(userID) {
		l = Limit{}
	}
	l.Bytes = apply(l.Bytes, o.Bytes)
	l.Files = apply(l.Files, o.Files)
	return l, nil
}

func apply(def, override *int64) *int64 {
	switch {
	case override == nil:
		return def
	case *override < 0:
		return nil
	default:
		v := *override
		return &v
	}
}

// Report is a user's usage beside their limit.
func (s *Service) Report(userID uint64) (Report, error) {
	l, err := s.Limit(userID)
	if err != nil {
		return Report{}, err
	}
	return Report{Used: s.Usage(userID), Limit: l}, nil
}

// Room is how much more a user may store now; nil fields are unlimited.
// Streams use it to stop early; Within is still the final word.
func (s *Service) Room(userID uint64) (Limit, error) {
	r, err := s.Report(userID)
	if err != nil {
		return Limit{}, err
	}
	room := Limit{}
	if r.Limit.Bytes != nil {
		v := max(0, *r.Limit.Bytes-r.Used.Bytes)
		room.Bytes = &v
	}
	if r.Limit.Files != nil {
		v := max(0, *r.Limit.Files-r.Used.Files)
		room.Files = &v
	}
	return room, nil
}

// Check returns an *ExceededError if adding add to what userID stores would
// go over their quota.
func (s *Service) Check(userID uint64, add Amount) error {
	r, err := s.Report(userID)
	if err != nil {
		return err
	}
	if !r.Limit.Allows(r.Used.Add(add)) {
		return &ExceededError{Used: r.Used, Limit: r.Limit}
	}
	return nil
}

// Within checks add against userID's quota and, if it fits, runs commit
// while no other Within runs, so the usage commit changes is never raced.
// commit must make the new bytes count in the meters before it returns.
func (s *Service) Within(userID uint64, add Amount, commit func() error) error {
	l, err := s.Limit(userID)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if used := usage(s.meters, userID); !l.Allows(used.Add(add)) {
		return &ExceededError{Used: used, Limit: l}
	}
	return commit()
}

// ParseBytes reads a size the way people write one: "10GiB", "500MB",
// "1.5G", "1048576"; "unlimited" is Unlimited. Units: B, K/KB/KiB, M/MB/MiB,
// G/GB/GiB, T/TB/TiB — decimal for KB/MB/…, binary for KiB/MiB/… and the
// bare letters.
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if strings.EqualFold(t, "unlimited") {
		return Unlimited, nil
	}
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || num == "" {
		return 0, fmt.Errorf("%q is not a size (say 10GiB, 500MB, 1048576 or unlimited)", s)
	}
	mult := map[string]float64{
		"": 1, "b": 1,
		"k": 1 << 10, "kib": 1 << 10, "kb": 1e3,
		"m": 1 << 20, "mib": 1 << 20, "mb": 1e6,
		"g": 1 << 30, "gib": 1 << 30, "gb": 1e9,
		"t": 1 << 40, "tib": 1 << 40, "tb": 1e12,
	}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("%q has an unknown unit %q (use B, KiB, MiB, GiB, TiB, KB, MB, GB or TB)", s, t[i:])
	}
	n := v * mult
	if n > 1<<62 {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return int64(n), nil
}
