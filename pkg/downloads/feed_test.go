package downloads

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/storage"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// The feed's bytes, with and without a public address, and of a section
// with no releases.
func TestWriteFeedBytes(t *testing.T) {
	be, err := storage.NewLocal(filepath.Join(t.TempDir(), "dl"), IsKey)
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	s, err := New(storetest.Open(t), be, nil)
	if err != nil {
		t.Fatal(err)
	}
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
			var b strings.Builder
			if err := s.WriteFeed(&b, tc.base, "Site", tc.section); err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata", "feed_"+tc.want+".xml"))
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != string(want) {
				t.Fatalf("got\n%s\nwant (testdata/feed_%s.xml)\n%s", b.String(), tc.want, want)
			}
		})
	}
}
