package files

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

func TestHooks(t *testing.T) {
	s := newTestService(t, 1<<20)
	var added, deleted []string
	s.SetHooks(Hooks{
		Added:   func(f File) { added = append(added, f.OriginalName) },
		Deleted: func(f File) { deleted = append(deleted, f.OriginalName) },
	})
	ctx := context.Background()
	// A single save, a multipart upload of two, a failed upload.
	one, err := s.Save(ctx, "a.png", bytes.NewReader(pngHead), Uploader{})
	if err != nil {
		t.Fatal(err)
	}
	body, boundary := multipartBody(t, map[string][]byte{"b.txt": []byte("b"), "c.txt": []byte("c")}, []string{"b.txt", "c.txt"})
	if _, err := s.SaveMultipart(ctx, body, boundary, "files", 10, Uploader{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(ctx, "big.bin", bytes.NewReader(make([]byte, 2<<20)), Uploader{}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("oversized save: %v", err)
	}
	if got := strings.Join(added, ","); got != "a.png,b.txt,c.txt" {
		t.Errorf("added = %s, want the three committed files only", got)
	}
	if _, err := s.Delete(t.Context(), one.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Delete(t.Context(), one.ID); err == nil {
		t.Fatal("second delete succeeded")
	}
	if got := strings.Join(deleted, ","); got != "a.png" {
		t.Errorf("deleted = %s, want a.png once", got)
	}
}
