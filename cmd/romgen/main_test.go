package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestShippedROMsMatchTheSource: roms/ holds exactly what romgen assembles
// from this source — no third-party ROM, no stale build, nothing extra.
func TestShippedROMsMatchTheSource(t *testing.T) {
	root := filepath.Join("..", "..", "roms")
	want := romFiles()
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		seen[rel] = true
		data, ok := want[rel]
		if !ok {
			t.Errorf("roms/%s is not written by romgen", rel)
			return nil
		}
		got, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !bytes.Equal(got, data) {
			t.Errorf("roms/%s differs from romgen's output: run `go run ./cmd/romgen`", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel := range want {
		if !seen[rel] {
			t.Errorf("roms/%s is missing: run `go run ./cmd/romgen`", rel)
		}
	}
}

// The NES game is a valid iNES image the fceumm core accepts: NROM
// (mapper 0), one 16 KiB PRG bank and one 8 KiB CHR bank, and reset/NMI
// vectors that point into the PRG bank.
func TestCoinCatcherHeader(t *testing.T) {
	rom := nesROM()
	if len(rom) != 16+16384+8192 || string(rom[:4]) != "NES\x1a" || rom[4] != 1 || rom[5] != 1 || rom[6]&0xF0 != 0 || rom[7]&0xF0 != 0 {
		t.Fatalf("header % x, size %d", rom[:16], len(rom))
	}
	prg := rom[16 : 16+16384]
	for _, v := range []int{0x3FFA, 0x3FFC} { // NMI, RESET (the bank is mirrored at $C000)
		addr := int(prg[v]) | int(prg[v+1])<<8
		if addr < 0x8000 {
			t.Errorf("vector at $%04X = $%04X, outside PRG", 0xC000+v, addr)
		}
	}
}
