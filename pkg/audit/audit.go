// Package audit keeps the security audit log: who signed in or failed to,
// turned two-factor sign-in on or off, changed a password or a role, ended
// sessions, deleted an account, made or withdrew a share link — with when,
// from where and on whom. Admins read it in the panel and the owner with
// `devhub audit list`.
//
// It is written by the server and the CLI, never by visitors directly, so
// it needs no rate limit of its own; retention is bounded by count (the
// oldest events go first) like the activity log.
package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/text"
	"github.com/devhub/devhub/pkg/store"
)

// Event types.
const (
	SignIn          = "signin"
	SignInFailed    = "signin.failed"
	TwoFactorOn     = "2fa.enabled"
	TwoFactorOff    = "2fa.disabled"
	TwoFactorReset  = "2fa.reset"
	PasskeyAdded    = "passkey.added"
	PasskeyRemoved  = "passkey.removed"
	PasswordChanged = "password.changed"
	RoleChanged     = "role.changed"
	SessionsRevoked = "sessions.revoked"
	UserDeleted     = "user.deleted"
	UserCreated     = "user.created"
	InviteCreated   = "invite.created"
	ShareCreated    = "share.created"
	ShareRevoked    = "share.revoked"
	QuotaChanged    = "quota.changed"
	ShareUsed       = "share.used"
)

// Event types of the blog's writing.
const (
	ArticleCreated  = "article.created"
	ArticleEdited   = "article.edited"
	ArticleDeleted  = "article.deleted"
	ArticleRestored = "article.restored"
)

// DefaultMaxEvents is how many events are kept.
const DefaultMaxEvents = 20000

// maxField caps each text field as stored (a failed sign-in records the
// e-mail a guest typed, which can be anything).
const maxField = 256

const bucketName = "audit"

// Event is one audit record.
type Event struct {
	ID      uint64            `json:"id"`
	At      time.Time         `json:"at"`
	Type    string            `json:"type"`
	Actor   string            `json:"actor"`
	Target  string            `json:"target"`
	IP      string            `json:"ip"`
	Details map[string]string `json:"details,omitempty"`
}

// Service appends and lists audit events.
type Service struct {
	st  *store.Store
	max uint64
	now func() time.Time
}

// New opens the audit log on st, keeping at most maxEvents (0: default).
func New(st *store.Store, maxEvents int, now func() time.Time) (*Service, error) {
	if maxEvents <= 0 {
		maxEvents = DefaultMaxEvents
	}
	if now == nil {
		now = time.Now
	}
	if err := st.EnsureBuckets(bucketName); err != nil {
		return nil, err
	}
	return &Service{st: st, max: uint64(maxEvents), now: now}, nil
}

// Record appends an event, stamped with the time; the oldest events beyond
// the retention are dropped in the same transaction. It gives up before the
// transaction once ctx is done; callers recording an action that has
// already happened pass a context that is not cancelled with the request
// (context.WithoutCancel), so the log never misses it.
func (s *Service) Record(ctx context.Context, ev Event) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ev.At = s.now().UTC()
	ev.Type, ev.Actor, ev.Target, ev.IP = text.Truncate(ev.Type, maxField), text.Truncate(ev.Actor, maxField), text.Truncate(ev.Target, maxField), text.Truncate(ev.IP, maxField)
	for k, v := range ev.Details {
		ev.Details[k] = text.Truncate(v, maxField)
	}
	return s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketName))
		id, err := b.NextSequence()
		if err != nil {
			return err
		}
		ev.ID = id
		if err := store.PutJSON(b, store.Itob(id), ev); err != nil {
			return err
		}
		if id <= s.max {
			return nil
		}
		cutoff := store.Itob(id - s.max + 1)
		c := b.Cursor()
		var doomed [][]byte
		for k, _ := c.First(); k != nil && bytes.Compare(k, cutoff) < 0; k, _ = c.Next() {
			doomed = append(doomed, append([]byte(nil), k...))
		}
		for _, k := range doomed {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
}

// Query selects events for List: newest first, before the event id Before
// (0: from the newest), of Type (a prefix: "2fa" matches every 2fa.*),
// not older than Since, at most Limit (0: 100).
type Query struct {
	Limit  int
	Before uint64
	Type   string
	Since  time.Time
}

// MaxLimit caps one page.
const MaxLimit = 1000

// List returns one page of events, newest first, and the id to pass as
// Before for the next page (0 when there is none).
func (s *Service) List(ctx context.Context, q Query) ([]Event, uint64, error) {
	if q.Limit <= 0 {
		q.Limit = 100
	}
	q.Limit = min(q.Limit, MaxLimit)
	out := []Event{}
	var next uint64
	err := s.st.View(func(tx *bolt.Tx) error {
		c := tx.Bucket([]byte(bucketName)).Cursor()
		var k, v []byte
		if q.Before > 0 {
			k, _ = c.Seek(store.Itob(q.Before))
			if k == nil {
				k, v = c.Last()
			} else {
				k, v = c.Prev()
			}
		} else {
			k, v = c.Last()
		}
		for ; k != nil; k, v = c.Prev() {
			if err := ctx.Err(); err != nil {
				return err
			}
			var ev Event
			if err := json.Unmarshal(v, &ev); err != nil {
				return fmt.Errorf("audit: decode event %d: %w", store.Btoi(k), err)
			}
			if !q.Since.IsZero() && ev.At.Before(q.Since) {
				break // older from here on
			}
			if q.Type != "" && ev.Type != q.Type && !strings.HasPrefix(ev.Type, q.Type+".") {
				continue
			}
			if len(out) == q.Limit {
				next = out[len(out)-1].ID
				break
			}
			out = append(out, ev)
		}
		return nil
	})
	return out, next, err
}
