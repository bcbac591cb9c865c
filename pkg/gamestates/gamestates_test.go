package gamestates

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/devhub/devhub/pkg/quota"
	"github.com/devhub/devhub/pkg/store/storetest"
)

func newService(t *testing.T, max int64) *Service {
	t.Helper()
	s, err := New(filepath.Join(t.TempDir(), "states"), max)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// ctx is the context of the tests that do not cancel theirs.
var ctx = context.Background()

var png = append([]byte("\x89PNG\r\n\x1a\n"), "pixels"...)

func TestPutGetListDelete(t *testing.T) {
	s := newService(t, 1024)
	if _, err := s.Put(ctx, 1, 7, "2", "fceumm", bytes.NewReader([]byte("state-two"))); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(ctx, 1, 7, "auto", "fceumm", bytes.NewReader([]byte("auto!"))); err != nil {
		t.Fatal(err)
	}
	data, info, err := s.Get(1, 7, "2", "fceumm")
	if err != nil || string(data) != "state-two" || info.Core != "fceumm" || info.Size != 9 || info.HasScreenshot {
		t.Fatalf("get: %q %+v %v", data, info, err)
	}
	list, err := s.List(1, 7)
	if err != nil || len(list) != 2 || list[0].Slot != "auto" || list[1].Slot != "2" {
		t.Fatalf("list: %+v %v", list, err)
	}
	// Another user and another game see nothing.
	if l, _ := s.List(2, 7); len(l) != 0 {
		t.Fatalf("other user sees %+v", l)
	}
	if _, _, err := s.Get(1, 8, "2", ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("other game: %v", err)
	}
	if err := s.PutScreenshot(ctx, 1, 7, "2", png); err != nil {
		t.Fatal(err)
	}
	if _, info, _ := s.Get(1, 7, "2", ""); !info.HasScreenshot {
		t.Fatal("screenshot not attached")
	}
	// A new state drops the old screenshot: it showed another moment.
	if _, err := s.Put(ctx, 1, 7, "2", "fceumm", bytes.NewReader([]byte("newer"))); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Screenshot(1, 7, "2"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("stale screenshot kept: %v", err)
	}
	if err := s.Delete(ctx, 1, 7, "2"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, 1, 7, "2"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	used, err := s.UsageOf(1)
	if err != nil || used != headerSize+5 {
		t.Fatalf("usage %d %v", used, err)
	}
	if used, _ := s.UsageOf(99); used != 0 {
		t.Fatalf("unknown user uses %d", used)
	}
}

func TestPutRefusals(t *testing.T) {
	s := newService(t, 8)
	if _, err := s.Put(ctx, 1, 1, "1", "fceumm", bytes.NewReader([]byte("old"))); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, slot, core, body string
		want                   error
	}{
		{"over the limit", "1", "fceumm", "123456789", ErrTooLarge},
		{"exactly the limit is fine", "1", "fceumm", "12345678", nil},
		{"slot 0", "0", "fceumm", "x", ErrBadSlot},
		{"slot 6", "6", "fceumm", "x", ErrBadSlot},
		{"traversal slot", "../1", "fceumm", "x", ErrBadSlot},
		{"no core", "1", "", "x", ErrBadCore},
		{"core with a slash", "1", "../x", "x", ErrBadCore},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Put(ctx, 1, 1, tc.slot, tc.core, bytes.NewReader([]byte(tc.body)))
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
	data, _, _ := s.Get(1, 1, "1", "")
	if string(data) != "12345678" {
		t.Fatalf("slot holds %q", data)
	}
	entries, _ := os.ReadDir(filepath.Join(s.dir, "1", "1"))
	if len(entries) != 1 {
		t.Fatalf("temp files left: %v", entries)
	}
}

func TestWrongCoreAndCorrupt(t *testing.T) {
	s := newService(t, 0)
	if _, err := s.Put(ctx, 1, 1, "auto", "snes9x", bytes.NewReader([]byte("snes state"))); err != nil {
		t.Fatal(err)
	}
	_, info, err := s.Get(1, 1, "auto", "fceumm")
	var wc *WrongCoreError
	if !errors.As(err, &wc) || wc.Have != "snes9x" || info.Core != "snes9x" {
		t.Fatalf("wrong core: %v %+v", err, info)
	}
	p := filepath.Join(s.dir, "1", "1", "auto.state")
	if err := os.WriteFile(p, []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Get(1, 1, "auto", "snes9x"); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("corrupt: %v", err)
	}
	if err := s.PutScreenshot(ctx, 1, 1, "auto", []byte("GIF89a")); !errors.Is(err, ErrBadScreenshot) {
		t.Fatalf("gif screenshot: %v", err)
	}
}

// Concurrent writers of one slot: every read sees one writer's bytes
// wholly, and after all of them the slot holds one of them.
func TestConcurrentWritesOneSlot(t *testing.T) {
	s := newService(t, 1<<20)
	const writers = 8
	bodies := make([][]byte, writers)
	for i := range bodies {
		bodies[i] = bytes.Repeat([]byte{byte('a' + i)}, 200<<10)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	torn := make(chan string, 1)
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			data, _, err := s.Get(1, 1, "3", "")
			if err != nil {
				continue
			}
			if !bytes.Equal(data, bytes.Repeat(data[:1], len(data))) || len(data) != 200<<10 {
				select {
				case torn <- "torn read":
				default:
				}
			}
		}
	}()
	for i := 0; i < writers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if _, err := s.Put(ctx, 1, 1, "3", "fceumm", bytes.NewReader(bodies[i])); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	close(stop)
	select {
	case msg := <-torn:
		t.Fatal(msg)
	default:
	}
	data, _, err := s.Get(1, 1, "3", "fceumm")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, b := range bodies {
		found = found || bytes.Equal(b, data)
	}
	if !found {
		t.Fatal("final state is none of the writes")
	}
}

func TestQuota(t *testing.T) {
	s := newService(t, 1<<20)
	q, err := quota.New(storetest.Open(t), quota.Amount{Bytes: 2*headerSize + 3000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.UseQuota(q)
	put := func(slot string, n int) error {
		_, err := s.Put(ctx, 1, 1, slot, "fceumm", bytes.NewReader(make([]byte, n)))
		return err
	}
	for _, tc := range []struct {
		name, slot string
		n          int
		exceeded   bool
	}{
		{"fits", "1", 1000, false},
		{"second fits", "2", 1500, false},
		{"third would go over", "3", 1000, true},
		{"replacing a slot counts only the growth", "2", 2000, false},
		{"growth over the quota", "1", 1600, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := put(tc.slot, tc.n)
			if got := errors.Is(err, quota.ErrExceeded); got != tc.exceeded {
				t.Fatalf("exceeded=%v (%v), want %v", got, err, tc.exceeded)
			}
		})
	}
	if u := q.Usage(1); u.Bytes != 2*headerSize+3000 {
		t.Fatalf("quota sees %d bytes", u.Bytes)
	}
	if _, _, err := s.Get(1, 1, "3", ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("refused state kept: %v", err)
	}
}

// A cancelled context changes no slot: not before the body is read, not
// while it streams in (the copy stops at the next read), and not for a
// delete or a screenshot.
func TestWritesHonourCancel(t *testing.T) {
	s := newService(t, 1<<20)
	if _, err := s.Put(ctx, 1, 1, "1", "fceumm", bytes.NewReader([]byte("kept"))); err != nil {
		t.Fatal(err)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Put(done, 1, 1, "1", "fceumm", bytes.NewReader([]byte("new"))); !errors.Is(err, context.Canceled) {
		t.Fatalf("put after cancel: %v", err)
	}
	streaming, stop := context.WithCancel(context.Background())
	body := io.MultiReader(bytes.NewReader([]byte("first half ")), cancelOnRead{stop}, bytes.NewReader([]byte("second half")))
	if _, err := s.Put(streaming, 1, 1, "1", "fceumm", body); !errors.Is(err, context.Canceled) {
		t.Fatalf("put cancelled mid-body: %v", err)
	}
	if err := s.PutScreenshot(done, 1, 1, "1", png); !errors.Is(err, context.Canceled) {
		t.Fatalf("screenshot after cancel: %v", err)
	}
	if err := s.Delete(done, 1, 1, "1"); !errors.Is(err, context.Canceled) {
		t.Fatalf("delete after cancel: %v", err)
	}
	data, info, err := s.Get(1, 1, "1", "")
	if err != nil || string(data) != "kept" || info.HasScreenshot {
		t.Fatalf("after cancelled writes: %q %+v %v", data, info, err)
	}
	if left, _ := filepath.Glob(filepath.Join(s.gameDir(1, 1), ".*")); len(left) != 0 {
		t.Fatalf("temp files left: %v", left)
	}
}

// cancelOnRead ends its context when the copy reaches it, as a client that
// goes away halfway through an upload.
type cancelOnRead struct{ cancel context.CancelFunc }

func (c cancelOnRead) Read([]byte) (int, error) {
	c.cancel()
	return 0, io.EOF
}

// A process killed mid-PUT leaves its temp file beside the slot (the
// deferred removal never runs); it is hidden from the quota, so only the
// start-up sweep gets rid of it. Slots, screenshots and anything that is
// not a temp name stay.
func TestSweepTempsRemovesInterruptedWrites(t *testing.T) {
	s := newService(t, 0)
	if _, err := s.Put(ctx, 1, 7, "1", "fceumm", bytes.NewReader([]byte("kept"))); err != nil {
		t.Fatal(err)
	}
	if err := s.PutScreenshot(ctx, 1, 7, "1", png); err != nil {
		t.Fatal(err)
	}
	game := filepath.Join(s.dir, "1", "7")
	for _, name := range []string{".put-123456", ".png-42"} {
		if err := os.WriteFile(filepath.Join(game, name), make([]byte, 4096), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	other := filepath.Join(s.dir, "2", "9")
	if err := os.MkdirAll(other, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, ".put-1"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "notes.txt"), []byte("not ours"), 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := s.UsageOf(1)
	n, err := s.SweepTemps(ctx)
	if err != nil || n != 3 {
		t.Fatalf("swept %d (%v), want 3", n, err)
	}
	for _, dir := range []string{game, other} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if isTemp(e.Name()) {
				t.Fatalf("%s left in %s", e.Name(), dir)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(other, "notes.txt")); err != nil {
		t.Fatal("a file that is not a temp went:", err)
	}
	data, info, err := s.Get(1, 7, "1", "")
	if err != nil || string(data) != "kept" || !info.HasScreenshot {
		t.Fatalf("the slot after the sweep: %q %+v %v", data, info, err)
	}
	if after, _ := s.UsageOf(1); after != before {
		t.Fatalf("usage %d → %d: the quota never counted the temps", before, after)
	}
}
