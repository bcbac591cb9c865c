package freespace

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"
)

// disks is a Stat over made-up filesystems: a directory's name up to the
// first "/" picks its disk, and each disk has the free space in the map.
type disks map[string]int64

func (d disks) stat(dir string) (uint64, int64, error) {
	name, _, _ := strings.Cut(dir, "/")
	avail, ok := d[name]
	if !ok {
		return 0, 0, fs.ErrNotExist
	}
	var id uint64
	for _, c := range name {
		id = id*31 + uint64(c)
	}
	return id, avail, nil
}

func TestCheck(t *testing.T) {
	const min = 100
	for _, tc := range []struct {
		name  string
		disks disks
		n     int64
		dirs  []string
		full  bool
	}{
		{"room left above the reserve", disks{"data": 1000, "up": 1000}, 500, []string{"up/files"}, false},
		{"exactly the reserve left", disks{"data": 1000, "up": 1000}, 900, []string{"up/files"}, false},
		{"one byte into the reserve", disks{"data": 1000, "up": 1000}, 901, []string{"up/files"}, true},
		{"two directories on one disk count twice", disks{"data": 1000, "up": 1000}, 500, []string{"up/.tus", "up/files"}, true},
		{"two directories on two disks count once each", disks{"data": 1000, "up": 1000}, 500, []string{"up/.tus", "data/x"}, false},
		{"the store's disk below the reserve refuses any write", disks{"data": 50, "up": 1000}, 1, []string{"up/files"}, true},
		{"the store's disk below the reserve refuses even no bytes", disks{"data": 50, "up": 1000}, 0, nil, true},
		{"a disk the reserve does not guard is not held to it", disks{"data": 1000, "up": 1000, "roms": 10}, 500, []string{"roms/nes"}, false},
		{"no directory: bytes that go elsewhere (S3)", disks{"data": 1000, "up": 10}, 5000, []string{""}, false},
		{"a directory that cannot be read is left out", disks{"data": 1000, "up": 1000}, 5000, []string{"gone/x"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := New(min, "data/db", "up").WithStat(tc.disks.stat)
			err := r.Check(tc.n, tc.dirs...)
			if full := errors.Is(err, ErrNoSpace); full != tc.full {
				t.Fatalf("Check(%d, %q) = %v, want full %v", tc.n, tc.dirs, err, tc.full)
			}
		})
	}
}

func TestNoReserveChecksNothing(t *testing.T) {
	full := disks{"data": 0, "up": 0}
	var nilReserve *Reserve
	for name, r := range map[string]*Reserve{"nil": nilReserve, "zero bytes": New(0, "data", "up").WithStat(full.stat)} {
		if err := r.Check(1<<40, "up/x"); err != nil {
			t.Errorf("%s: Check = %v", name, err)
		}
		var b bytes.Buffer
		if w := r.Writer(&b, "up/x"); w != &b {
			t.Errorf("%s: Writer wraps the writer", name)
		}
	}
}

// A stream stops where the reserve begins, before the write that would
// cross it reaches the file, and it reads the free space again as it goes:
// another writer filling the disk meanwhile stops it too.
func TestWriterStopsAtTheReserve(t *testing.T) {
	t.Run("its own bytes", func(t *testing.T) {
		d := disks{"data": 1 << 20, "up": 1000}
		var b bytes.Buffer
		w := New(100, "data", "up").WithStat(d.stat).Writer(&b, "up/x")
		if _, err := w.Write(make([]byte, 900)); err != nil {
			t.Fatal(err)
		}
		d["up"] -= 900
		if n, err := w.Write(make([]byte, 1)); !errors.Is(err, ErrNoSpace) || n != 0 || b.Len() != 900 {
			t.Fatalf("write past the reserve: %d, %v; %d bytes written", n, err, b.Len())
		}
	})
	t.Run("another writer's", func(t *testing.T) {
		d := disks{"data": 1 << 30, "up": 1 << 30}
		var b bytes.Buffer
		w := New(100, "data", "up").WithStat(d.stat).Writer(&b, "up/x")
		chunk := make([]byte, 1<<20)
		written := 0
		var err error
		for range 64 {
			if _, err = w.Write(chunk); err != nil {
				break
			}
			written += len(chunk)
			d["up"] -= int64(len(chunk))
			if written == 8<<20 {
				d["up"] = 100 + 1<<20 // someone else filled the disk
			}
		}
		if !errors.Is(err, ErrNoSpace) {
			t.Fatalf("the stream went on: %v", err)
		}
		// It notices within one re-read of the free space.
		if written > 8<<20+recheckEvery {
			t.Fatalf("wrote %d MiB past the other writer", (written-8<<20)>>20)
		}
	})
}

func TestFullAndWrap(t *testing.T) {
	enospc := &os.PathError{Op: "write", Path: "/srv/devhub/uploads/x", Err: syscall.ENOSPC}
	for _, tc := range []struct {
		err  error
		full bool
	}{
		{enospc, true},
		{fmt.Errorf("copy: %w", &os.PathError{Op: "write", Path: "x", Err: syscall.EDQUOT}), true},
		{ErrNoSpace, true},
		{errors.New("disk on fire"), false},
		{nil, false},
	} {
		if got := Full(tc.err); got != tc.full {
			t.Errorf("Full(%v) = %v", tc.err, got)
		}
		wrapped := Wrap(tc.err)
		if errors.Is(wrapped, ErrNoSpace) != tc.full {
			t.Errorf("Wrap(%v) = %v", tc.err, wrapped)
		}
		if tc.err != nil && !errors.Is(wrapped, tc.err) {
			t.Errorf("Wrap(%v) lost the cause", tc.err)
		}
	}
}
