// Package gamecontrols keeps each signed-in player's controls per console:
// which keyboard keys (KeyboardEvent.code) and which gamepad buttons (their
// index in the W3C "standard" layout) press which libretro joypad button.
// One small record per user and console in the store, so a mapping made on
// one device drives the game on the next. A console with no record plays
// with the player's defaults (they live in the SPA, beside the input code);
// Reset goes back to them. Guests keep their mapping in the browser.
//
// It knows nothing about HTTP or the ROM library: pkg/server checks the
// console against the library and binds it to /api/games/controls/:console.
package gamecontrols

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
)

var bucket = []byte("game_controls")

const (
	// MaxBindings bounds each of the two maps (the SPA's own check is the same).
	MaxBindings = 64
	// MaxBytes bounds a mapping as sent (PUT's body): 64 bindings of each
	// kind, written out with spaces, fit with room to spare, so anything
	// larger is not a mapping and is refused before it is decoded.
	MaxBytes = 8 << 10
	// maxButtonID is the highest libretro joypad id the player binds
	// (RETRO_DEVICE_ID_JOYPAD_R).
	maxButtonID = 11
	// maxPadButton is the highest gamepad button index accepted; the
	// standard layout has 17 (0–16), some pads report a few more.
	maxPadButton = 31
)

var (
	keyCode     = regexp.MustCompile(`^[A-Za-z0-9]{1,32}$`)
	padIndex    = regexp.MustCompile(`^(0|[1-9][0-9]?)$`)
	consoleName = regexp.MustCompile(`^[a-z0-9_]{1,32}$`)
)

// ErrBadConsole: the console id is malformed (the server answers 404 for
// consoles the library does not know before it gets here).
var ErrBadConsole = errors.New("console must be a console id")

// Mapping is one user's controls for one console. A nil map means "the
// defaults" for that kind of input, so a player who only rebound keys still
// gets the default gamepad layout.
type Mapping struct {
	// Keys maps a KeyboardEvent.code to a libretro joypad id (0–11).
	Keys map[string]int `json:"keys"`
	// Gamepad maps a gamepad button index ("0"…"31", JSON keys are strings)
	// to a libretro joypad id.
	Gamepad   map[string]int `json:"gamepad"`
	UpdatedAt *time.Time     `json:"updatedAt"`
}

// Validate checks both maps: known shapes of keys, joypad ids 0–11, at most
// MaxBindings each. Errors are *store.ValidationError naming the field.
func (m Mapping) Validate() error {
	check := func(field string, in map[string]int, name *regexp.Regexp, what string) error {
		if len(in) > MaxBindings {
			return store.Invalid(field, "too_many", fmt.Sprintf("at most %d bindings", MaxBindings))
		}
		for k, id := range in {
			if !name.MatchString(k) {
				return store.Invalid(field, "invalid", fmt.Sprintf("%q is not %s", k, what))
			}
			if id < 0 || id > maxButtonID {
				return store.Invalid(field, "invalid", fmt.Sprintf("%q is bound to %d, not a joypad button (0-%d)", k, id, maxButtonID))
			}
		}
		return nil
	}
	if err := check("keys", m.Keys, keyCode, "a key code"); err != nil {
		return err
	}
	if err := check("gamepad", m.Gamepad, padIndex, "a gamepad button index"); err != nil {
		return err
	}
	for k := range m.Gamepad {
		if n, _ := strconv.Atoi(k); n > maxPadButton {
			return store.Invalid("gamepad", "invalid", fmt.Sprintf("gamepad button %s is past %d", k, maxPadButton))
		}
	}
	return nil
}

// Service reads and writes mappings.
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

func recordKey(userID uint64, console string) []byte {
	return append(append(store.Itob(userID), '/'), console...)
}

// Get returns a user's mapping for a console; with none saved both maps are
// nil and UpdatedAt is nil (play with the defaults).
func (s *Service) Get(userID uint64, console string) (Mapping, error) {
	if !consoleName.MatchString(console) {
		return Mapping{}, ErrBadConsole
	}
	var m Mapping
	err := s.st.View(func(tx *bolt.Tx) error {
		err := store.GetJSON(tx.Bucket(bucket), recordKey(userID, console), &m)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		return err
	})
	return m, err
}

// Put replaces a user's mapping for a console (both kinds at once: a nil map
// stores "defaults" for that kind) and returns it as stored.
func (s *Service) Put(ctx context.Context, userID uint64, console string, m Mapping) (Mapping, error) {
	if err := ctx.Err(); err != nil {
		return Mapping{}, err
	}
	if !consoleName.MatchString(console) {
		return Mapping{}, ErrBadConsole
	}
	if err := m.Validate(); err != nil {
		return Mapping{}, err
	}
	now := s.now().UTC().Truncate(time.Millisecond)
	m.UpdatedAt = &now
	err := s.st.Update(func(tx *bolt.Tx) error {
		return store.PutJSON(tx.Bucket(bucket), recordKey(userID, console), m)
	})
	return m, err
}

// Reset forgets a user's mapping for a console (back to the defaults); it is
// idempotent.
func (s *Service) Reset(ctx context.Context, userID uint64, console string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !consoleName.MatchString(console) {
		return ErrBadConsole
	}
	return s.st.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucket).Delete(recordKey(userID, console))
	})
}
