package blog

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// benchWords mixes English, Ukrainian and Russian so that search scans the
// kind of text the blog holds.
var benchWords = strings.Fields(`the go server binary article markdown store index search page
category import export cloud file emulator console game router handler token session
сервер стаття пошук сторінка категорія файл хмара емулятор гра консоль користувач
статья поиск страница категория файл облако эмулятор игра консоль пользователь
швидкий повільний великий малий новий старий перший останній простий складний`)

// BenchmarkSeed fills s with n articles of about 2 KB of text each, in one
// transaction (10 000 single writes would measure fsync, not the blog).
func benchSeed(b *testing.B, s *Service, n int) {
	b.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	para := func(words int) string {
		var sb strings.Builder
		for i := 0; i < words; i++ {
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(benchWords[r.IntN(len(benchWords))])
		}
		return sb.String()
	}
	cats := []string{"Go", "Guides", "Новини", "Emulator", "Files", "CLI", "Статьи", "Misc"}
	var arts []*Article
	err := s.st.Update(func(tx *bolt.Tx) error {
		for i := 0; i < n; i++ {
			now := s.now()
			a := &Article{Name: fmt.Sprintf("%s %d", para(4), i), Excerpt: para(20), Category: cats[i%len(cats)],
				Content: para(150) + "\n\n" + para(150), CreatedAt: now, UpdatedAt: now}
			if err := s.insertTx(tx, a, true); err != nil {
				return err
			}
			arts = append(arts, a)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, a := range arts {
		s.ix.put(a)
	}
}

func newBenchService(b *testing.B) *Service {
	s := newTestService(b)
	benchSeed(b, s, 10000)
	return s
}

// BenchmarkBlogList: a page of the newest-first list over 10 000 articles,
// without and with a category filter.
func BenchmarkBlogList(b *testing.B) {
	s := newBenchService(b)
	for _, q := range []Query{{Page: 1}, {Page: 1000}, {Page: 3, Category: "новини"}} {
		b.Run(fmt.Sprintf("page=%d,category=%q", q.Page, q.Category), func(b *testing.B) {
			for b.Loop() {
				p, err := s.List(q)
				if err != nil || p.TotalCount == 0 {
					b.Fatal(p.TotalCount, err)
				}
			}
		})
	}
}

// BenchmarkBlogSearch: searches over 10 000 articles of ~2 KB each —
// a common word, a Cyrillic word in another case, two words, and a word
// that occurs nowhere (every article scanned to the end).
func BenchmarkBlogSearch(b *testing.B) {
	s := newBenchService(b)
	for _, search := range []string{"emulator", "СТАТЬЯ", "хмара GAME", "nowhere-to-be-found", "ЖОВТИЙ", "go", "щю"} {
		b.Run(search, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.List(Query{Search: search}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
