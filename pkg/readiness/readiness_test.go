package readiness

import (
	"context"
	"errors"
	"testing"
)

// Checks run in the order they were added; adding a name again replaces
// its check in place; one failure makes the whole not ready.
func TestRegistry(t *testing.T) {
	var r Registry
	if ok, res := r.Run(context.Background()); !ok || len(res) != 0 {
		t.Fatalf("an empty registry: %v %v", ok, res)
	}
	r.Add("store", func(context.Context) error { return nil })
	r.Add("backup", func(context.Context) error { return errors.New("the last backup failed") })
	r.Add("storage", func(context.Context) error { return nil })
	ok, res := r.Run(context.Background())
	want := []Result{{Name: "store", OK: true}, {Name: "backup", Error: "the last backup failed"}, {Name: "storage", OK: true}}
	if ok || len(res) != len(want) {
		t.Fatalf("got %v %v", ok, res)
	}
	for i := range want {
		if res[i] != want[i] {
			t.Fatalf("result %d: %+v, want %+v", i, res[i], want[i])
		}
	}
	r.Add("backup", func(context.Context) error { return nil })
	if ok, res := r.Run(context.Background()); !ok || len(res) != 3 || res[1].Name != "backup" || !res[1].OK {
		t.Fatalf("after replacing backup: %v %v", ok, res)
	}
}
