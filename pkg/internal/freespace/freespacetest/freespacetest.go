// Package freespacetest gives tests a small disk of their own, so what a
// full disk does can be tested: a tmpfs of the asked size where the test
// may mount one (root on Linux), else a directory whose free space is
// simulated — the size less what its files hold — and read through
// freespace's Stat. Either way every test runs; on a real tmpfs a write
// past the end also meets the kernel's ENOSPC. DEVHUB_TEST_SIMULATED_DISK=1
// asks for the simulated disk even where a tmpfs could be mounted.
package freespacetest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/devhub/devhub/pkg/internal/freespace"
)

// Disk is a directory on a small disk.
type Disk struct {
	Dir string
	// Mounted is true for a real tmpfs, false for a simulated disk.
	Mounted bool
	size    int64
}

// simulatedFS is the filesystem id of a simulated disk.
const simulatedFS = 1<<64 - 1

// New makes a disk of size bytes (a whole number of 4 KiB pages), removed
// when the test ends.
func New(t testing.TB, size int64) *Disk {
	t.Helper()
	d := &Disk{Dir: t.TempDir(), size: size}
	if os.Getenv("DEVHUB_TEST_SIMULATED_DISK") == "" {
		err := unix.Mount("tmpfs", d.Dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, fmt.Sprintf("size=%d,mode=0700", size))
		if err == nil {
			d.Mounted = true
			t.Cleanup(func() { unix.Unmount(d.Dir, unix.MNT_DETACH) })
		} else {
			t.Logf("no tmpfs (%v): the disk of %d bytes is simulated", err, size)
		}
	}
	return d
}

// Stat is freespace.Stat on this disk: the kernel's answer on a tmpfs; on a
// simulated disk, the size less the bytes of the files under Dir. Any
// directory elsewhere is read from its real filesystem.
func (d *Disk) Stat(dir string) (uint64, int64, error) {
	if d.Mounted || !d.holds(dir) {
		return freespace.System(dir)
	}
	return simulatedFS, d.size - Usage(d.Dir), nil
}

func (d *Disk) holds(dir string) bool {
	rel, err := filepath.Rel(d.Dir, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// Reserve keeps min bytes free on the filesystems of store and guarded,
// reading this disk through Stat.
func (d *Disk) Reserve(min int64, store string, guarded ...string) *freespace.Reserve {
	return freespace.New(min, store, guarded...).WithStat(d.Stat)
}

// Free is the bytes Stat says are free on the disk.
func (d *Disk) Free(t testing.TB) int64 {
	t.Helper()
	_, avail, err := d.Stat(d.Dir)
	if err != nil {
		t.Fatal(err)
	}
	return avail
}

// Fill writes a file of other data to the disk that leaves about free bytes
// free (to within a page), as another program filling the disk would.
func (d *Disk) Fill(t testing.TB, free int64) {
	t.Helper()
	n := d.Free(t) - free
	if n <= 0 {
		return
	}
	f, err := os.CreateTemp(d.Dir, "filler-*")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 1<<20)
	for n > 0 {
		m := min(n, int64(len(chunk)))
		if _, err := f.Write(chunk[:m]); err != nil {
			t.Fatal(err)
		}
		n -= m
	}
}

// Usage is the bytes of the regular files under dir (0 when it is gone).
func Usage(dir string) int64 {
	var total int64
	filepath.WalkDir(dir, func(_ string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			if fi, err := e.Info(); err == nil {
				total += fi.Size()
			}
		}
		return nil
	})
	return total
}
