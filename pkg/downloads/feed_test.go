package downloads

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/internal/atom/atomtest"

	"github.com/devhub/devhub/pkg/storage"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// The feed's bytes, with and without a public address, and of a section
// with no releases.
func TestWriteFeedBytes(t *testing.T) {
	s, _ := newLocalService(t)
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	s.SetClock(func() time.Time { return now })
	release := func(slug, version, notes string) {
		t.Helper()
		st, err := s.StoreFile(context.Background(), slug+".exe", bytes.NewReader([]byte(slug)), 100)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddRelease(slug, version, notes, []NewFile{{Stored: st, System: FileSystems[0], Arch: Archs[0]}}); err != nil {
			t.Fatal(err)
		}
		now = now.Add(90 * time.Minute)
	}
	for _, e := range []Entry{{Section: "programs", Slug: "tool", Name: "Tool <x>"}, {Section: "programs", Slug: "paint", Name: "Paint"}} {
		if _, err := s.Create(e); err != nil {
			t.Fatal(err)
		}
	}
	release("tool", "1.0", "first & best")
	release("paint", "2", "")
	release("tool", "1.1", "")
	for _, tc := range []struct {
		name, base, section string
		want                string // testdata/feed_<want>.xml
	}{
		{"public address", "https://example.org/", "programs", "public"},
		{"relative", "", "programs", "relative"},
		{"empty", "", "alavar", "empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			atomtest.Golden(t, tc.want, func(w io.Writer) error { return s.WriteFeed(w, tc.base, "Site", tc.section) })
		})
	}
}

// newLocalService is a Service on a temporary store and local backend.
func newLocalService(t *testing.T) (*Service, *storage.LocalStore) {
	t.Helper()
	be, err := storage.NewLocal(filepath.Join(t.TempDir(), "dl"), IsKey)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { be.Close() })
	s, err := New(storetest.Open(t), be, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, be
}
