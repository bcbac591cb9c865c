package downloads

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/storage"
	"github.com/devhub/devhub/pkg/store"
)

var (
	benchOnce sync.Once
	benchSvc  *Service
)

// benchService is a catalogue of 5 000 entries over both sections, built
// once for every benchmark of the run (each entry is one committed write).
func benchService(b *testing.B, _ int) *Service {
	b.Helper()
	benchOnce.Do(func() { benchSvc = buildBench(b, 5000) })
	if benchSvc == nil {
		b.Fatal("no catalogue")
	}
	return benchSvc
}

func buildBench(b *testing.B, n int) *Service {
	dir, err := os.MkdirTemp("", "devhub-dl-bench-")
	if err != nil {
		b.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "bench.db"), time.Second)
	if err != nil {
		b.Fatal(err)
	}
	st.DB().NoSync = true
	be, err := storage.NewLocal(filepath.Join(dir, "dl"), IsKey)
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(st, be, nil)
	if err != nil {
		b.Fatal(err)
	}
	words := []string{"archive", "editor", "player", "zip", "image", "puzzle", "match", "word", "tool", "viewer"}
	for i := range n {
		sec := Sections[i%2]
		_, err := s.Create(Entry{Section: sec, Slug: fmt.Sprintf("entry-%d", i),
			Name:        fmt.Sprintf("%s %s %d", words[i%len(words)], words[(i/7)%len(words)], i),
			Summary:     "A small " + words[(i/3)%len(words)] + " for Windows",
			Description: "Long description of the " + words[(i/11)%len(words)] + " with many words in it.",
			Systems:     []string{Systems[i%3], "windows-11"}})
		if err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// The list and search answer from memory: 5 000 entries well under the
// 5 ms median budget (make bench).
func BenchmarkDownloadsList(b *testing.B) {
	s := benchService(b, 5000)
	for _, q := range []Query{
		{Section: SectionPrograms},
		{Section: SectionPrograms, Sort: SortNewest, Page: 3},
		{Section: SectionAlavar, System: "windows-7", Sort: SortPopular},
	} {
		b.Run(q.Section+"/"+q.Sort+"/"+q.System, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := s.List(q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDownloadsSearch(b *testing.B) {
	s := benchService(b, 5000)
	for _, term := range []string{"zip", "puzzle match", "nothing-matches"} {
		b.Run(term, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := s.List(Query{Section: SectionPrograms, Search: term}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
