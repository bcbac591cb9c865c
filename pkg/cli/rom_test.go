package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/roms"
)

func romTestFile(t *testing.T, dir, rel, content string) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRomCommands(t *testing.T) {
	ti := newTestInstance(t)
	romsDir := os.Getenv("DEVHUB_STORAGE_ROMS_DIR")
	romTestFile(t, romsDir, "nes/Alpha.nes", "a")
	romTestFile(t, romsDir, "nes/notes.txt", "x")
	romTestFile(t, romsDir, "genesis/Sonic.md", "m")

	out, errOut, code := ti.run("", "rom", "scan")
	if code != 0 || !strings.Contains(out, "2 games (2 added, 0 updated, 0 removed, 1 skipped)") || !strings.Contains(errOut, "skipped nes/notes.txt") {
		t.Fatalf("scan: %d %q %q", code, out, errOut)
	}

	src := t.TempDir()
	rom := romTestFile(t, src, "Танчики.nes", "tanks")
	cover := romTestFile(t, src, "cover.png", "png")
	out, errOut, code = ti.run("", "rom", "add", rom, "--console", "nes", "--name", "Танчики 1990", "--image", cover, "--json")
	if code != 0 {
		t.Fatalf("add: %d %q %q", code, out, errOut)
	}
	var added roms.Game
	if err := json.Unmarshal([]byte(out), &added); err != nil {
		t.Fatal(err)
	}
	if added.Name != "Танчики 1990" || added.Path != "/nes/Танчики.nes" || !added.HasImage {
		t.Errorf("added = %+v", added)
	}
	if _, err := os.Stat(filepath.Join(romsDir, "nes", "images", "Танчики.png")); err != nil {
		t.Errorf("cover not copied: %v", err)
	}

	out, _, code = ti.run("", "rom", "list", "--console", "nes", "--json")
	var games []roms.Game
	if code != 0 || json.Unmarshal([]byte(out), &games) != nil || len(games) != 2 {
		t.Fatalf("list --json: %d %q", code, out)
	}
	out, _, code = ti.run("", "rom", "list", "--console", "sega")
	if code != 0 || !strings.Contains(out, "Sonic") || strings.Contains(out, "Alpha") {
		t.Errorf("list by alias: %d %q", code, out)
	}
	out, _, code = ti.run("", "rom", "list")
	if code != 0 || !strings.Contains(out, "Танчики 1990") || !strings.Contains(out, "/nes/images/Танчики.png") {
		t.Errorf("list: %q", out)
	}

	out, _, code = ti.run("", "rom", "consoles", "--json")
	var cons []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &cons) != nil || len(cons) != 2 || cons[0]["id"] != "nes" || cons[0]["games"] != float64(2) || cons[1]["core"] != "genesis_plus_gx" {
		t.Errorf("consoles: %d %q", code, out)
	}
	out, _, code = ti.run("", "rom", "consoles", "--all")
	if code != 0 || !strings.Contains(out, "pcsx_rearmed") {
		t.Errorf("consoles --all: %q", out)
	}

	out, _, code = ti.run("", "rom", "rm", itoa(added.ID))
	if code != 0 || !strings.Contains(out, "removed") {
		t.Errorf("rm: %d %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(romsDir, "nes", "Танчики.nes")); !os.IsNotExist(err) {
		t.Errorf("ROM file still there: %v", err)
	}

	bad := []struct {
		name string
		args []string
		msg  string
	}{
		{"rm unknown id", []string{"rom", "rm", "999"}, "no ROM with id 999"},
		{"rm bad id", []string{"rom", "rm", "abc"}, "invalid ROM id"},
		{"add without console", []string{"rom", "add", rom}, `required flag(s) "console" not set`},
		{"add unknown console", []string{"rom", "add", rom, "--console", "nintendo99"}, "unknown console"},
		{"add wrong extension", []string{"rom", "add", cover, "--console", "nes"}, "does not run"},
		{"add twice", []string{"rom", "add", filepath.Join(romsDir, "nes", "Alpha.nes"), "--console", "nes"}, "already in the library"},
		{"list unknown console", []string{"rom", "list", "--console", "psx"}, `no console "psx"`},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := ti.run("", tt.args...)
			if code == 0 || !strings.Contains(errOut, tt.msg) {
				t.Errorf("%v: code %d stderr %q, want %q", tt.args, code, errOut, tt.msg)
			}
		})
	}
}

func itoa(n uint64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
