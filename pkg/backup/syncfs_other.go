//go:build !linux

package backup

import (
	"io/fs"
	"os"
	"path/filepath"
)

// syncTree makes every file written under dir durable, one fsync each.
func syncTree(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		return f.Sync()
	})
}
