// Package gameshelf keeps each signed-in player's favourite games and the
// games they played last, in the store (one small record per user). It
// stores game ids only; pkg/server joins them with the ROM library and drops
// ids of games that were removed since.
//
// The writers take a context and give up before they open a write
// transaction once it is done (bbolt's single writer may keep them
// waiting); Get is one short read and takes none.
package gameshelf

import (
	"context"
	"errors"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
)

var bucket = []byte("game_shelf")

// MaxRecent is how many recently played games are kept per user; MaxFavourites
// bounds the favourites so one record stays small.
const (
	MaxRecent     = 20
	MaxFavourites = 500
)

// ErrTooMany: the user has MaxFavourites favourites already.
var ErrTooMany = errors.New("too many favourites")

// Entry is a game id and when it was added (favourites) or last started
// (recent).
type Entry struct {
	GameID uint64    `json:"id"`
	At     time.Time `json:"at"`
}

// Shelf is one user's record; both lists are newest first.
type Shelf struct {
	Favourites []Entry `json:"favourites"`
	Recent     []Entry `json:"recent"`
}

// Service reads and writes shelves.
type Service struct {
	st  *store.Store
	now func() time.Time
}

// New creates the bucket.
func New(st *store.Store) (*Service, error) {
	if err := st.EnsureBuckets(string(bucket)); err != nil {
		return nil, err
	}
	return &Service{st: st, now: time.Now}, nil
}

// Get returns a user's shelf (empty lists when nothing is recorded).
func (s *Service) Get(userID uint64) (Shelf, error) {
	sh := Shelf{Favourites: []Entry{}, Recent: []Entry{}}
	err := s.st.View(func(tx *bolt.Tx) error {
		err := store.GetJSON(tx.Bucket(bucket), store.Itob(userID), &sh)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		return err
	})
	if sh.Favourites == nil {
		sh.Favourites = []Entry{}
	}
	if sh.Recent == nil {
		sh.Recent = []Entry{}
	}
	return sh, err
}

func (s *Service) update(ctx context.Context, userID uint64, fn func(*Shelf) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucket)
		var sh Shelf
		if err := store.GetJSON(b, store.Itob(userID), &sh); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if err := fn(&sh); err != nil {
			return err
		}
		return store.PutJSON(b, store.Itob(userID), sh)
	})
}

func without(list []Entry, id uint64) []Entry {
	return slices.DeleteFunc(list, func(e Entry) bool { return e.GameID == id })
}

// SetFavourite adds (on) or removes (off) a favourite; both are idempotent.
func (s *Service) SetFavourite(ctx context.Context, userID, gameID uint64, on bool) error {
	return s.update(ctx, userID, func(sh *Shelf) error {
		if !on {
			sh.Favourites = without(sh.Favourites, gameID)
			return nil
		}
		if slices.ContainsFunc(sh.Favourites, func(e Entry) bool { return e.GameID == gameID }) {
			return nil
		}
		if len(sh.Favourites) >= MaxFavourites {
			return ErrTooMany
		}
		sh.Favourites = append([]Entry{{GameID: gameID, At: s.now().UTC()}}, sh.Favourites...)
		return nil
	})
}

// Played records that a user started a game: it moves to the front of the
// recent list, which keeps MaxRecent games.
func (s *Service) Played(ctx context.Context, userID, gameID uint64) error {
	return s.update(ctx, userID, func(sh *Shelf) error {
		sh.Recent = append([]Entry{{GameID: gameID, At: s.now().UTC()}}, without(sh.Recent, gameID)...)
		if len(sh.Recent) > MaxRecent {
			sh.Recent = sh.Recent[:MaxRecent]
		}
		return nil
	})
}
