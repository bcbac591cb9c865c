package resumable

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// stage writes name into dir, last changed age ago.
func stage(t *testing.T, dir, name string, age time.Duration) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	then := time.Now().Add(-age)
	if err := os.Chtimes(p, then, then); err != nil {
		t.Fatal(err)
	}
}

// The sweep removes expired uploads (bytes and record), a record whose
// bytes are gone once it is old, and never a name staging does not make.
func TestSweep(t *testing.T) {
	id := func(c string) string { return strings.Repeat(c, 32) }
	tests := []struct {
		name  string
		files map[string]time.Duration // name → age
		want  int                      // uploads removed
		left  []string
	}{
		{"fresh upload stays", map[string]time.Duration{id("a"): time.Minute, id("a") + ".info": time.Minute}, 0,
			[]string{id("a"), id("a") + ".info"}},
		{"expired upload goes", map[string]time.Duration{id("b"): 2 * time.Hour, id("b") + ".info": 2 * time.Hour}, 1, nil},
		{"young record without bytes stays", map[string]time.Duration{id("c") + ".info": time.Minute}, 0,
			[]string{id("c") + ".info"}},
		{"old record without bytes goes", map[string]time.Duration{id("d") + ".info": 2 * time.Hour}, 0, nil},
		{"other names stay", map[string]time.Duration{"notes.txt": 2 * time.Hour, "ABC.info": 2 * time.Hour}, 0,
			[]string{"ABC.info", "notes.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := Dir(t.TempDir())
			s, err := New(Options{Dir: dir, Expiry: time.Hour, Log: slog.New(slog.DiscardHandler)})
			if err != nil {
				t.Fatal(err)
			}
			for name, age := range tt.files {
				stage(t, dir, name, age)
			}
			if n := s.Sweep(); n != tt.want {
				t.Errorf("Sweep() = %d, want %d", n, tt.want)
			}
			var left []string
			es, _ := os.ReadDir(dir)
			for _, e := range es {
				left = append(left, e.Name())
			}
			if strings.Join(left, ",") != strings.Join(tt.left, ",") {
				t.Errorf("left %v, want %v", left, tt.left)
			}
		})
	}
}

// DropLegacy empties the old staging beside the store of staged names only,
// and removes it once empty.
func TestDropLegacy(t *testing.T) {
	id := strings.Repeat("e", 32)
	tests := []struct {
		name    string
		files   []string
		dirGone bool
	}{
		{"only staged names", []string{id, id + ".info"}, true},
		{"a stranger keeps the directory", []string{id, "keep.me"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "tus")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			for _, f := range tt.files {
				stage(t, dir, f, 0)
			}
			DropLegacy(dir, slog.New(slog.DiscardHandler))
			_, err := os.Stat(dir)
			if gone := os.IsNotExist(err); gone != tt.dirGone {
				t.Fatalf("directory gone %v, want %v", gone, tt.dirGone)
			}
			if !tt.dirGone {
				if _, err := os.Stat(filepath.Join(dir, id)); !os.IsNotExist(err) {
					t.Errorf("staged bytes kept: %v", err)
				}
			}
		})
	}
}
