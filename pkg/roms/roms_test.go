package roms

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/store/storetest"
)

func newTestService(t testing.TB) (*Service, string) {
	t.Helper()
	st := storetest.Open(t)
	root := filepath.Join(t.TempDir(), "roms")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := New(st, root)
	if err != nil {
		t.Fatal(err)
	}
	return s, root
}

func writeFile(t testing.TB, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustScan(t testing.TB, s *Service) ScanReport {
	t.Helper()
	rep, err := s.Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestConsoleTable(t *testing.T) {
	tests := []struct{ name, core string }{
		{"nes", "fceumm"},
		{"snes", "snes9x"},
		{"megadrive", "genesis_plus_gx"},
		{"sega", "genesis_plus_gx"},
		{"Genesis", "genesis_plus_gx"},
		{"segaMD", "genesis_plus_gx"},
		{"gb", "gambatte"},
		{"gbc", "gambatte"},
		{"gba", "mgba"},
		{"psx", "pcsx_rearmed"},
		{"atari2600", "stella2014"},
		{"atari7800", "prosystem"},
		{"32x", "picodrive"},
		{"n64", "mupen64plus_next"},
		{"vb", "beetle_vb"},
		{"something-else", "fceumm"},
		{"", "fceumm"},
	}
	for _, tt := range tests {
		if got := CoreFor(tt.name); got != tt.core {
			t.Errorf("CoreFor(%q) = %q, want %q", tt.name, got, tt.core)
		}
	}
	seen := map[string]bool{}
	for _, c := range KnownConsoles() {
		for _, n := range append([]string{c.ID}, c.Aliases...) {
			if seen[n] {
				t.Errorf("console name %q appears twice", n)
			}
			seen[n] = true
			if !folderNameRE.MatchString(n) {
				t.Errorf("console name %q is not a valid folder name", n)
			}
		}
		if c.Name == "" || c.ShortName == "" || c.Core == "" || len(c.Extensions) == 0 {
			t.Errorf("console %q is incomplete: %+v", c.ID, c)
		}
	}
}

func TestScanIndexesAndReports(t *testing.T) {
	s, root := newTestService(t)
	writeFile(t, root, "nes/Super_Game.nes", "a")
	writeFile(t, root, "nes/images/Super_Game.png", "png")
	writeFile(t, root, "nes/images/Super_Game.jpg", "jpg") // png wins
	writeFile(t, root, "nes/readme.txt", "x")
	writeFile(t, root, "nes/sub/Deep.nes", "b")
	writeFile(t, root, "nes/.hidden.nes", "c")
	writeFile(t, root, "genesis/Sonic.md", "d")
	writeFile(t, root, "megadrive/Other.bin", "e")
	writeFile(t, root, "homebrew/Thing.nes", "f")
	writeFile(t, root, "Bad Folder/x.nes", "g")
	writeFile(t, root, "loose.nes", "h")
	empty := filepath.Join(root, "snes")
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}

	rep := mustScan(t, s)
	if rep.Added != 5 || rep.Total != 5 || rep.Removed != 0 {
		t.Fatalf("report = %+v", rep)
	}
	skipped := map[string]bool{}
	for _, sk := range rep.Skipped {
		skipped[sk.Path] = true
	}
	for _, p := range []string{"nes/readme.txt", "Bad Folder", "loose.nes"} {
		if !skipped[p] {
			t.Errorf("%s not reported as skipped: %+v", p, rep.Skipped)
		}
	}

	var ids []string
	for _, c := range s.Consoles() {
		ids = append(ids, fmt.Sprintf("%s:%d", c.ID, c.Games))
	}
	if got, want := fmt.Sprint(ids), "[nes:2 snes:0 megadrive:2 homebrew:1]"; got != want {
		t.Errorf("consoles = %s, want %s", got, want)
	}
	hb, _ := s.Console("homebrew")
	if hb.Core != "fceumm" || hb.Known {
		t.Errorf("unknown folder console = %+v, want the NES core", hb)
	}

	page, err := s.Games("nes", Query{})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 2 || page.Games[0].Name != "Deep" || page.Games[1].Name != "Super Game" {
		t.Fatalf("nes games = %+v", page)
	}
	g := page.Games[1]
	if g.Path != "/nes/Super_Game.nes" || !g.HasImage || g.ImagePath != "/nes/images/Super_Game.png" || g.Console != "nes" {
		t.Errorf("game = %+v", g)
	}
	if page.Games[0].HasImage || page.Games[0].ImagePath != "" {
		t.Errorf("game without cover = %+v", page.Games[0])
	}
	md, _ := s.Games("megadrive", Query{})
	if md.Total != 2 {
		t.Errorf("alias folder not merged into megadrive: %+v", md)
	}
	if _, err := s.Games("psx", Query{}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("console without folder: err = %v, want ErrNotFound", err)
	}
}

func TestRescanKeepsIDsAndDropsRemoved(t *testing.T) {
	s, root := newTestService(t)
	writeFile(t, root, "nes/a.nes", "a")
	writeFile(t, root, "nes/b.nes", "b")
	writeFile(t, root, "nes/c.nes", "c")
	mustScan(t, s)
	before := map[string]uint64{}
	all, _ := s.All("")
	for _, g := range all {
		before[g.Path] = g.ID
	}

	if err := os.Remove(filepath.Join(root, "nes/b.nes")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "nes/c.nes", "changed content")
	writeFile(t, root, "nes/d.nes", "d")
	rep := mustScan(t, s)
	if rep.Added != 1 || rep.Removed != 1 || rep.Updated != 1 || rep.Total != 3 {
		t.Errorf("report = %+v", rep)
	}
	after := map[string]uint64{}
	all, _ = s.All("")
	for _, g := range all {
		after[g.Path] = g.ID
	}
	for _, p := range []string{"/nes/a.nes", "/nes/c.nes"} {
		if after[p] != before[p] || after[p] == 0 {
			t.Errorf("%s: id %d → %d, want stable", p, before[p], after[p])
		}
	}
	if _, ok := after["/nes/b.nes"]; ok {
		t.Error("removed file still listed")
	}
	if after["/nes/d.nes"] <= before["/nes/c.nes"] {
		t.Errorf("new file id %d should be new", after["/nes/d.nes"])
	}
	// An unchanged rescan changes nothing.
	if rep := mustScan(t, s); rep.Added+rep.Removed+rep.Updated != 0 {
		t.Errorf("idle rescan = %+v", rep)
	}

	// A fresh service on the same store sees the same library without scanning.
	s2, err := New(s.st, root)
	if err != nil {
		t.Fatal(err)
	}
	all2, _ := s2.All("")
	if len(all2) != 3 || all2[0].ID != all[0].ID {
		t.Errorf("reloaded library = %+v", all2)
	}
}

func TestGamesSearchAndPaging(t *testing.T) {
	s, root := newTestService(t)
	for i := 0; i < 250; i++ {
		writeFile(t, root, fmt.Sprintf("nes/game%03d.nes", i), "x")
	}
	writeFile(t, root, "nes/Супер Марио.nes", "x")
	writeFile(t, root, "nes/МАРІО Ігри.nes", "x")
	writeFile(t, root, "nes/Straße Fighter.nes", "x")
	mustScan(t, s)

	tests := []struct {
		name      string
		q         Query
		total     int
		n         int
		first     string
		wantPage  int
		wantLimit int
	}{
		{"defaults", Query{}, 253, 100, "game000", 1, 100},
		{"page 3", Query{Page: 3}, 253, 53, "game200", 3, 100},
		{"past the end", Query{Page: 9}, 253, 0, "", 9, 100},
		{"small limit", Query{Page: 2, Limit: 10}, 253, 10, "game010", 2, 10},
		{"limit capped", Query{Limit: 100000}, 253, 253, "game000", 1, MaxLimit},
		{"negative page", Query{Page: -4}, 253, 100, "game000", 1, 100},
		// (page-1)*limit must not overflow: to a negative offset (a panic
		// in the slice) or round to the first page.
		{"absurd page", Query{Page: math.MaxInt, Limit: 2}, 253, 0, "", math.MaxInt, 2},
		{"page whose offset wraps to 0", Query{Page: 1<<56 + 1, Limit: 256}, 253, 0, "", 1<<56 + 1, 256},
		{"absurd page of a search", Query{Search: "game", Page: 1<<56 + 1, Limit: 256}, 250, 0, "", 1<<56 + 1, 256},
		{"cyrillic lower finds upper", Query{Search: "марио"}, 1, 1, "Супер Марио", 1, 100},
		{"cyrillic upper finds lower", Query{Search: "СУПЕР"}, 1, 1, "Супер Марио", 1, 100},
		{"ukrainian letters", Query{Search: "іГРИ"}, 1, 1, "МАРІО Ігри", 1, 100},
		{"every word must match", Query{Search: "супер  марио"}, 1, 1, "Супер Марио", 1, 100},
		{"full case folding ß", Query{Search: "STRASSE"}, 1, 1, "Straße Fighter", 1, 100},
		{"latin", Query{Search: "GAME24"}, 10, 10, "game240", 1, 100},
		{"search paged", Query{Search: "game", Page: 2, Limit: 100}, 250, 100, "game100", 2, 100},
		{"no match", Query{Search: "zelda"}, 0, 0, "", 1, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := s.Games("nes", tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if p.Total != tt.total || len(p.Games) != tt.n || p.Page != tt.wantPage || p.Limit != tt.wantLimit {
				t.Fatalf("got total %d, %d games, page %d, limit %d", p.Total, len(p.Games), p.Page, p.Limit)
			}
			if tt.n > 0 && p.Games[0].Name != tt.first {
				t.Errorf("first = %q, want %q", p.Games[0].Name, tt.first)
			}
		})
	}
}

// Games search shares the blog's folding (ё is е) and ranks names holding
// the search as a phrase of whole words before the others, then by name.
func TestGamesSearchFoldAndRank(t *testing.T) {
	s, root := newTestService(t)
	for _, n := range []string{"Ёжик в тумане", "Mega Quest 80", "A Mega Quest 8", "Mega Quest 8", "Quest Mega 8"} {
		writeFile(t, root, "nes/"+n+".nes", "x")
	}
	mustScan(t, s)
	tests := []struct {
		search string
		want   string
	}{
		{"ёжик", "Ёжик в тумане"},
		{"ежик", "Ёжик в тумане"},
		{"ЁЖИК", "Ёжик в тумане"},
		{"mega quest 8", "A Mega Quest 8|Mega Quest 8|Mega Quest 80|Quest Mega 8"},
		{"quest", "A Mega Quest 8|Mega Quest 8|Mega Quest 80|Quest Mega 8"},
	}
	for _, tt := range tests {
		t.Run(tt.search, func(t *testing.T) {
			p, err := s.Games("nes", Query{Search: tt.search})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, g := range p.Games {
				got = append(got, g.Name)
			}
			if strings.Join(got, "|") != tt.want || p.Total != len(got) {
				t.Errorf("got %v (total %d), want %s", got, p.Total, tt.want)
			}
		})
	}
}

func TestAddAndRemove(t *testing.T) {
	s, root := newTestService(t)
	src := t.TempDir()
	writeFile(t, src, "My_Game.nes", "rom bytes")
	writeFile(t, src, "cover.png", "png bytes")
	writeFile(t, src, "notes.txt", "x")
	writeFile(t, src, "Sonic.md", "md")

	g, err := s.Add(context.Background(), AddInput{Source: filepath.Join(src, "My_Game.nes"), Console: "nes", Name: "Моя гра", Image: filepath.Join(src, "cover.png")})
	if err != nil {
		t.Fatal(err)
	}
	if g.Name != "Моя гра" || g.Path != "/nes/My_Game.nes" || !g.HasImage || g.ImagePath != "/nes/images/My_Game.png" {
		t.Errorf("added game = %+v", g)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "nes/My_Game.nes")); string(b) != "rom bytes" {
		t.Errorf("copied ROM = %q", b)
	}
	// The custom name survives a rescan.
	mustScan(t, s)
	if got, _ := s.Get(g.ID); got.Name != "Моя гра" {
		t.Errorf("name after rescan = %q", got.Name)
	}
	// An alias puts the ROM in the console's own folder.
	md, err := s.Add(context.Background(), AddInput{Source: filepath.Join(src, "Sonic.md"), Console: "genesis"})
	if err != nil {
		t.Fatal(err)
	}
	if md.Console != "megadrive" || md.Path != "/megadrive/Sonic.md" {
		t.Errorf("alias add = %+v", md)
	}

	bad := []struct {
		name  string
		in    AddInput
		field string
		err   error
	}{
		{"no console", AddInput{Source: filepath.Join(src, "My_Game.nes")}, "console", nil},
		{"unknown console", AddInput{Source: filepath.Join(src, "My_Game.nes"), Console: "nintendo99"}, "console", nil},
		{"wrong extension", AddInput{Source: filepath.Join(src, "notes.txt"), Console: "nes"}, "file", nil},
		{"missing file", AddInput{Source: filepath.Join(src, "nope.nes"), Console: "nes"}, "file", nil},
		{"bad cover type", AddInput{Source: filepath.Join(src, "My_Game.nes"), Console: "nes", Image: filepath.Join(src, "notes.txt")}, "image", nil},
		{"already there", AddInput{Source: filepath.Join(src, "My_Game.nes"), Console: "nes"}, "", store.ErrConflict},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Add(context.Background(), tt.in)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("err = %v, want %v", err, tt.err)
				}
				return
			}
			var verr *store.ValidationError
			if !errors.As(err, &verr) {
				t.Fatalf("err = %v, want a validation error", err)
			}
			if _, ok := verr.Fields[tt.field]; !ok {
				t.Errorf("fields = %v, want %s", verr.Fields, tt.field)
			}
		})
	}

	if _, err := s.Remove(context.Background(), g.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "nes/My_Game.nes")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ROM file still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "nes/images/My_Game.png")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("cover still there: %v", err)
	}
	if _, err := s.Get(g.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("removed game still found: %v", err)
	}
	if _, err := s.Remove(context.Background(), g.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("second remove: %v", err)
	}
}

func TestMissingRomsDirIsEmpty(t *testing.T) {
	s, root := newTestService(t)
	os.RemoveAll(root)
	rep := mustScan(t, s)
	if rep.Total != 0 || len(s.Consoles()) != 0 {
		t.Errorf("report %+v consoles %v", rep, s.Consoles())
	}
}

func TestSymlinksAreSkipped(t *testing.T) {
	s, root := newTestService(t)
	outside := t.TempDir()
	writeFile(t, outside, "secret.nes", "x")
	writeFile(t, root, "nes/ok.nes", "x")
	if err := os.Symlink(filepath.Join(outside, "secret.nes"), filepath.Join(root, "nes/link.nes")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "linked")); err != nil {
		t.Fatal(err)
	}
	rep := mustScan(t, s)
	if rep.Total != 1 || len(rep.Skipped) != 2 {
		t.Errorf("report = %+v", rep)
	}
}

func TestSpecCoreNames(t *testing.T) {
	for _, tc := range []struct{ core, want string }{
		{"fceumm", "nes"},
		{"snes9x", "snes"},
		{"gambatte", "gb gbc"},
		{"mgba", "gba"},
		{"genesis_plus_gx", "segaCD segaGG segaMD segaMS"},
		{"picodrive", "sega32x"},
		{"notacore", ""},
	} {
		if got := strings.Join(SpecCoreNames(tc.core), " "); got != tc.want {
			t.Errorf("SpecCoreNames(%q) = %q, want %q", tc.core, got, tc.want)
		}
	}
	for name, id := range specCores { // every spec name stands for a console of the table
		if _, ok := consoleByID[id]; !ok {
			t.Errorf("spec core %q → unknown console %q", name, id)
		}
	}
}

// Scan, Add and Remove honour their context: cancelled, they change
// nothing on disk or in the index.
func TestWritesHonourContext(t *testing.T) {
	s, root := newTestService(t)
	writeFile(t, root, "nes/Kept.nes", "NES")
	mustScan(t, s)
	writeFile(t, root, "nes/Later.nes", "NES")
	src := t.TempDir()
	writeFile(t, src, "New.nes", "NES")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Scan(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("scan: %v", err)
	}
	if _, err := s.Add(ctx, AddInput{Source: filepath.Join(src, "New.nes"), Console: "nes"}); !errors.Is(err, context.Canceled) {
		t.Errorf("add: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "nes", "New.nes")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a cancelled add copied the ROM: %v", err)
	}
	all, _ := s.All("nes")
	if len(all) != 1 || all[0].Path != "/nes/Kept.nes" {
		t.Fatalf("after cancelled scan and add: %+v", all)
	}
	if _, err := s.Remove(ctx, all[0].ID); !errors.Is(err, context.Canceled) {
		t.Errorf("remove: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "nes", "Kept.nes")); err != nil {
		t.Errorf("a cancelled remove deleted the ROM: %v", err)
	}
}
