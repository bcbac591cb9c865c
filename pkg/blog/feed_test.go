package blog

import (
	"io"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/internal/atom/atomtest"
)

// The feed's bytes, with and without a public address, and with no
// articles at all.
func TestWriteFeedBytes(t *testing.T) {
	t1 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	t2 := time.Date(2026, 3, 2, 11, 30, 0, 0, time.FixedZone("x", 3600))
	arts := []Summary{
		{ID: 2, Name: "Second <b>", Excerpt: "a & b", Category: "Go", CreatedAt: t2, UpdatedAt: t2},
		{ID: 1, Name: "First", Excerpt: "", CreatedAt: t1, UpdatedAt: t1},
	}
	for _, tc := range []struct {
		name, base string
		arts       []Summary
		want       string // testdata/feed_<want>.xml
	}{
		{"public address", "https://example.org/", arts, "public"},
		{"relative", "", arts, "relative"},
		{"empty", "", nil, "empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			atomtest.Golden(t, tc.want, func(w io.Writer) error { return WriteFeed(w, tc.base, "Site", tc.arts) })
		})
	}
}
