package roms

import (
	"os"
	"strings"

	"github.com/devhub/devhub/pkg/store"
)

// Open opens a file of the library — a ROM or a cover image — by its path
// relative to roms/ ("nes/images/Game.png"), for reading. Empty, "." and ".."
// segments, hidden names, anything that is not a regular file and anything
// a symbolic link leads to outside roms/ (refused by os.Root) are
// store.ErrNotFound: the library has no such file. The caller closes the
// file.
func (s *Service) Open(rel string) (*os.File, os.FileInfo, error) {
	if rel == "" || strings.ContainsAny(rel, "\x00\\") {
		return nil, nil, store.ErrNotFound
	}
	for _, seg := range strings.Split(rel, "/") {
		if seg == "" || strings.HasPrefix(seg, ".") {
			return nil, nil, store.ErrNotFound
		}
	}
	root, err := os.OpenRoot(s.root)
	if err != nil {
		return nil, nil, store.ErrNotFound
	}
	defer root.Close()
	f, err := root.Open(rel)
	if err != nil {
		return nil, nil, store.ErrNotFound
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, store.ErrNotFound
	}
	return f, fi, nil
}
