package cli

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
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

// TestRomCommandsThroughRunningServer runs every rom command while a server
// holds the store: they run inside it over the owner socket, and the
// server's own library (what /romserv answers from) sees the changes at once.
func TestRomCommandsThroughRunningServer(t *testing.T) {
	ti := newTestInstance(t)
	romsDir := os.Getenv("DEVHUB_STORAGE_ROMS_DIR")
	romTestFile(t, romsDir, "nes/Alpha.nes", "a")
	_, svc, _ := runningServer(t)

	out, errOut, code := ti.run("", "rom", "scan")
	if code != 0 || !strings.Contains(out, "1 games (1 added") {
		t.Fatalf("scan through the socket: %d %q %q", code, out, errOut)
	}
	// A relative FILE is resolved against the caller's directory, not the server's.
	cwd := t.TempDir()
	romTestFile(t, cwd, "Марио.nes", "m")
	romTestFile(t, cwd, "cover.webp", "w")
	var outb, errb strings.Builder
	env := &Env{In: strings.NewReader(""), Out: &outb, Err: &errb, Cwd: cwd, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if code := run(context.Background(), env, []string{"rom", "add", "Марио.nes", "--console", "famicom", "--image", "cover.webp", "--json"}); code != 0 {
		t.Fatalf("add through the socket: %d %q", code, errb.String())
	}
	var added roms.Game
	if err := json.Unmarshal([]byte(outb.String()), &added); err != nil {
		t.Fatalf("%v in %q", err, outb.String())
	}
	page, err := svc.Roms.Games("nes", roms.Query{Search: "МАРИО"})
	if err != nil || page.Total != 1 || page.Games[0].ID != added.ID || page.Games[0].ImagePath != "/nes/images/Марио.webp" {
		t.Fatalf("the server does not see the added ROM: %+v %v", page, err)
	}
	out, _, code = ti.run("", "rom", "list", "--console", "nes", "--json")
	var games []roms.Game
	if code != 0 || json.Unmarshal([]byte(out), &games) != nil || len(games) != 2 {
		t.Fatalf("list through the socket: %d %q", code, out)
	}
	out, _, code = ti.run("", "rom", "consoles")
	if code != 0 || !strings.Contains(out, "fceumm") || !strings.Contains(out, "2") {
		t.Fatalf("consoles through the socket: %d %q", code, out)
	}
	// Bad input answers on stderr with a non-zero exit, as when run locally.
	for _, bad := range []struct {
		args []string
		msg  string
	}{
		{[]string{"rom", "rm", "12345"}, "no ROM with id 12345"},
		{[]string{"rom", "add", filepath.Join(cwd, "Марио.nes"), "--console", "nes"}, "already in the library"},
		{[]string{"rom", "add", filepath.Join(cwd, "missing.nes"), "--console", "nes"}, "cannot read"},
		{[]string{"rom", "list", "--console", "psx"}, `no console "psx"`},
	} {
		if _, errOut, code := ti.run("", bad.args...); code == 0 || !strings.Contains(errOut, bad.msg) {
			t.Errorf("%v through the socket: %d %q, want %q", bad.args, code, errOut, bad.msg)
		}
	}
	if _, errOut, code := ti.run("", "rom", "rm", itoa(added.ID)); code != 0 {
		t.Fatalf("rm through the socket: %q", errOut)
	}
	if _, err := svc.Roms.Get(added.ID); err == nil {
		t.Fatal("the server still lists the removed ROM")
	}
	if _, err := os.Stat(filepath.Join(romsDir, "nes", "Марио.nes")); !os.IsNotExist(err) {
		t.Fatalf("ROM file still there: %v", err)
	}
}

// TestServeStartupScansRoms checks the wiring: serve's once-per-start work
// indexes roms/, so files copied in while the server was down are listed.
func TestServeStartupScansRoms(t *testing.T) {
	newTestInstance(t)
	romsDir := os.Getenv("DEVHUB_STORAGE_ROMS_DIR")
	romTestFile(t, romsDir, "nes/Copied_In.nes", "c")
	romTestFile(t, romsDir, "genesis/Sonic.md", "s")
	_, svc := openInstance(t)
	defer svc.Close()
	if n := len(svc.Roms.Consoles()); n != 0 {
		t.Fatalf("indexed before start-up: %d consoles", n)
	}
	if err := svc.startup(context.Background()); err != nil {
		t.Fatal(err)
	}
	page, err := svc.Roms.Games("nes", roms.Query{})
	if err != nil || page.Total != 1 || page.Games[0].Name != "Copied In" {
		t.Fatalf("nes after start-up: %+v %v", page, err)
	}
	if page, err := svc.Roms.Games("megadrive", roms.Query{}); err != nil || page.Total != 1 {
		t.Fatalf("megadrive (roms/genesis) after start-up: %+v %v", page, err)
	}
}
