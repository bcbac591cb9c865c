package files

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/store/storetest"
)

func TestVisibility(t *testing.T) {
	st := storetest.Open(t)
	dir := filepath.Join(t.TempDir(), "uploads")
	s, err := New(st, dir, 1<<20, nil)
	if err != nil {
		t.Fatal(err)
	}
	owner := Uploader{ID: 7, Name: "u@example.com"}
	pub, _ := s.Save(context.Background(), "a.txt", strings.NewReader("a"), owner)
	priv, _ := s.Save(context.Background(), "b.txt", strings.NewReader("b"), owner)
	if pub.IsPrivate() || pub.Info(false).Visibility != Public {
		t.Fatalf("a new file is not public: %+v", pub)
	}
	if _, err := s.SetVisibility(t.Context(), priv.ID, "hidden"); err == nil {
		t.Fatal("bad visibility accepted")
	}
	if _, err := s.SetVisibility(t.Context(), 999, Private); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown file: %v", err)
	}
	if _, err := s.SetVisibility(t.Context(), priv.ID, Private); err != nil {
		t.Fatal(err)
	}
	// It survives a restart (the record is what counts, the index follows).
	s.Close()
	if s, err = New(st, dir, 1<<20, nil); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	viewers := []struct {
		name    string
		v       *Viewer
		sees    bool
		onlyPub bool
	}{
		{"guest", nil, false, true},
		{"other", &Viewer{ID: 8}, false, true},
		{"uploader", &Viewer{ID: 7}, true, false},
		{"admin", &Viewer{ID: 1, Admin: true}, true, false},
		{"id 0 is nobody", &Viewer{ID: 0}, false, true},
	}
	for _, tc := range viewers {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.GetFor(tc.v, priv.ID)
			if (err == nil) != tc.sees {
				t.Errorf("GetFor: %v", err)
			}
			page, total := s.PageFor(tc.v, "documents", 1, 10)
			want := 1
			if tc.sees {
				want = 2
			}
			if total != want || len(page) != want || s.TotalsFor(tc.v)["documents"] != want {
				t.Errorf("page %d of %d, totals %v; want %d", len(page), total, s.TotalsFor(tc.v), want)
			}
			if s.SeesOnlyPublic(tc.v) != tc.onlyPub {
				t.Errorf("SeesOnlyPublic %v", !tc.onlyPub)
			}
			if _, err := s.GetFor(tc.v, pub.ID); err != nil {
				t.Errorf("public file: %v", err)
			}
		})
	}
	// Paging skips what the viewer may not see.
	if page, total := s.PageFor(nil, "documents", 2, 1); total != 1 || len(page) != 0 {
		t.Errorf("guest page 2: %d of %d", len(page), total)
	}
	if page, _ := s.PageFor(&Viewer{ID: 7}, "documents", 2, 1); len(page) != 1 || page[0].ID != pub.ID {
		t.Errorf("uploader page 2: %+v", page)
	}
	// Public again: everyone sees it, the plain list is everyone's again.
	if _, err := s.SetVisibility(t.Context(), priv.ID, Public); err != nil {
		t.Fatal(err)
	}
	if !s.SeesOnlyPublic(&Viewer{ID: 1, Admin: true}) || s.TotalsFor(nil)["documents"] != 2 {
		t.Error("public again, still hidden")
	}
}
