package roms

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// benchLibrary writes n ROM files (a tenth of them with covers) into one
// console folder and scans them.
func benchLibrary(b *testing.B, n int) (*Service, string) {
	b.Helper()
	s, root := newTestService(b)
	dir := filepath.Join(root, "nes")
	if err := os.MkdirAll(filepath.Join(dir, "images"), 0o755); err != nil {
		b.Fatal(err)
	}
	words := []string{"Super", "Mega", "Ultra", "Марио", "Танки", "Ігри", "Quest", "Fighter", "Racer", "Puzzle"}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("%s %s %05d.nes", words[i%len(words)], words[(i/10)%len(words)], i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte{byte(i)}, 0o644); err != nil {
			b.Fatal(err)
		}
		if i%10 == 0 {
			img := filepath.Join(dir, "images", name[:len(name)-4]+".png")
			if err := os.WriteFile(img, []byte{1}, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return s, root
}

// BenchmarkScan20k measures a first scan of 20 000 ROM files (budget: 2 s).
func BenchmarkScan20k(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		s, _ := benchLibrary(b, 20000)
		b.StartTimer()
		rep, err := s.Scan(context.Background())
		if err != nil || rep.Added != 20000 {
			b.Fatalf("scan: %+v %v", rep, err)
		}
	}
}

// BenchmarkRescan20k measures a rescan with nothing changed.
func BenchmarkRescan20k(b *testing.B) {
	s, _ := benchLibrary(b, 20000)
	if _, err := s.Scan(context.Background()); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Scan(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGames20k measures list and search pages over 20 000 ROMs
// (budget: 5 ms at the median per answer).
func BenchmarkGames20k(b *testing.B) {
	s, _ := benchLibrary(b, 20000)
	if _, err := s.Scan(context.Background()); err != nil {
		b.Fatal(err)
	}
	cases := []struct {
		name string
		q    Query
	}{
		{"list-first-page", Query{Page: 1, Limit: 100}},
		{"list-last-page", Query{Page: 200, Limit: 100}},
		{"search-latin", Query{Search: "mega quest", Limit: 100}},
		{"search-cyrillic", Query{Search: "марио", Page: 5, Limit: 100}},
		{"search-no-match", Query{Search: "zelda"}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Games("nes", c.q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
