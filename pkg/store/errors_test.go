package store

import (
	"testing"
	"time"
)

func TestRetryAfterSeconds(t *testing.T) {
	for _, tc := range []struct {
		wait time.Duration
		want int
	}{
		{0, 1},
		{time.Millisecond, 1},
		{time.Second, 1},
		{time.Second + time.Millisecond, 2},
		{10 * time.Second, 10},
	} {
		if got := RetryAfterSeconds(tc.wait); got != tc.want {
			t.Errorf("RetryAfterSeconds(%v) = %d, want %d", tc.wait, got, tc.want)
		}
	}
}

// The one 413 names the limit the way people read it and exactly.
func TestTooLargeMessage(t *testing.T) {
	cases := map[int64]string{
		4 << 30:       "upload larger than the limit of 4 GiB (4294967296 bytes)",
		1<<20 + 1<<19: "upload larger than the limit of 1.5 MiB (1572864 bytes)",
		1000000:       "upload larger than the limit of 976.6 KiB (1000000 bytes)",
		512:           "upload larger than the limit of 512 bytes",
		100 << 40:     "upload larger than the limit of 100 TiB (109951162777600 bytes)",
	}
	for limit, want := range cases {
		if got := TooLarge("upload", limit).Error(); got != want {
			t.Errorf("TooLarge(%d) = %q, want %q", limit, got, want)
		}
	}
}
