package files

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/devhub/devhub/pkg/storage"
	"github.com/devhub/devhub/pkg/storage/miniotest"
)

func withS3(t *testing.T, s *Service) *storage.S3Store {
	t.Helper()
	s3, err := storage.NewS3(context.Background(), miniotest.Config(t), IsStoredName)
	if err != nil {
		t.Fatal(err)
	}
	s.AddBackend(s3)
	return s3
}

// readAll opens a file through the service and returns its bytes.
func readAll(t *testing.T, s *Service, id uint64) []byte {
	t.Helper()
	_, r, err := s.Open(id)
	if err != nil {
		t.Fatalf("file %d: %v", id, err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMigrateInterruptedAndResumed moves files to S3 with an interruption
// after two, checks every file is whole wherever it is, resumes, and moves
// them all back.
func TestMigrateInterruptedAndResumed(t *testing.T) {
	s := newTestService(t, 64<<20)
	withS3(t, s)
	want := map[uint64][]byte{}
	for i := range 5 {
		data := make([]byte, 1000+i*(3<<20)) // up to 12 MiB
		rand.Read(data)
		f, err := s.Save(context.Background(), "f.bin", bytes.NewReader(data), Uploader{ID: 1})
		if err != nil {
			t.Fatal(err)
		}
		want[f.ID] = data
	}
	checkAll := func(stage string) {
		for id, data := range want {
			if got := readAll(t, s, id); !bytes.Equal(got, data) {
				t.Fatalf("%s: file %d differs (%d bytes, want %d)", stage, id, len(got), len(data))
			}
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	seen := 0
	moved, err := s.Migrate(ctx, storage.S3, func(f File, err error) {
		if seen++; seen == 2 {
			cancel() // interrupted while the third is being copied
		}
	})
	if !errors.Is(err, context.Canceled) || moved != 2 {
		t.Fatalf("interrupted run: moved %d, %v", moved, err)
	}
	checkAll("after the interruption")
	if n, err := s.SweepTemps(t.Context()); err != nil || n != 0 {
		t.Fatalf("the interruption left %d leftovers (%v)", n, err)
	}

	moved, err = s.Migrate(context.Background(), storage.S3, nil)
	if err != nil || moved != 3 {
		t.Fatalf("resumed run: moved %d, %v", moved, err)
	}
	checkAll("in s3")
	all, _ := s.List()
	for _, f := range all {
		if f.Storage != storage.S3 {
			t.Fatalf("file %d still in %q", f.ID, f.Storage)
		}
	}
	if names := dirNames(t, s.Dir()); len(names) != 0 {
		t.Fatalf("local bytes left behind: %v", names)
	}
	if moved, err := s.Migrate(context.Background(), storage.S3, nil); err != nil || moved != 0 {
		t.Fatalf("a second run moved %d, %v", moved, err)
	}

	moved, err = s.Migrate(context.Background(), storage.Local, nil)
	if err != nil || moved != 5 {
		t.Fatalf("back to local: moved %d, %v", moved, err)
	}
	checkAll("back in local")
	if names := dirNames(t, s.Dir()); len(names) != 5 {
		t.Fatalf("local dir holds %v", names)
	}
}

// TestMigrateRefusesCorruptBytes: bytes that no longer match their sha256
// are not moved; the file stays where it was, the others go on.
func TestMigrateRefusesCorruptBytes(t *testing.T) {
	s := newTestService(t, 1<<20)
	s3 := withS3(t, s)
	good, _ := s.Save(context.Background(), "good.bin", bytes.NewReader([]byte("good bytes")), Uploader{ID: 1})
	bad, _ := s.Save(context.Background(), "bad.bin", bytes.NewReader([]byte("original")), Uploader{ID: 1})
	if err := os.WriteFile(filepath.Join(s.Dir(), bad.StoredName), []byte("tampered"), 0o640); err != nil {
		t.Fatal(err)
	}
	var failed []uint64
	moved, err := s.Migrate(context.Background(), storage.S3, func(f File, err error) {
		if err != nil {
			failed = append(failed, f.ID)
		}
	})
	if err == nil || moved != 1 || len(failed) != 1 || failed[0] != bad.ID {
		t.Fatalf("moved %d, failed %v, %v", moved, failed, err)
	}
	if f, _ := s.Get(bad.ID); f.Storage != "" {
		t.Fatalf("the corrupt file's record moved to %q", f.Storage)
	}
	if _, err := s3.Stat(context.Background(), bad.StoredName); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("a corrupt copy was kept in s3: %v", err)
	}
	if got := readAll(t, s, good.ID); string(got) != "good bytes" {
		t.Fatalf("good file: %q", got)
	}
	if _, err := s.Migrate(context.Background(), "ftp", nil); !errors.Is(err, ErrBackendMissing) {
		t.Fatalf("unknown backend: %v", err)
	}
}
