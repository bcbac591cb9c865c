package cli

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/thumbs"
)

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestServeStartupBackfillsThumbnails checks the start-up wiring: images
// stored while no server ran get their thumbnails in the background, a
// decompression bomb is refused and counted, thumbnails of files deleted
// meanwhile are swept, the summary is logged; and from then on uploads and
// deletes keep the thumbnails in step.
func TestServeStartupBackfillsThumbnails(t *testing.T) {
	newTestInstance(t)
	cfg, svc := openInstance(t)
	defer svc.Close()
	logs := &syncBuffer{}
	svc.log = slog.New(slog.NewTextHandler(logs, nil))
	ctx := context.Background()
	photo, err := svc.Files.Save(ctx, "photo.png", bytes.NewReader(pngOf(t, 800, 400)), cliUploader)
	if err != nil {
		t.Fatal(err)
	}
	ihdr := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32([]byte("IHDR"), 100000), 100000)
	ihdr = append(ihdr, 8, 6, 0, 0, 0)
	bomb := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0d"), ihdr...)
	bomb = binary.BigEndian.AppendUint32(bomb, crc32.ChecksumIEEE(ihdr))
	if _, err := svc.Files.Save(ctx, "bomb.png", bytes.NewReader(append(bomb, make([]byte, 64)...)), cliUploader); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Files.Save(ctx, "notes.txt", strings.NewReader("not an image"), cliUploader); err != nil {
		t.Fatal(err)
	}
	dir := thumbsDir(cfg.Storage.DataDir)
	os.MkdirAll(dir, 0o750)
	orphan := filepath.Join(dir, "999-0123456789abcdef-1.jpg")
	writeFile(t, orphan, []byte("old"))

	if err := svc.startup(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Errorf("thumbnail of a deleted file kept: %v", err)
	}
	waitUntil(t, "the start-up summary", func() bool { return strings.Contains(logs.String(), "thumbnails checked") })
	line := logs.String()
	for _, want := range []string{"images=2", "made=1", "refused=1", "refused_too_large=1", "existing=0"} {
		if !strings.Contains(line, want) {
			t.Errorf("summary lacks %s: %s", want, line)
		}
	}
	src := thumbs.Source{ID: photo.ID, Hash: photo.SHA256}
	if !svc.Thumbs.Has(src) {
		t.Fatal("no thumbnail made at start")
	}

	// Uploads and deletes from now on keep them in step.
	more, err := svc.Files.Save(ctx, "more.png", bytes.NewReader(pngOf(t, 30, 30)), cliUploader)
	if err != nil {
		t.Fatal(err)
	}
	moreSrc := thumbs.Source{ID: more.ID, Hash: more.SHA256}
	svc.Thumbs.Wait()
	if !svc.Thumbs.Has(moreSrc) {
		t.Fatal("no thumbnail made on upload")
	}
	if _, err := svc.Files.Delete(t.Context(), photo.ID); err != nil {
		t.Fatal(err)
	}
	if svc.Thumbs.Has(src) {
		t.Error("thumbnail kept after the file was deleted")
	}
	if _, err := os.Stat(svc.Thumbs.Path(src)); !os.IsNotExist(err) {
		t.Errorf("thumbnail file kept after delete: %v", err)
	}
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
