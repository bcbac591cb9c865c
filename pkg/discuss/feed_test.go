package discuss

import (
	"io"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/internal/atom/atomtest"
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
			atomtest.Golden(t, tc.want, func(w io.Writer) error { return WriteFeed(w, tc.base, "Site", tc.threads) })
		})
	}
}
