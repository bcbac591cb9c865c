// Package notify keeps each account's notifications (a friend request, a
// reply to their post, a mention in the chat, …) and the kinds they turned
// off. Each stored notification is also published live to its account's
// event streams as a "notification" event, so the bell updates at once.
//
// An account keeps at most MaxPerUser notifications; the oldest go first.
// Keys are per-account bbolt sequence ids, so the newest are at the end of
// the account's bucket and a page is one cursor walk backwards.
package notify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/events"
	"github.com/devhub/devhub/pkg/internal/paging"
	"github.com/devhub/devhub/pkg/store"
)

// Kinds of notification.
const (
	KindFriendRequest  = "friend.request"
	KindFriendAccepted = "friend.accepted"
	KindDM             = "dm.message"
	KindMention        = "mention"
	KindForumReply     = "forum.reply"
	KindCommentReply   = "comment.reply"
	KindCommentNew     = "comment.new"
)

// SettingEmailDigest is the setting, beside the kinds, of whether unread
// notifications also reach the account by e-mail (a digest). It is off
// until the account turns it on: mail nobody asked for is spam.
const SettingEmailDigest = "email.digest"

// Kinds lists every kind, in the order settings show them.
var Kinds = []string{KindFriendRequest, KindFriendAccepted, KindDM, KindMention,
	KindForumReply, KindCommentReply, KindCommentNew}

// Live event types this package publishes.
const (
	// EventNew carries a new notification and the unread count.
	EventNew = "notification"
	// EventRead carries the unread count after notifications were read.
	EventRead = "notification.read"
)

const (
	// MaxPerUser bounds the notifications kept per account.
	MaxPerUser = 500
	// MaxDataBytes bounds one notification's data as stored.
	MaxDataBytes = 4 << 10
	// MaxPage is the largest page List returns.
	MaxPage = 100
)

// pageRule: a page of MaxPage unless a smaller limit is asked for.
var pageRule = paging.Rule{Default: MaxPage, Max: MaxPage, Over: paging.Cap}

const (
	itemsBucket    = "notifications"
	settingsBucket = "notification_settings"
	// mailedBucket keeps, per account, the id of the newest notification
	// a digest already carried (user id → id).
	mailedBucket = "notification_mailed"
)

// Notification is one stored notification.
type Notification struct {
	ID        uint64          `json:"id"`
	Kind      string          `json:"kind"`
	Data      json.RawMessage `json:"data"`
	CreatedAt time.Time       `json:"createdAt"`
	Read      bool            `json:"read"`
}

// Service stores notifications and publishes them. A nil *Service stores
// nothing.
type Service struct {
	st  *store.Store
	hub *events.Hub
	now func() time.Time
}

// New opens the notification buckets; hub may be nil (nothing published).
func New(st *store.Store, hub *events.Hub) (*Service, error) {
	if err := st.EnsureBuckets(itemsBucket, settingsBucket, mailedBucket); err != nil {
		return nil, err
	}
	return &Service{st: st, hub: hub, now: time.Now}, nil
}

// KnownKind reports whether kind is one of Kinds.
func KnownKind(kind string) bool { return slices.Contains(Kinds, kind) }

// Add stores a notification of kind for userID (unless the user turned that
// kind off) and publishes it to the user's streams with their unread count.
func (s *Service) Add(ctx context.Context, userID uint64, kind string, data any) error {
	if s == nil {
		return nil
	}
	if !KnownKind(kind) {
		return fmt.Errorf("notify: unknown kind %q", kind)
	}
	raw, err := store.MarshalJSON(data)
	if err != nil {
		return fmt.Errorf("notify: encode %s: %w", kind, err)
	}
	if len(raw) > MaxDataBytes {
		return fmt.Errorf("notify: %s data of %d bytes is over %d", kind, len(raw), MaxDataBytes)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	var n Notification
	var unread int
	stored := false
	err = s.st.Update(func(tx *bolt.Tx) error {
		off, err := offKinds(tx, userID)
		if err != nil || off[kind] {
			return err
		}
		b, err := tx.Bucket([]byte(itemsBucket)).CreateBucketIfNotExists(store.Itob(userID))
		if err != nil {
			return err
		}
		id, err := b.NextSequence()
		if err != nil {
			return err
		}
		n = Notification{ID: id, Kind: kind, Data: raw, CreatedAt: s.now().UTC()}
		if err := store.PutJSON(b, store.Itob(id), n); err != nil {
			return err
		}
		if err := trim(b, id); err != nil {
			return err
		}
		stored = true
		unread, err = countUnread(b)
		return err
	})
	if err != nil || !stored {
		return err
	}
	s.hub.Publish(EventNew, []uint64{userID}, map[string]any{"notification": n, "unread": unread})
	return nil
}

// trim drops the notifications beyond the MaxPerUser newest, newest being
// id. Ids are never reused and only trim deletes, so those are exactly the
// ones with ids up to id-MaxPerUser.
func trim(b *bolt.Bucket, id uint64) error {
	if id <= MaxPerUser {
		return nil
	}
	c := b.Cursor()
	for k, _ := c.First(); k != nil && store.Btoi(k) <= id-MaxPerUser; k, _ = c.First() {
		if err := c.Delete(); err != nil {
			return err
		}
	}
	return nil
}

func countUnread(b *bolt.Bucket) (int, error) {
	n := 0
	err := store.ForEachJSON(b, func(_ []byte, v *Notification) error {
		if !v.Read {
			n++
		}
		return nil
	})
	return n, err
}

// Page is one page of a user's notifications, newest first.
type Page struct {
	Items  []Notification `json:"items"`
	Unread int            `json:"unread"`
	// Next is the before value of the following (older) page; 0 when
	// there is none.
	Next uint64 `json:"next,omitempty"`
}

// List returns up to limit of userID's notifications older than before
// (0: from the newest), newest first, with the unread count.
func (s *Service) List(userID, before uint64, limit int) (Page, error) {
	limit = pageRule.Size(limit)
	p := Page{Items: []Notification{}}
	err := s.st.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(itemsBucket)).Bucket(store.Itob(userID))
		if b == nil {
			return nil
		}
		c := b.Cursor()
		var k, v []byte
		if before == 0 {
			k, v = c.Last()
		} else {
			k, _ = c.Seek(store.Itob(before))
			if k == nil {
				k, v = c.Last()
			} else {
				k, v = c.Prev()
			}
		}
		for ; k != nil; k, v = c.Prev() {
			if len(p.Items) == limit {
				p.Next = p.Items[len(p.Items)-1].ID
				break
			}
			var n Notification
			if err := json.Unmarshal(v, &n); err != nil {
				return fmt.Errorf("decode notification %d: %w", store.Btoi(k), err)
			}
			p.Items = append(p.Items, n)
		}
		var err error
		p.Unread, err = countUnread(b)
		return err
	})
	return p, err
}

// Unread is userID's count of unread notifications.
func (s *Service) Unread(userID uint64) (int, error) {
	n := 0
	err := s.st.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(itemsBucket)).Bucket(store.Itob(userID))
		if b == nil {
			return nil
		}
		var err error
		n, err = countUnread(b)
		return err
	})
	return n, err
}

// MarkRead marks userID's notifications with the given ids read (all of
// them when all is set; ids not theirs or not kept are ignored), publishes
// the new unread count to their streams and returns it.
func (s *Service) MarkRead(userID uint64, ids []uint64, all bool) (int, error) {
	unread := 0
	err := s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(itemsBucket)).Bucket(store.Itob(userID))
		if b == nil {
			return nil
		}
		mark := func(k []byte) error {
			var n Notification
			if err := store.GetJSON(b, k, &n); err != nil || n.Read {
				return nil
			}
			n.Read = true
			return store.PutJSON(b, k, n)
		}
		if all {
			var keys [][]byte
			c := b.Cursor()
			for k, _ := c.First(); k != nil; k, _ = c.Next() {
				keys = append(keys, append([]byte(nil), k...))
			}
			for _, k := range keys {
				if err := mark(k); err != nil {
					return err
				}
			}
		} else {
			for _, id := range ids {
				if err := mark(store.Itob(id)); err != nil {
					return err
				}
			}
		}
		var err error
		unread, err = countUnread(b)
		return err
	})
	if err != nil {
		return 0, err
	}
	s.hub.Publish(EventRead, []uint64{userID}, map[string]int{"unread": unread})
	return unread, nil
}

// Settings are which kinds a user receives: every kind of Kinds, true when on.
type Settings map[string]bool

// Settings returns userID's settings (every kind on unless turned off).
func (s *Service) Settings(userID uint64) (Settings, error) {
	var off map[string]bool
	err := s.st.View(func(tx *bolt.Tx) error {
		var err error
		off, err = offKinds(tx, userID)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := Settings{}
	for _, k := range Kinds {
		out[k] = !off[k]
	}
	out[SettingEmailDigest] = off[SettingEmailDigest] != defaultOn(SettingEmailDigest)
	return out, nil
}

// SetSettings changes the kinds named in change (others keep their state)
// and returns the settings after it. An unknown kind is a validation error
// and changes nothing.
func (s *Service) SetSettings(userID uint64, change Settings) (Settings, error) {
	var v store.Validator
	for k := range change {
		if !KnownKind(k) && k != SettingEmailDigest {
			v.Add(k, "invalid", "unknown notification kind")
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	err := s.st.Update(func(tx *bolt.Tx) error {
		off, err := offKinds(tx, userID)
		if err != nil {
			return err
		}
		for k, on := range change {
			if on == defaultOn(k) {
				delete(off, k)
			} else {
				off[k] = true
			}
		}
		b := tx.Bucket([]byte(settingsBucket))
		if len(off) == 0 {
			return b.Delete(store.Itob(userID))
		}
		return store.PutJSON(b, store.Itob(userID), off)
	})
	if err != nil {
		return nil, err
	}
	return s.Settings(userID)
}

// defaultOn is a setting's state until the account changes it: every kind
// on, the e-mail digest off.
func defaultOn(setting string) bool { return setting != SettingEmailDigest }

// offKinds are the settings userID switched away from their default: the
// kinds turned off, and the e-mail digest when turned on.
func offKinds(tx *bolt.Tx, userID uint64) (map[string]bool, error) {
	off := map[string]bool{}
	err := store.GetJSON(tx.Bucket([]byte(settingsBucket)), store.Itob(userID), &off)
	if errors.Is(err, store.ErrNotFound) {
		return map[string]bool{}, nil
	}
	return off, err
}

// DeleteUser forgets userID's notifications and settings (their account
// was deleted).
func (s *Service) DeleteUser(userID uint64) error {
	if s == nil {
		return nil
	}
	return s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(itemsBucket))
		if b.Bucket(store.Itob(userID)) != nil {
			if err := b.DeleteBucket(store.Itob(userID)); err != nil {
				return err
			}
		}
		if err := tx.Bucket([]byte(mailedBucket)).Delete(store.Itob(userID)); err != nil {
			return err
		}
		return tx.Bucket([]byte(settingsBucket)).Delete(store.Itob(userID))
	})
}
