// Package gamestates keeps the emulator save states of signed-in players on
// disk: per user and game, an autosave slot and slots 1–5, each with the
// libretro core it was made with and an optional screenshot. It knows nothing
// about HTTP; pkg/server binds it to /api/games/:gameId/states.
//
// Layout: <dir>/<userID>/<gameID>/<slot>.state holds a fixed-size JSON header
// (core, size, time, version) followed by the state's bytes, and
// <slot>.<version>.png its screenshot. A state is written to a temp file in
// the same directory and renamed into place, so concurrent writes to one slot
// never mix: readers see the old record or the new one, wholly, and the last
// rename wins. The screenshot is named after the state's version, so a
// screenshot is never shown beside a state it was not taken of.
//
// The writers (Put, Delete, PutScreenshot) take a context and give up
// before they change a slot once it is done: Put stops streaming the body
// between reads, and each of them may wait for another slot's rename. The
// readers open one or a few small files and take none.
package gamestates

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/devhub/devhub/pkg/internal/ctxio"
	"github.com/devhub/devhub/pkg/internal/freespace"
	"github.com/devhub/devhub/pkg/quota"
	"github.com/devhub/devhub/pkg/store"
)

// Slots: the autosave the player writes when the page is left, and five
// that the player saves to by hand.
var Slots = []string{"auto", "1", "2", "3", "4", "5"}

// DefaultMaxBytes is the size limit of one state when the config sets none:
// the largest cores of the table (PSP, N64, Saturn) write a few MiB.
const DefaultMaxBytes = 16 << 20

// MaxScreenshotBytes bounds a screenshot thumbnail.
const MaxScreenshotBytes = 1 << 20

// headerSize is the fixed space the JSON header takes at the start of a
// state file (padded with spaces), so the bytes can stream in before the
// header, which holds their size, is written.
const headerSize = 512

var magic = []byte("DHSTATE1")

// Temp files of writes in progress (os.CreateTemp patterns): a state and a
// screenshot are written beside their slot and renamed into place.
// SweepTemps removes what a killed process left of them.
const (
	tempState      = ".put-*"
	tempScreenshot = ".png-*"
)

var (
	// ErrTooLarge: the state is over the limit; nothing was kept.
	ErrTooLarge error = store.Refuse(store.KindTooLarge, "save state too large")
	// ErrNotFound: no state in that slot.
	ErrNotFound = errors.New("no save state in this slot")
	// ErrBadSlot: the slot is not auto or 1–5.
	ErrBadSlot = errors.New("slot must be auto or 1-5")
	// ErrBadCore: the core name is missing or malformed.
	ErrBadCore = errors.New("core must be a libretro core name (a-z, 0-9, _)")
	// ErrCorrupt: the file on disk is not a state this package wrote.
	ErrCorrupt = errors.New("save state is corrupt")
	// ErrBadScreenshot: the screenshot is not a PNG.
	ErrBadScreenshot = errors.New("screenshot must be a PNG image")
)

// WrongCoreError: the state was made with another core than the one asked
// for; loading it would crash or corrupt the running game.
type WrongCoreError struct{ Have, Want string }

func (e *WrongCoreError) Error() string {
	return fmt.Sprintf("this save state was made with the %s core; this game runs with %s", e.Have, e.Want)
}

var coreName = regexp.MustCompile(`^[a-z0-9_]{1,64}$`)

// ValidCore reports whether name looks like a libretro core name.
func ValidCore(name string) bool { return coreName.MatchString(name) }

// ValidSlot reports whether slot is auto or 1–5.
func ValidSlot(slot string) bool { return slices.Contains(Slots, slot) }

// Info describes one saved slot.
type Info struct {
	Slot          string    `json:"slot"`
	Size          int64     `json:"size"`
	UpdatedAt     time.Time `json:"updatedAt"`
	HasScreenshot bool      `json:"hasScreenshot"`
	Core          string    `json:"core"`
}

type header struct {
	Core      string    `json:"core"`
	Size      int64     `json:"size"`
	UpdatedAt time.Time `json:"updatedAt"`
	Version   string    `json:"version"`
}

// Service stores the states under one directory.
type Service struct {
	dir      string
	maxBytes int64
	// mu orders the renames and screenshot clean-ups of all slots; the
	// bytes themselves stream into temp files outside it.
	mu  sync.Mutex
	now func() time.Time
	// quota, when set, bounds what each user stores (UseQuota).
	quota *quota.Service
	// reserve, when set, is the free space states leave on the disk
	// (UseReserve).
	reserve *freespace.Reserve
}

// UseReserve holds every state to the free-space reserve: refused when its
// announced length would go below it (CheckSpace), stopped when its bytes
// would cross it; both are freespace.ErrNoSpace and leave the slot as it
// was.
func (s *Service) UseReserve(r *freespace.Reserve) { s.reserve = r }

// CheckSpace refuses (freespace.ErrNoSpace) a state of n bytes that would
// leave less than the free-space reserve.
func (s *Service) CheckSpace(n int64) error { return s.reserve.Check(headerSize+n, s.dir) }

// UseQuota counts the states in each user's storage quota and refuses a
// state that would take a user over it (a *quota.ExceededError).
func (s *Service) UseQuota(q *quota.Service) {
	s.quota = q
	q.AddMeter(func(userID uint64) quota.Amount {
		n, _ := s.UsageOf(userID)
		return quota.Amount{Bytes: n}
	})
}

// New opens (and creates) the states directory. maxBytes ≤ 0 means
// DefaultMaxBytes.
func New(dir string, maxBytes int64) (*Service, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return &Service{dir: dir, maxBytes: maxBytes, now: time.Now}, nil
}

// MaxBytes is the size limit of one state.
func (s *Service) MaxBytes() int64 { return s.maxBytes }

func (s *Service) gameDir(userID, gameID uint64) string {
	return filepath.Join(s.dir, strconv.FormatUint(userID, 10), strconv.FormatUint(gameID, 10))
}

// Put stores r as the state of a slot, made with core. A body over the limit
// is ErrTooLarge and leaves the slot as it was; so does a ctx that ends
// while the body streams in or before the state is renamed into place.
func (s *Service) Put(ctx context.Context, userID, gameID uint64, slot, core string, r io.Reader) (Info, error) {
	if !ValidSlot(slot) {
		return Info{}, ErrBadSlot
	}
	if !ValidCore(core) {
		return Info{}, ErrBadCore
	}
	if err := ctx.Err(); err != nil {
		return Info{}, err
	}
	if err := s.reserve.Check(headerSize, s.dir); err != nil {
		return Info{}, err
	}
	dir := s.gameDir(userID, gameID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Info{}, freespace.Wrap(err)
	}
	tmp, err := os.CreateTemp(dir, tempState)
	if err != nil {
		return Info{}, freespace.Wrap(err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	fail := func(err error) (Info, error) {
		tmp.Close()
		return Info{}, freespace.Wrap(err)
	}
	out := s.reserve.Writer(tmp, dir)
	if _, err := out.Write(make([]byte, headerSize)); err != nil {
		return fail(err)
	}
	n, err := io.Copy(out, io.LimitReader(ctxio.Reader(ctx, r), s.maxBytes+1))
	if err != nil {
		return fail(err)
	}
	if n > s.maxBytes {
		return fail(ErrTooLarge)
	}
	h := header{Core: core, Size: n, UpdatedAt: s.now().UTC().Truncate(time.Millisecond), Version: newVersion()}
	hb, err := encodeHeader(h)
	if err != nil {
		return fail(err)
	}
	if _, err := tmp.WriteAt(hb, 0); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return Info{}, freespace.Wrap(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil { // gone while waiting for another rename
		return Info{}, err
	}
	final := filepath.Join(dir, slot+".state")
	commit := func() error {
		if err := os.Rename(tmp.Name(), final); err != nil {
			return err
		}
		s.dropScreenshots(dir, slot, h.Version)
		return nil
	}
	if s.quota != nil {
		// Only the growth counts: the new state replaces the slot's old one
		// (and its screenshot).
		var old int64
		if fi, err := os.Stat(final); err == nil {
			old = fi.Size()
		}
		shots, _ := filepath.Glob(filepath.Join(dir, slot+".*.png"))
		for _, p := range shots {
			if fi, err := os.Stat(p); err == nil {
				old += fi.Size()
			}
		}
		err = s.quota.Within(userID, quota.Amount{Bytes: max(0, headerSize+n-old)}, commit)
	} else {
		err = commit()
	}
	if err != nil {
		return Info{}, err
	}
	return Info{Slot: slot, Size: n, UpdatedAt: h.UpdatedAt, Core: core}, nil
}

func newVersion() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func encodeHeader(h header) ([]byte, error) {
	j, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	out := append(append([]byte{}, magic...), j...)
	if len(out) > headerSize {
		return nil, errors.New("save state header too long")
	}
	return append(out, bytes.Repeat([]byte{' '}, headerSize-len(out))...), nil
}

func readHeader(f io.ReaderAt) (header, error) {
	buf := make([]byte, headerSize)
	if _, err := f.ReadAt(buf, 0); err != nil {
		return header{}, ErrCorrupt
	}
	if !bytes.HasPrefix(buf, magic) {
		return header{}, ErrCorrupt
	}
	var h header
	if err := json.Unmarshal(bytes.TrimRight(buf[len(magic):], " "), &h); err != nil {
		return header{}, ErrCorrupt
	}
	return h, nil
}

// dropScreenshots removes the slot's screenshots of other versions.
func (s *Service) dropScreenshots(dir, slot, keep string) {
	matches, _ := filepath.Glob(filepath.Join(dir, slot+".*.png"))
	for _, m := range matches {
		if filepath.Base(m) != slot+"."+keep+".png" {
			_ = os.Remove(m)
		}
	}
}

// Get returns a slot's state bytes and its info. wantCore, when not empty,
// is the core the caller will load it into: a state of another core is a
// *WrongCoreError (with the info still filled in).
func (s *Service) Get(userID, gameID uint64, slot, wantCore string) ([]byte, Info, error) {
	if !ValidSlot(slot) {
		return nil, Info{}, ErrBadSlot
	}
	dir := s.gameDir(userID, gameID)
	f, err := os.Open(filepath.Join(dir, slot+".state"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Info{}, ErrNotFound
	} else if err != nil {
		return nil, Info{}, err
	}
	defer f.Close()
	h, err := readHeader(f)
	if err != nil {
		return nil, Info{}, err
	}
	info := s.info(dir, slot, h)
	if wantCore != "" && h.Core != wantCore {
		return nil, info, &WrongCoreError{Have: h.Core, Want: wantCore}
	}
	data := make([]byte, h.Size)
	if _, err := f.ReadAt(data, headerSize); err != nil {
		return nil, info, ErrCorrupt
	}
	return data, info, nil
}

func (s *Service) info(dir, slot string, h header) Info {
	_, err := os.Stat(filepath.Join(dir, slot+"."+h.Version+".png"))
	return Info{Slot: slot, Size: h.Size, UpdatedAt: h.UpdatedAt, Core: h.Core, HasScreenshot: err == nil}
}

// List returns the saved slots of a game in slot order (auto first).
func (s *Service) List(userID, gameID uint64) ([]Info, error) {
	dir := s.gameDir(userID, gameID)
	out := []Info{}
	for _, slot := range Slots {
		f, err := os.Open(filepath.Join(dir, slot+".state"))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, err
		}
		h, err := readHeader(f)
		f.Close()
		if err != nil {
			continue // a corrupt file is not offered; Get reports it
		}
		out = append(out, s.info(dir, slot, h))
	}
	return out, nil
}

// Delete removes a slot's state and screenshot; an empty slot is ErrNotFound.
func (s *Service) Delete(ctx context.Context, userID, gameID uint64, slot string) error {
	if !ValidSlot(slot) {
		return ErrBadSlot
	}
	dir := s.gameDir(userID, gameID)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	err := os.Remove(filepath.Join(dir, slot+".state"))
	if errors.Is(err, fs.ErrNotExist) {
		return ErrNotFound
	} else if err != nil {
		return err
	}
	s.dropScreenshots(dir, slot, "")
	return nil
}

// PutScreenshot attaches a PNG to the slot's current state.
func (s *Service) PutScreenshot(ctx context.Context, userID, gameID uint64, slot string, png []byte) error {
	if !ValidSlot(slot) {
		return ErrBadSlot
	}
	if len(png) > MaxScreenshotBytes {
		return ErrTooLarge
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		return ErrBadScreenshot
	}
	dir := s.gameDir(userID, gameID)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	f, err := os.Open(filepath.Join(dir, slot+".state"))
	if errors.Is(err, fs.ErrNotExist) {
		return ErrNotFound
	} else if err != nil {
		return err
	}
	h, err := readHeader(f)
	f.Close()
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, tempScreenshot)
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(png); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(dir, slot+"."+h.Version+".png"))
}

// Screenshot returns the PNG of the slot's current state.
func (s *Service) Screenshot(userID, gameID uint64, slot string) ([]byte, error) {
	if !ValidSlot(slot) {
		return nil, ErrBadSlot
	}
	dir := s.gameDir(userID, gameID)
	f, err := os.Open(filepath.Join(dir, slot+".state"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotFound
	} else if err != nil {
		return nil, err
	}
	h, err := readHeader(f)
	f.Close()
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, slot+"."+h.Version+".png"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotFound
	}
	return b, err
}

// SweepTemps removes the temp files of writes a killed process left in the
// game directories (a kill -9 mid-PUT skips the deferred removal) and
// returns how many. They are hidden from the quota, so without the sweep
// they would fill the disk unseen. It runs at start-up, before any write is
// accepted: a write in progress has a temp file too. Only names of the temp
// patterns in the <user>/<game> directories are removed; a symlink is
// removed itself, never followed.
func (s *Service) SweepTemps(ctx context.Context) (int, error) {
	users, err := os.ReadDir(s.dir)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, u := range users {
		if !u.IsDir() {
			continue
		}
		games, err := os.ReadDir(filepath.Join(s.dir, u.Name()))
		if err != nil {
			return n, err
		}
		for _, g := range games {
			if err := ctx.Err(); err != nil {
				return n, err
			}
			if !g.IsDir() {
				continue
			}
			dir := filepath.Join(s.dir, u.Name(), g.Name())
			entries, err := os.ReadDir(dir)
			if err != nil {
				return n, err
			}
			for _, e := range entries {
				if e.IsDir() || !isTemp(e.Name()) {
					continue
				}
				if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return n, err
				}
				n++
			}
		}
	}
	return n, nil
}

// isTemp tells a temp file's name (tempState, tempScreenshot) from a slot's.
func isTemp(name string) bool {
	for _, pattern := range []string{tempState, tempScreenshot} {
		if strings.HasPrefix(name, strings.TrimSuffix(pattern, "*")) {
			return true
		}
	}
	return false
}

// UsageOf is the bytes a user's states and screenshots take on disk, for
// the per-user quota.
func (s *Service) UsageOf(userID uint64) (int64, error) {
	var total int64
	err := filepath.WalkDir(filepath.Join(s.dir, strconv.FormatUint(userID, 10)), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.Type().IsRegular() && !strings.HasPrefix(d.Name(), ".") {
			fi, err := d.Info()
			if err != nil {
				return nil // removed meanwhile
			}
			total += fi.Size()
		}
		return nil
	})
	return total, err
}
