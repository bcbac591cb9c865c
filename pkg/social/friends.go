package social

import (
	"bytes"
	"context"
	"sort"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
)

// States of a Link, as its owner sees the other account.
const (
	StateFriend   = "friend"
	StateOutgoing = "outgoing" // the owner asked, the other has not answered
	StateIncoming = "incoming" // the other asked the owner
)

// Request is a friend request from one account to another.
type Request struct {
	ID        uint64    `json:"id"`
	From      uint64    `json:"from"`
	To        uint64    `json:"to"`
	CreatedAt time.Time `json:"createdAt"`
}

// Link is one account's relation to another.
type Link struct {
	Other     uint64    `json:"other"`
	State     string    `json:"state"`
	RequestID uint64    `json:"requestId,omitempty"`
	Since     time.Time `json:"since"`
}

// Graph is one account's relations, each list newest first.
type Graph struct {
	Friends  []Link
	Incoming []Link
	Outgoing []Link
	Blocked  []Link
}

// FriendRequestsPerHour is how many friend requests one account may send
// in an hour (cancelled ones count too); more are refused with their wait.
const FriendRequestsPerHour = 20

// RequestFriend sends a friend request from from to to. Asking oneself is
// invalid; asking a friend, asking twice, or asking someone who already
// asked you (accept theirs) is a conflict; a pair where either blocked the
// other is refused.
func (s *Service) RequestFriend(ctx context.Context, from, to uint64) (*Request, error) {
	if from == to {
		return nil, store.Invalid("userId", "self", "you cannot send a friend request to yourself")
	}
	if ok, wait := s.requests.Allow(from); !ok {
		return nil, store.TooMany("too many friend requests; try again later", wait)
	}
	if err := alive(ctx); err != nil {
		return nil, err
	}
	var req Request
	err := s.st.Update(func(tx *bolt.Tx) error {
		if blockedTx(tx, from, to) {
			return store.Refuse(store.KindForbidden, "you cannot send a friend request to this account")
		}
		var l Link
		switch err := store.GetJSON(tx.Bucket(bucketLinks), pair(from, to), &l); {
		case err == nil && l.State == StateFriend:
			return store.Refuse(store.KindConflict, "you are friends already")
		case err == nil && l.State == StateOutgoing:
			return store.Refuse(store.KindConflict, "you have already sent this account a friend request")
		case err == nil && l.State == StateIncoming:
			return store.Refuse(store.KindConflict, "this account has already sent you a friend request: accept it")
		case err != nil && err != store.ErrNotFound:
			return err
		}
		b := tx.Bucket(bucketRequests)
		id, err := b.NextSequence()
		if err != nil {
			return err
		}
		now := s.now().UTC()
		req = Request{ID: id, From: from, To: to, CreatedAt: now}
		if err := store.PutJSON(b, store.Itob(id), req); err != nil {
			return err
		}
		return putLinks(tx, from, to, StateOutgoing, StateIncoming, id, now)
	})
	if err != nil {
		return nil, err
	}
	return &req, nil
}

func putLinks(tx *bolt.Tx, a, b uint64, stateA, stateB string, reqID uint64, at time.Time) error {
	lb := tx.Bucket(bucketLinks)
	if err := store.PutJSON(lb, pair(a, b), Link{Other: b, State: stateA, RequestID: reqID, Since: at}); err != nil {
		return err
	}
	return store.PutJSON(lb, pair(b, a), Link{Other: a, State: stateB, RequestID: reqID, Since: at})
}

func deleteLinks(tx *bolt.Tx, a, b uint64) error {
	lb := tx.Bucket(bucketLinks)
	if err := lb.Delete(pair(a, b)); err != nil {
		return err
	}
	return lb.Delete(pair(b, a))
}

// Request finds a friend request; store.ErrNotFound when there is none.
func (s *Service) Request(id uint64) (*Request, error) {
	return store.ViewJSON[Request](s.st, bucketRequests, id)
}

// AnswerRequest ends the request id addressed to user: accepted, the two
// become friends; else it is declined. A request that does not exist or is
// not addressed to user is not found.
func (s *Service) AnswerRequest(ctx context.Context, user, id uint64, accept bool) (*Request, error) {
	return s.endRequest(ctx, id, func(r *Request) bool { return r.To == user }, func(tx *bolt.Tx, r *Request) error {
		if accept {
			return putLinks(tx, r.From, r.To, StateFriend, StateFriend, 0, s.now().UTC())
		}
		return deleteLinks(tx, r.From, r.To)
	})
}

// CancelRequest withdraws the request id that user sent.
func (s *Service) CancelRequest(ctx context.Context, user, id uint64) (*Request, error) {
	return s.endRequest(ctx, id, func(r *Request) bool { return r.From == user }, func(tx *bolt.Tx, r *Request) error {
		return deleteLinks(tx, r.From, r.To)
	})
}

func (s *Service) endRequest(ctx context.Context, id uint64, mine func(*Request) bool, then func(*bolt.Tx, *Request) error) (*Request, error) {
	if err := alive(ctx); err != nil {
		return nil, err
	}
	var r Request
	err := s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketRequests)
		if err := store.GetJSON(b, store.Itob(id), &r); err != nil {
			return err
		}
		if !mine(&r) {
			return store.ErrNotFound
		}
		if err := b.Delete(store.Itob(id)); err != nil {
			return err
		}
		return then(tx, &r)
	})
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// Unfriend ends the friendship of user and other; not found when they are
// not friends.
func (s *Service) Unfriend(ctx context.Context, user, other uint64) error {
	if err := alive(ctx); err != nil {
		return err
	}
	return s.st.Update(func(tx *bolt.Tx) error {
		var l Link
		if err := store.GetJSON(tx.Bucket(bucketLinks), pair(user, other), &l); err != nil || l.State != StateFriend {
			return store.ErrNotFound
		}
		return deleteLinks(tx, user, other)
	})
}

// Block makes user block other: any friendship or request between them
// ends, and neither can request, message or mention the other until user
// unblocks. Blocking twice is no error.
func (s *Service) Block(ctx context.Context, user, other uint64) error {
	if user == other {
		return store.Invalid("userId", "self", "you cannot block yourself")
	}
	if err := alive(ctx); err != nil {
		return err
	}
	return s.st.Update(func(tx *bolt.Tx) error {
		var l Link
		if err := store.GetJSON(tx.Bucket(bucketLinks), pair(user, other), &l); err == nil {
			if l.RequestID != 0 {
				if err := tx.Bucket(bucketRequests).Delete(store.Itob(l.RequestID)); err != nil {
					return err
				}
			}
			if err := deleteLinks(tx, user, other); err != nil {
				return err
			}
		}
		bb := tx.Bucket(bucketBlocks)
		if bb.Get(pair(user, other)) != nil {
			return nil
		}
		return store.PutJSON(bb, pair(user, other), s.now().UTC())
	})
}

// Unblock lifts user's block of other; not found when there is none.
func (s *Service) Unblock(ctx context.Context, user, other uint64) error {
	if err := alive(ctx); err != nil {
		return err
	}
	return s.st.Update(func(tx *bolt.Tx) error {
		bb := tx.Bucket(bucketBlocks)
		if bb.Get(pair(user, other)) == nil {
			return store.ErrNotFound
		}
		return bb.Delete(pair(user, other))
	})
}

// Blocked reports whether either of a and b blocked the other: then
// neither may request, message or mention the other, and neither sees the
// other's presence.
func (s *Service) Blocked(a, b uint64) bool {
	var out bool
	_ = s.st.View(func(tx *bolt.Tx) error { out = blockedTx(tx, a, b); return nil })
	return out
}

func blockedTx(tx *bolt.Tx, a, b uint64) bool {
	bb := tx.Bucket(bucketBlocks)
	return bb.Get(pair(a, b)) != nil || bb.Get(pair(b, a)) != nil
}

// AreFriends reports whether a and b are friends.
func (s *Service) AreFriends(a, b uint64) bool {
	var out bool
	_ = s.st.View(func(tx *bolt.Tx) error {
		var l Link
		out = store.GetJSON(tx.Bucket(bucketLinks), pair(a, b), &l) == nil && l.State == StateFriend
		return nil
	})
	return out
}

// Graph is user's friends, requests both ways and the accounts user blocked.
func (s *Service) Graph(user uint64) (*Graph, error) {
	g := &Graph{Friends: []Link{}, Incoming: []Link{}, Outgoing: []Link{}, Blocked: []Link{}}
	prefix := store.Itob(user)
	err := s.st.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketLinks).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var l Link
			if err := decode(v, &l); err != nil {
				return err
			}
			switch l.State {
			case StateFriend:
				g.Friends = append(g.Friends, l)
			case StateIncoming:
				g.Incoming = append(g.Incoming, l)
			case StateOutgoing:
				g.Outgoing = append(g.Outgoing, l)
			}
		}
		c = tx.Bucket(bucketBlocks).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var at time.Time
			if err := decode(v, &at); err != nil {
				return err
			}
			g.Blocked = append(g.Blocked, Link{Other: store.Btoi(k[8:]), Since: at})
		}
		return nil
	})
	for _, l := range [][]Link{g.Friends, g.Incoming, g.Outgoing, g.Blocked} {
		sort.SliceStable(l, func(i, j int) bool { return l[i].Since.After(l[j].Since) })
	}
	return g, err
}
