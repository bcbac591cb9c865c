package mail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
)

const bucket = "mail_queue"

// MaxAge is how long a message that keeps failing stays queued; then it is
// dropped and the drop logged.
const MaxAge = 7 * 24 * time.Hour

// StaleAfter is how long the oldest queued message may wait before the
// queue reports itself unhealthy (the readiness check).
const StaleAfter = 15 * time.Minute

// Backoff is the wait after a message's n-th failed delivery: 30 s, 1 min,
// 2 min, … doubling up to an hour.
func Backoff(n int) time.Duration {
	d := 30 * time.Second
	for i := 1; i < n && d < time.Hour; i++ {
		d *= 2
	}
	return min(d, time.Hour)
}

// queued is a message as the store keeps it.
type queued struct {
	Message
	QueuedAt  time.Time `json:"queuedAt"`
	Attempts  int       `json:"attempts"`
	NextAt    time.Time `json:"nextAt"`
	LastError string    `json:"lastError,omitempty"`
}

// Queue keeps messages in the store until the mail server took them.
type Queue struct {
	st     *store.Store
	sender Sender
	log    *slog.Logger
	// backoff is the wait after the n-th failure (Backoff; tests shorten it).
	backoff func(n int) time.Duration
	wake    chan struct{}

	mu        sync.Mutex
	lastError string
	lastErrAt time.Time
}

// NewQueue opens the queue in st; sender delivers (nil: messages wait).
func NewQueue(st *store.Store, sender Sender, log *slog.Logger) (*Queue, error) {
	if err := st.EnsureBuckets(bucket); err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.Default()
	}
	return &Queue{st: st, sender: sender, log: log, backoff: Backoff, wake: make(chan struct{}, 1)}, nil
}

// SetBackoff replaces the wait between attempts (tests).
func (q *Queue) SetBackoff(f func(n int) time.Duration) { q.backoff = f }

// Enqueue stores m for delivery and wakes the worker. The message is safe
// once Enqueue returned, whatever the mail server does.
func (q *Queue) Enqueue(ctx context.Context, m Message) error {
	if _, err := mail.ParseAddress(m.To); err != nil {
		return store.Invalid("to", "invalid", "not an e-mail address")
	}
	if m.Subject == "" || m.Text == "" {
		return errors.New("mail: a message needs a subject and a text")
	}
	now := time.Now().UTC()
	err := q.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucket))
		id, err := b.NextSequence()
		if err != nil {
			return err
		}
		return store.PutJSON(b, store.Itob(id), queued{Message: m, QueuedAt: now, NextAt: now})
	})
	if err != nil {
		return fmt.Errorf("mail: queue: %w", err)
	}
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return nil
}

// Start runs the worker until ctx ends.
func (q *Queue) Start(ctx context.Context) {
	go func() {
		for {
			next := q.deliverDue(ctx)
			wait := time.Hour
			if !next.IsZero() {
				wait = max(time.Until(next), 0)
			}
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-q.wake:
				t.Stop()
			case <-t.C:
			}
		}
	}()
}

// deliverDue tries every message whose time has come and returns when the
// next one is due (zero: the queue is empty).
func (q *Queue) deliverDue(ctx context.Context) time.Time {
	type item struct {
		key []byte
		m   queued
	}
	var due []item
	var next time.Time
	now := time.Now()
	q.st.View(func(tx *bolt.Tx) error {
		return store.ForEachJSON(tx.Bucket([]byte(bucket)), func(k []byte, m *queued) error {
			if !m.NextAt.After(now) {
				due = append(due, item{append([]byte(nil), k...), *m})
			} else if next.IsZero() || m.NextAt.Before(next) {
				next = m.NextAt
			}
			return nil
		})
	})
	for _, it := range due {
		if ctx.Err() != nil {
			return time.Time{}
		}
		err := q.send(ctx, it.m.Message)
		if err == nil {
			q.update(it.key, nil)
			continue
		}
		it.m.Attempts++
		it.m.LastError = err.Error()
		q.mu.Lock()
		q.lastError, q.lastErrAt = err.Error(), time.Now()
		q.mu.Unlock()
		if time.Since(it.m.QueuedAt) > MaxAge {
			q.log.Error("mail dropped after failing for too long", slog.String("to", it.m.To),
				slog.String("subject", it.m.Subject), slog.Int("attempts", it.m.Attempts), slog.Any("err", err))
			q.update(it.key, nil)
			continue
		}
		it.m.NextAt = time.Now().Add(q.backoff(it.m.Attempts)).UTC()
		q.log.Warn("mail not delivered; will retry", slog.String("to", it.m.To), slog.Int("attempts", it.m.Attempts),
			slog.Time("next", it.m.NextAt), slog.Any("err", err))
		q.update(it.key, &it.m)
		if next.IsZero() || it.m.NextAt.Before(next) {
			next = it.m.NextAt
		}
	}
	return next
}

func (q *Queue) send(ctx context.Context, m Message) (err error) {
	if q.sender == nil {
		return errors.New("mail is off")
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, sendTimeout+5*time.Second)
	defer cancel()
	return q.sender.Send(ctx, m)
}

// update rewrites a queued message, or deletes it (m nil).
func (q *Queue) update(key []byte, m *queued) {
	err := q.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucket))
		if m == nil {
			return b.Delete(key)
		}
		return store.PutJSON(b, key, m)
	})
	if err != nil {
		q.log.Error("mail queue", slog.Any("err", err))
	}
}

// State is what the queue holds now.
type State struct {
	// Pending is how many messages wait for delivery.
	Pending int `json:"pending"`
	// Oldest is when the oldest of them was queued (zero when none).
	Oldest time.Time `json:"oldest,omitzero"`
	// LastError is the last delivery failure's message, and when.
	LastError   string    `json:"lastError,omitempty"`
	LastErrorAt time.Time `json:"lastErrorAt,omitzero"`
}

// State reads the queue.
func (q *Queue) State() State {
	var s State
	q.st.View(func(tx *bolt.Tx) error {
		return store.ForEachJSON(tx.Bucket([]byte(bucket)), func(_ []byte, m *queued) error {
			s.Pending++
			if s.Oldest.IsZero() || m.QueuedAt.Before(s.Oldest) {
				s.Oldest = m.QueuedAt
			}
			return nil
		})
	})
	q.mu.Lock()
	s.LastError, s.LastErrorAt = q.lastError, q.lastErrAt
	q.mu.Unlock()
	return s
}

// Health is nil unless a message has waited longer than StaleAfter (the mail
// server keeps refusing or cannot be reached); it names no address or
// server. A nil queue (mail off) is healthy.
func (q *Queue) Health() error {
	if q == nil {
		return nil
	}
	s := q.State()
	if s.Pending > 0 && time.Since(s.Oldest) > StaleAfter {
		return fmt.Errorf("%d mail(s) waiting, the oldest for %s", s.Pending, time.Since(s.Oldest).Round(time.Minute))
	}
	return nil
}
