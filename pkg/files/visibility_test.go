package files

import (
	"bytes"
	"context"
	"errors"
	"mime/multipart"
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

// visibilityForm is a multipart body with the files a.txt and b.txt and, at
// the given place (before, between or after them; "" for none), a
// visibility field of value.
func visibilityForm(t *testing.T, where string, values ...string) (*bytes.Buffer, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	field := func() {
		for _, v := range values {
			if err := w.WriteField(VisibilityField, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	if where == "before" {
		field()
	}
	for i, name := range []string{"a.txt", "b.txt"} {
		fw, err := w.CreateFormFile("files", name)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write([]byte("file " + name))
		if i == 0 && where == "between" {
			field()
		}
	}
	if where == "after" {
		field()
	}
	w.Close()
	return &b, w.Boundary()
}

// A multipart upload's visibility field makes all its files public or
// private wherever it comes in the form; a value that is neither keeps
// nothing.
func TestSaveMultipartVisibility(t *testing.T) {
	tests := []struct {
		name    string
		where   string
		values  []string
		private bool
		invalid bool
	}{
		{"no field: public", "", nil, false, false},
		{"private before the files", "before", []string{"private"}, true, false},
		{"private between the files", "between", []string{"private"}, true, false},
		{"private after the files", "after", []string{"private"}, true, false},
		{"public after the files", "after", []string{"public"}, false, false},
		{"white space around", "after", []string{" private\r\n"}, true, false},
		{"the same value twice", "before", []string{"private", "private"}, true, false},
		{"unknown before", "before", []string{"hidden"}, false, true},
		{"unknown after", "after", []string{"Private"}, false, true},
		{"empty", "after", []string{""}, false, true},
		{"too long", "after", []string{strings.Repeat("private ", 10)}, false, true},
		{"two different values", "before", []string{"public", "private"}, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestService(t, 1<<20)
			body, boundary := visibilityForm(t, tc.where, tc.values...)
			out, err := s.SaveMultipart(context.Background(), body, boundary, "files", 100, Uploader{ID: 7})
			if tc.invalid {
				var verr *store.ValidationError
				if !errors.As(err, &verr) || verr.Fields["visibility"].Code == "" {
					t.Fatalf("err = %v, want a ValidationError of visibility", err)
				}
				if names := dirNames(t, s.Dir()); len(names) != 0 || s.TotalsFor(&Viewer{ID: 1, Admin: true})["documents"] != 0 {
					t.Fatalf("a refused upload kept %v", names)
				}
				return
			}
			if err != nil || len(out) != 2 {
				t.Fatalf("out %+v err %v", out, err)
			}
			for _, f := range out {
				if f.IsPrivate() != tc.private {
					t.Errorf("%s private = %v, want %v", f.OriginalName, f.IsPrivate(), tc.private)
				}
				if _, err := s.GetFor(nil, f.ID); (err == nil) == tc.private {
					t.Errorf("%s seen by a guest: %v", f.OriginalName, err)
				}
			}
			wantGuest := 2
			if tc.private {
				wantGuest = 0
			}
			if page, total := s.PageFor(nil, "documents", 1, 10); total != wantGuest || len(page) != wantGuest {
				t.Errorf("a guest's list: %d of %d, want %d", len(page), total, wantGuest)
			}
			if _, total := s.PageFor(&Viewer{ID: 7}, "documents", 1, 10); total != 2 {
				t.Errorf("the uploader's list: %d, want 2", total)
			}
		})
	}
}

// Save (the CLI's and a finished resumable upload's) takes the visibility
// as an option; a bad one keeps nothing.
func TestSaveWithVisibility(t *testing.T) {
	s := newTestService(t, 1<<20)
	f, err := s.Save(context.Background(), "p.txt", strings.NewReader("p"), Uploader{ID: 7}, WithVisibility(Private))
	if err != nil || !f.IsPrivate() {
		t.Fatalf("private save: %+v %v", f, err)
	}
	if _, err := s.GetFor(nil, f.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a guest sees the private file: %v", err)
	}
	if _, err := s.Save(context.Background(), "x.txt", strings.NewReader("x"), Uploader{ID: 7}, WithVisibility("secret")); err == nil {
		t.Fatal("an unknown visibility was accepted")
	}
	if names := dirNames(t, s.Dir()); len(names) != 1 {
		t.Fatalf("stored %v, want only the private file", names)
	}
}
