package gameshelf

import (
	"context"
	"errors"
	"testing"

	"github.com/devhub/devhub/pkg/store/storetest"
)

var ctx = context.Background()

func ids(list []Entry) []uint64 {
	out := []uint64{}
	for _, e := range list {
		out = append(out, e.GameID)
	}
	return out
}

func TestFavouritesAndRecent(t *testing.T) {
	s, err := New(storetest.Open(t))
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.SetFavourite(ctx, 1, 10, true))
	must(s.SetFavourite(ctx, 1, 11, true))
	must(s.SetFavourite(ctx, 1, 10, true)) // idempotent
	must(s.SetFavourite(ctx, 1, 12, false))
	for i := uint64(0); i < MaxRecent+5; i++ {
		must(s.Played(ctx, 1, 100+i))
	}
	must(s.Played(ctx, 1, 105)) // back to the front, once
	sh, err := s.Get(1)
	must(err)
	if got := ids(sh.Favourites); len(got) != 2 || got[0] != 11 || got[1] != 10 {
		t.Fatalf("favourites %v", got)
	}
	got := ids(sh.Recent)
	if len(got) != MaxRecent || got[0] != 105 || got[1] != 100+MaxRecent+4 {
		t.Fatalf("recent %v", got)
	}
	seen := map[uint64]bool{}
	for _, id := range got {
		if seen[id] {
			t.Fatalf("recent repeats %d: %v", id, got)
		}
		seen[id] = true
	}
	must(s.SetFavourite(ctx, 1, 10, false))
	sh, _ = s.Get(1)
	if got := ids(sh.Favourites); len(got) != 1 || got[0] != 11 {
		t.Fatalf("after removal %v", got)
	}
	other, _ := s.Get(2)
	if len(other.Favourites) != 0 || len(other.Recent) != 0 {
		t.Fatalf("other user %+v", other)
	}
	for i := uint64(0); i < MaxFavourites; i++ {
		if err := s.SetFavourite(ctx, 3, i, true); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetFavourite(ctx, 3, 9999, true); !errors.Is(err, ErrTooMany) {
		t.Fatalf("over the cap: %v", err)
	}
}

// A cancelled context records nothing.
func TestWritesHonourCancel(t *testing.T) {
	s, err := New(storetest.Open(t))
	if err != nil {
		t.Fatal(err)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.SetFavourite(done, 1, 10, true); !errors.Is(err, context.Canceled) {
		t.Fatalf("favourite after cancel: %v", err)
	}
	if err := s.Played(done, 1, 10); !errors.Is(err, context.Canceled) {
		t.Fatalf("played after cancel: %v", err)
	}
	if sh, err := s.Get(1); err != nil || len(sh.Favourites) != 0 || len(sh.Recent) != 0 {
		t.Fatalf("after cancelled writes: %+v %v", sh, err)
	}
}
