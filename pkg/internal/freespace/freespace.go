// Package freespace keeps a reserve of free bytes on the filesystems that
// hold the store (storage.data_dir) and the uploads (storage.uploads_dir):
// storage.min_free_bytes. Every write of users' bytes (file-cloud uploads,
// resumable uploads' staging, save states, ROMs) asks it first, with the
// length when it is announced, and streams through its Writer, which stops
// where the reserve begins. What the reserve keeps is the store's room for
// what every request writes (sessions at sign-in, audit events): a disk
// filled by uploads still lets people sign in.
//
// Filesystems are told apart by their device, so two directories on one
// disk share its reserve, and a directory on a filesystem the reserve does
// not guard (a separate ROM disk) is not held to it. A nil *Reserve, or one
// of 0 bytes, checks nothing.
package freespace

import (
	"errors"
	"fmt"
	"io"
	"syscall"
)

// ErrNoSpace means a write would leave less than the reserve free, or the
// disk (or a filesystem quota) is full: nothing of it is kept.
var ErrNoSpace = errors.New("not enough storage space")

// Stat reports the filesystem holding dir: an id that is the same for every
// directory on it (its device), and the bytes an unprivileged writer may
// still use there.
type Stat func(dir string) (fs uint64, avail int64, err error)

// System is the system's Stat (statfs), which New reads through.
func System(dir string) (fs uint64, avail int64, err error) { return statFS(dir) }

// Reserve is the free space kept on the guarded filesystems.
type Reserve struct {
	min int64
	// store is the store's directory: every check includes its filesystem,
	// whatever is written elsewhere (the write's record goes there).
	store   string
	guarded []string
	stat    Stat
}

// New keeps min bytes free on the filesystems of the store's directory and
// of each of guarded (the uploads directory).
func New(min int64, store string, guarded ...string) *Reserve {
	return &Reserve{min: min, store: store, guarded: guarded, stat: statFS}
}

// WithStat is r reading free space through stat instead of the system's
// (tests: a disk of a given size where no small filesystem can be mounted).
func (r *Reserve) WithStat(stat Stat) *Reserve {
	c := *r
	c.stat = stat
	return &c
}

// use is what a write asks of one guarded filesystem.
type use struct {
	dir    string // the first directory met on it, for messages
	avail  int64
	writes int64 // how many of the write's directories are on it
}

// uses maps each guarded filesystem a write touches — the store's always,
// and those of dirs — to its free space and how many of dirs it holds. A
// directory whose filesystem cannot be read is left out: the reserve is a
// safeguard, and the write's own error still tells a full disk (Wrap).
func (r *Reserve) uses(dirs []string) map[uint64]*use {
	guarded := map[uint64]bool{}
	for _, d := range append([]string{r.store}, r.guarded...) {
		if id, _, err := r.stat(d); err == nil {
			guarded[id] = true
		}
	}
	out := map[uint64]*use{}
	for i, d := range append([]string{r.store}, dirs...) {
		if d == "" {
			continue // no directory: the write is not on a local disk (S3)
		}
		id, avail, err := r.stat(d)
		if err != nil || !guarded[id] {
			continue
		}
		u := out[id]
		if u == nil {
			u = &use{dir: d, avail: avail}
			out[id] = u
		}
		if i > 0 {
			u.writes++
		}
	}
	return out
}

// Check answers an error wrapping ErrNoSpace when writing n more bytes into
// each of dirs ("" for none: bytes that go to S3) would leave less than the reserve free on a guarded
// filesystem (n counts once per directory on it: a staged upload and its
// final copy on one disk need twice its length), or when the store's
// filesystem is already below it.
func (r *Reserve) Check(n int64, dirs ...string) error {
	if r == nil || r.min <= 0 {
		return nil
	}
	for _, u := range r.uses(dirs) {
		if left := u.avail - n*u.writes; left < r.min {
			return fmt.Errorf("%w: %d more bytes would leave %d free on the filesystem of %s, under the reserve of %d (storage.min_free_bytes)",
				ErrNoSpace, n*u.writes, max(left, 0), u.dir, r.min)
		}
	}
	return nil
}

// room is how many bytes may still be written into dirs (spread evenly over
// the directories on one filesystem) before a guarded filesystem reaches
// the reserve.
func (r *Reserve) room(dirs []string) int64 {
	room := int64(-1)
	for _, u := range r.uses(dirs) {
		free := (u.avail - r.min) / max(u.writes, 1)
		if room < 0 || free < room {
			room = free
		}
	}
	if room < 0 { // nothing guarded: no limit from here
		return 1<<63 - 1
	}
	return room
}

// recheckEvery bounds how long a stream trusts one reading of the free
// space: other writers use the disk meanwhile, so it is read again after
// this many bytes.
const recheckEvery = 4 << 20

// Writer is w held to the reserve while bytes stream into dir ("" when they
// go elsewhere, such as S3: the store's disk still is): a write that
// would cross it fails with ErrNoSpace before any of its bytes reach w.
// The caller removes what was written before (a failed write keeps
// nothing).
func (r *Reserve) Writer(w io.Writer, dir string) io.Writer {
	if r == nil || r.min <= 0 {
		return w
	}
	return &guard{w: w, r: r, dirs: []string{dir}}
}

type guard struct {
	w    io.Writer
	r    *Reserve
	dirs []string
	left int64 // what may be written before the free space is read again
}

func (g *guard) Write(p []byte) (int, error) {
	if int64(len(p)) > g.left {
		room := g.r.room(g.dirs)
		g.left = min(room, recheckEvery)
		if int64(len(p)) > room {
			return 0, fmt.Errorf("%w: the write would cross the reserve of %d bytes (storage.min_free_bytes) on the filesystem of %s",
				ErrNoSpace, g.r.min, g.dirs[0])
		}
		g.left = max(g.left, int64(len(p)))
	}
	n, err := g.w.Write(p)
	g.left -= int64(n)
	return n, err
}

// Full reports whether err says the disk has no room: ErrNoSpace, ENOSPC,
// or a filesystem quota (EDQUOT).
func Full(err error) bool {
	return errors.Is(err, ErrNoSpace) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// Wrap makes a write error that says the disk is full (Full) an ErrNoSpace,
// keeping the system's error in the chain; any other error is returned as
// it is.
func Wrap(err error) error {
	if err == nil || errors.Is(err, ErrNoSpace) || !Full(err) {
		return err
	}
	return fmt.Errorf("%w (%w)", ErrNoSpace, err)
}
