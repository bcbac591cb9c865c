//go:build unix

package freespace

import (
	"errors"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// statFS reads the device and the free space (for an unprivileged writer:
// f_bavail) of dir's filesystem; a directory not made yet is read at its
// nearest existing parent.
func statFS(dir string) (uint64, int64, error) {
	for {
		var st unix.Stat_t
		err := unix.Stat(dir, &st)
		if errors.Is(err, unix.ENOENT) && filepath.Dir(dir) != dir {
			dir = filepath.Dir(dir)
			continue
		}
		if err != nil {
			return 0, 0, err
		}
		var fs unix.Statfs_t
		if err := unix.Statfs(dir, &fs); err != nil {
			return 0, 0, err
		}
		return uint64(st.Dev), int64(fs.Bavail) * int64(fs.Bsize), nil
	}
}
