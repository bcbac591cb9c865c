package roms

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/devhub/devhub/pkg/store"
)

func TestOpen(t *testing.T) {
	s, root := newTestService(t)
	writeFile(t, root, "nes/Game.nes", "NES")
	writeFile(t, root, "nes/images/Game.png", "PNG")
	writeFile(t, root, "nes/.hidden.nes", "hidden")
	writeFile(t, filepath.Dir(root), "secret.txt", "TOP SECRET")
	if err := os.Symlink(filepath.Join(filepath.Dir(root), "secret.txt"), filepath.Join(root, "nes", "escape.nes")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("Game.nes", filepath.Join(root, "nes", "inside.nes")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rel, want string // want "" = not found
	}{
		{"nes/Game.nes", "NES"},
		{"nes/images/Game.png", "PNG"},
		{"nes/inside.nes", "NES"},
		{"", ""},
		{"nes", ""},
		{"nes/", ""},
		{"nes//Game.nes", ""},
		{"nes/.hidden.nes", ""},
		{"./nes/Game.nes", ""},
		{"../secret.txt", ""},
		{"nes/../../secret.txt", ""},
		{"nes/escape.nes", ""},
		{"/etc/passwd", ""},
		{"nes\\Game.nes", ""},
		{"nes/Game.nes\x00", ""},
		{"nes/Missing.nes", ""},
	} {
		t.Run(tc.rel, func(t *testing.T) {
			f, fi, err := s.Open(tc.rel)
			if tc.want == "" {
				if !errors.Is(err, store.ErrNotFound) {
					t.Fatalf("Open(%q) = %v, want not found", tc.rel, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got, _ := io.ReadAll(f)
			if string(got) != tc.want || fi.Size() != int64(len(tc.want)) {
				t.Fatalf("Open(%q) = %q (%d bytes), want %q", tc.rel, got, fi.Size(), tc.want)
			}
		})
	}
}
