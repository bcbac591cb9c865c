package discuss

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The feed's bytes, with and without a public address, and with no
// threads at all.
func TestWriteFeedBytes(t *testing.T) {
	t1 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	t2 := time.Date(2026, 3, 2, 11, 30, 0, 0, time.FixedZone("x", 3600))
	threads := []FeedThread{
		{Thread: Thread{ID: 7, Title: "Hello <b>", Author: Author{ID: 3, Name: "Alice"}, CreatedAt: t2}, Summary: "x & y"},
		{Thread: Thread{ID: 5, Title: "Old", CreatedAt: t1}},
	}
	for _, tc := range []struct {
		name, base string
		threads    []FeedThread
		want       string // testdata/feed_<want>.xml
	}{
		{"public address", "https://example.org/", threads, "public"},
		{"relative", "", threads, "relative"},
		{"empty", "", nil, "empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteFeed(&b, tc.base, "Site", tc.threads); err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata", "feed_"+tc.want+".xml"))
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != string(want) {
				t.Fatalf("got\n%s\nwant (testdata/feed_%s.xml)\n%s", b.String(), tc.want, want)
			}
		})
	}
}
