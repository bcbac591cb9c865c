package thumbs

import (
	"bytes"
	"context"
	"errors"
	"image"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/thumbs/thumbstest"
)

// library is a file store for the tests: bytes by id.
type library map[uint64][]byte

func (l library) open(id uint64) (io.ReadSeekCloser, error) {
	b, ok := l[id]
	if !ok {
		return nil, os.ErrNotExist
	}
	return nopCloser{bytes.NewReader(b)}, nil
}

type nopCloser struct{ *bytes.Reader }

func (nopCloser) Close() error { return nil }

// panicky panics on the first read, like a decoder bug would.
type panicky struct{}

func (panicky) Read([]byte) (int, error)       { panic("decoder bug") }
func (panicky) Seek(int64, int) (int64, error) { return 0, nil }
func (panicky) Close() error                   { return nil }

func newService(t *testing.T, dir string, lib library) *Service {
	t.Helper()
	s, err := New(dir, func(id uint64) (io.ReadSeekCloser, error) {
		if id == 666 {
			return panicky{}, nil
		}
		return lib.open(id)
	}, DefaultLimits(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func src(id uint64) Source {
	return Source{ID: id, Hash: strings.Repeat(string(rune('a'+id%6)), 64)}
}

func TestEnqueueMakesThumbnails(t *testing.T) {
	lib := library{
		1: encodePNG(t, picture(640, 480)),
		2: pngHeader(100000, 100000, 8, 6, 4096),
		3: []byte("not an image"),
		4: encodeJPEG(t, picture(50, 60)),
	}
	dir := t.TempDir()
	s := newService(t, dir, lib)
	s.Start()
	v0 := s.Version()
	for _, id := range []uint64{1, 2, 3, 4, 5, 666} {
		if !s.Enqueue(src(id)) {
			t.Fatalf("enqueue %d refused", id)
		}
	}
	s.Wait()
	if s.Version() == v0 {
		t.Error("version did not change after thumbnails were made")
	}
	tests := []struct {
		id   uint64
		has  bool
		w, h int
		note string // refusal marker content
	}{
		{id: 1, has: true, w: 320, h: 240},
		{id: 2, note: "too large"},
		{id: 3, note: "not a supported image format"},
		{id: 4, has: true, w: 50, h: 60},
		{id: 5}, // unreadable: no marker, tried again at the next start
		{id: 666, note: "panic"},
	}
	for _, tt := range tests {
		if got := s.Has(src(tt.id)); got != tt.has {
			t.Errorf("%d: Has = %v, want %v", tt.id, got, tt.has)
		}
		f, size, err := s.Open(src(tt.id))
		if !tt.has {
			if !errors.Is(err, ErrNotFound) {
				t.Errorf("%d: Open err = %v, want ErrNotFound", tt.id, err)
			}
			marker, rerr := os.ReadFile(filepath.Join(dir, src(tt.id).name(extRefused)))
			if tt.note == "" && rerr == nil {
				t.Errorf("%d: refusal recorded: %s", tt.id, marker)
			}
			if tt.note != "" && !strings.Contains(string(marker), tt.note) {
				t.Errorf("%d: marker %q (%v), want it to say %q", tt.id, marker, rerr, tt.note)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%d: %v", tt.id, err)
		}
		data, _ := io.ReadAll(f)
		f.Close()
		if int64(len(data)) != size {
			t.Errorf("%d: size %d, read %d", tt.id, size, len(data))
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil || format != "jpeg" || cfg.Width != tt.w || cfg.Height != tt.h {
			t.Errorf("%d: thumbnail %s %d×%d (%v), want jpeg %d×%d", tt.id, format, cfg.Width, cfg.Height, err, tt.w, tt.h)
		}
	}
	// The same content under another hash (a reused id) has no thumbnail.
	if s.Has(Source{ID: 1, Hash: "ffff"}) {
		t.Error("a thumbnail answered for other content under the same id")
	}
	// No temp files are left behind.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tempPrefix) {
			t.Errorf("temp file left: %s", e.Name())
		}
	}

	s.Remove(src(1))
	s.Remove(src(2))
	if s.Has(src(1)) {
		t.Error("removed thumbnail still there")
	}
	for _, id := range []uint64{1, 2} {
		for _, ext := range []string{extThumb, extRefused} {
			if _, err := os.Stat(filepath.Join(dir, src(id).name(ext))); err == nil {
				t.Errorf("%d%s still on disk after Remove", id, ext)
			}
		}
	}
}

func TestBackfill(t *testing.T) {
	lib := library{
		1: encodePNG(t, picture(400, 400)),
		2: encodeGIF(t, picture(30, 20)),
		3: pngHeader(100000, 100000, 8, 6, 4096),
		4: encodePNG(t, picture(300, 300))[:100],
		5: encodeJPEG(t, picture(900, 300)),
	}
	dir := t.TempDir()
	// A previous run made a thumbnail for 5 and for a file since deleted
	// (9), and was interrupted while writing one.
	os.WriteFile(filepath.Join(dir, src(5).name(extThumb)), encodeJPEG(t, picture(320, 107)), 0o640)
	os.WriteFile(filepath.Join(dir, src(9).name(extThumb)), encodeJPEG(t, picture(10, 10)), 0o640)
	os.WriteFile(filepath.Join(dir, tempPrefix+"abc"), []byte("half"), 0o640)
	s := newService(t, dir, lib)
	if !s.Has(src(5)) || !s.Has(src(9)) {
		t.Fatal("existing thumbnails not read at start")
	}
	if _, err := os.Stat(filepath.Join(dir, tempPrefix+"abc")); err == nil {
		t.Error("interrupted temp file not removed at start")
	}
	all := []Source{src(1), src(2), src(3), src(4), src(5)}
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	if n := s.Sweep(cancelled, all); n != 0 || !s.Has(src(9)) {
		t.Errorf("a cancelled sweep removed %d", n)
	}
	if n := s.Sweep(t.Context(), all); n != 1 {
		t.Errorf("sweep removed %d, want 1", n)
	}
	res := s.Backfill(context.Background(), all)
	want := Result{Made: 2, Existing: 1, Refused: map[string]int{"too large": 1, "corrupt": 1}}
	if res.Made != want.Made || res.Existing != want.Existing ||
		len(res.Refused) != 2 || res.Refused["too large"] != 1 || res.Refused["corrupt"] != 1 {
		t.Fatalf("backfill = %+v, want %+v", res, want)
	}
	if s.Has(src(9)) {
		t.Error("the deleted file's thumbnail was kept")
	}
	for _, id := range []uint64{1, 2, 5} {
		if !s.Has(src(id)) {
			t.Errorf("%d has no thumbnail after backfill", id)
		}
	}
	s.Close()

	// The next start knows what is there: nothing is made again, refused
	// images are not retried.
	s2 := newService(t, dir, lib)
	if n := s2.Sweep(t.Context(), all); n != 0 {
		t.Errorf("second sweep removed %d", n)
	}
	res = s2.Backfill(context.Background(), all)
	if res.Made != 0 || res.Existing != 5 || len(res.Refused) != 0 {
		t.Fatalf("second backfill = %+v, want 5 existing and nothing else", res)
	}
	// A new generation or new content gets a new thumbnail name.
	if src(1).Version() == (Source{ID: 1, Hash: strings.Repeat("f", 64)}).Version() {
		t.Error("different content, same version")
	}
}

func TestEnqueueAfterClose(t *testing.T) {
	s := newService(t, t.TempDir(), library{})
	s.Start()
	s.Close()
	if s.Enqueue(src(1)) {
		t.Error("enqueue accepted after Close")
	}
	s.Wait()
}

// An image the decoder would need too much memory for gets no thumbnail:
// the refusal is recorded (not retried at the next start) and logged with
// what it would have taken.
func TestTooLargeIsRecordedAndLogged(t *testing.T) {
	lib := library{
		// 16 MP, within the pixel limit; 15 bytes a pixel to decode.
		1: thumbstest.JPEGImage(4000, 4000, thumbstest.JPEG{Progressive: true, Sampling: []byte{0x11, 0x11, 0x11}}),
		2: thumbstest.JPEGImage(1200, 900, thumbstest.JPEG{Progressive: true, Sampling: []byte{0x11, 0x11, 0x11}}),
	}
	var logs bytes.Buffer
	dir := t.TempDir()
	s, err := New(dir, lib.open, DefaultLimits(), slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	s.Start()
	s.Enqueue(src(1))
	s.Enqueue(src(2))
	s.Wait()
	if s.Has(src(1)) || !s.Has(src(2)) {
		t.Fatalf("thumbnails: too large %v, small %v; want none and one", s.Has(src(1)), s.Has(src(2)))
	}
	marker, err := os.ReadFile(filepath.Join(dir, src(1).name(extRefused)))
	if err != nil || !strings.Contains(string(marker), "too large") {
		t.Errorf("refusal marker %q (%v)", marker, err)
	}
	line := ""
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, "no thumbnail for image") {
			line = l
		}
	}
	for _, want := range []string{"id=1", `reason="too large"`, "progressive 4:4:4 jpeg of 4000×4000 needs 272 MiB", "the limit is 224 MiB"} {
		if !strings.Contains(line, want) {
			t.Errorf("log %q does not say %q", line, want)
		}
	}
}
