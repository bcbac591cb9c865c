package roms

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/store"
)

// TestUploadReplace: a ROM of a file name the console's folder holds is an
// *ExistsError (store.ErrConflict) that names no server path, unless the
// upload replaces it: then the new bytes are in place and the game keeps its
// id and its display name. A folder of that name is never replaced.
func TestUploadReplace(t *testing.T) {
	cases := []struct {
		name    string
		file    string
		replace bool
		// wantSame: the game that was there keeps its id.
		wantSame bool
		wantErr  bool
	}{
		{"the name is taken", "Old.nes", false, false, true},
		{"replaced", "Old.nes", true, true, false},
		{"a folder of that name", "Dir.nes", true, false, true},
		{"replace with nothing there adds", "New.nes", true, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, root := newTestService(t)
			writeFile(t, root, "nes/Old.nes", "old bytes")
			if err := os.MkdirAll(filepath.Join(root, "nes", "Dir.nes"), 0o755); err != nil {
				t.Fatal(err)
			}
			mustScan(t, s)
			old := mustAll(t, s)[0]
			if err := s.setName("nes/Old.nes", "Named by the owner"); err != nil {
				t.Fatal(err)
			}
			g, err := s.Upload(context.Background(), UploadInput{FileName: tc.file, Console: "nes",
				Body: strings.NewReader("new bytes"), MaxBytes: 100, Replace: tc.replace})
			if tc.wantErr {
				var exists *ExistsError
				if !errors.As(err, &exists) || !errors.Is(err, store.ErrConflict) || strings.Contains(err.Error(), root) {
					t.Fatalf("err = %v, want an ExistsError naming no server path", err)
				}
				if b, _ := os.ReadFile(filepath.Join(root, "nes", "Old.nes")); string(b) != "old bytes" {
					t.Fatalf("the ROM there changed: %q", b)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(filepath.Join(root, "nes", tc.file)); string(b) != "new bytes" {
				t.Fatalf("stored %q", b)
			}
			if tc.wantSame && (g.ID != old.ID || g.Name != "Named by the owner" || len(mustAll(t, s)) != 1) {
				t.Fatalf("replaced game %+v, was %+v; library %+v", g, old, mustAll(t, s))
			}
			left, _ := filepath.Glob(filepath.Join(root, "nes", ".devhub-add-*"))
			if len(left) != 0 {
				t.Fatalf("temp files left: %v", left)
			}
		})
	}
}

func mustAll(t *testing.T, s *Service) []Game {
	t.Helper()
	all, err := s.All("nes")
	if err != nil {
		t.Fatal(err)
	}
	return all
}
