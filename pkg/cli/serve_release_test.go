package cli

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// Memory is handed back after a crowd of event streams closed — at least
// streamsReleaseStep since the highest count — and not for a few closing
// or for streams opening.
func TestReleaseAfterStreams(t *testing.T) {
	steps := []struct {
		open         int
		wantReleases int32
	}{
		{1000, 0},                          // a crowd arrives
		{1000 - streamsReleaseStep + 1, 0}, // a few leave
		{1000 - streamsReleaseStep, 1},     // a step's worth left since the high mark
		{600, 1},                           // fewer than a step since the release
		{100, 2},                           // another step's worth
		{100 + 2*streamsReleaseStep, 2},    // a new crowd
		{100 + streamsReleaseStep, 3},      // a step of it leaves
	}
	var open, releases atomic.Int32
	open.Store(0)
	tick := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		releaseAfterStreams(ctx, func() int {
			n := int(open.Load())
			tick <- struct{}{} // one look per step, in the test's order
			return n
		}, time.Millisecond, func() { releases.Add(1) })
	}()
	<-tick // the first look, at start: no streams
	for i, st := range steps {
		open.Store(int32(st.open))
		<-tick // the look at this count
		<-tick // the next one (the same count) starts after the first one's work
		if got := releases.Load(); got != st.wantReleases {
			t.Fatalf("step %d (%d open): %d releases, want %d", i+1, st.open, got, st.wantReleases)
		}
	}
	cancel()
	go func() {
		for range tick {
		}
	}()
	<-done
}
