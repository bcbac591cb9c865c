package files

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIndexPagesAndStaysInStep(t *testing.T) {
	ix := newIndex()
	for _, id := range []uint64{1, 2, 3, 5, 4} { // 4 arrives late: a reload in any order
		ix.put(File{ID: id, Type: TypeDocument})
	}
	ix.put(File{ID: 6, Type: TypeImage})
	ids := func(fs []File) string {
		out := []uint64{}
		for _, f := range fs {
			out = append(out, f.ID)
		}
		return fmt.Sprint(out)
	}
	for _, tc := range []struct {
		group       string
		page, limit int
		want        string
		total       int
	}{
		{"documents", 1, 2, "[5 4]", 5},
		{"documents", 2, 2, "[3 2]", 5},
		{"documents", 3, 2, "[1]", 5},
		{"documents", 4, 2, "[]", 5},
		{"images", 1, 10, "[6]", 1},
		{"videos", 1, 10, "[]", 0},
	} {
		got, total := ix.page(tc.group, tc.page, tc.limit)
		if ids(got) != tc.want || total != tc.total {
			t.Errorf("%s page %d/%d = %s (%d), want %s (%d)", tc.group, tc.page, tc.limit, ids(got), total, tc.want, tc.total)
		}
	}
	v := ix.ver()
	ix.remove(3)
	ix.remove(99) // unknown: nothing changes
	if got, total := ix.page("documents", 1, 10); ids(got) != "[5 4 2 1]" || total != 4 {
		t.Fatalf("after remove: %s %d", ids(got), total)
	}
	ix.put(File{ID: 5, Type: TypeImage}) // a changed record moves group
	if got, _ := ix.page("images", 1, 10); ids(got) != "[6 5]" {
		t.Fatalf("moved record: %s", ids(got))
	}
	if ix.ver() == v || ix.totals()["documents"] != 3 || ix.len() != 5 {
		t.Fatalf("version %d→%d totals %v len %d", v, ix.ver(), ix.totals(), ix.len())
	}
}

func TestDeleteUploadedBy(t *testing.T) {
	s := newTestService(t, 1<<20)
	for i, up := range []uint64{7, 8, 7} {
		if _, err := s.Save(context.Background(), fmt.Sprintf("f%d.txt", i), strings.NewReader("x"), Uploader{ID: up}); err != nil {
			t.Fatal(err)
		}
	}
	n, err := s.DeleteUploadedBy(t.Context(), 7)
	if err != nil || n != 2 {
		t.Fatalf("deleted %d, %v", n, err)
	}
	left, _ := s.List()
	if len(left) != 1 || left[0].UploaderID != 8 {
		t.Fatalf("left %+v", left)
	}
	if entries, _ := os.ReadDir(s.Dir()); len(entries) != 1 {
		t.Fatalf("%d files on disk", len(entries))
	}
}

// A cancelled context changes no file: not a delete (one or an uploader's
// all), not a visibility, not an upload's commit, not the start-up sweep.
func TestWritesHonourCancel(t *testing.T) {
	s := newTestService(t, 1<<20)
	f, err := s.Save(t.Context(), "kept.txt", strings.NewReader("kept"), Uploader{ID: 7})
	if err != nil {
		t.Fatal(err)
	}
	orphan := filepath.Join(s.Dir(), strings.Repeat("ab", 16))
	if err := os.WriteFile(orphan, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := s.Delete(ctx, f.ID); !errors.Is(err, context.Canceled) {
		t.Fatalf("delete after cancel: %v", err)
	}
	if n, err := s.DeleteUploadedBy(ctx, 7); !errors.Is(err, context.Canceled) || n != 0 {
		t.Fatalf("delete uploaded after cancel: %d %v", n, err)
	}
	if _, err := s.SetVisibility(ctx, f.ID, Private); !errors.Is(err, context.Canceled) {
		t.Fatalf("visibility after cancel: %v", err)
	}
	if _, err := s.Save(ctx, "new.txt", strings.NewReader("new"), Uploader{ID: 7}); !errors.Is(err, context.Canceled) {
		t.Fatalf("save after cancel: %v", err)
	}
	up := s.Begin(Uploader{ID: 7})
	if err := up.Add(t.Context(), "late.txt", strings.NewReader("late")); err != nil {
		t.Fatal(err)
	}
	if _, err := up.Commit(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("commit after cancel: %v", err)
	}
	if n, err := s.SweepTemps(ctx); !errors.Is(err, context.Canceled) || n != 0 {
		t.Fatalf("sweep after cancel: %d %v", n, err)
	}
	if all, _ := s.List(); len(all) != 1 || all[0].ID != f.ID || all[0].IsPrivate() {
		t.Fatalf("files after cancelled writes: %+v", all)
	}
	names, _ := os.ReadDir(s.Dir())
	if len(names) != 2 { // the kept file and the orphan the sweep did not reach
		t.Fatalf("uploads dir after cancelled writes: %v", names)
	}
}
