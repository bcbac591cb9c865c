package storage_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/devhub/devhub/pkg/storage"
	"github.com/devhub/devhub/pkg/storage/miniotest"
)

// validKey: 32 lowercase hex digits, as pkg/files makes them.
func validKey(k string) bool {
	if len(k) != 32 {
		return false
	}
	for _, c := range k {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

const (
	keyA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	keyB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	keyC = "cccccccccccccccccccccccccccccccc"
)

// backend is one storage under test, with a way to plant a foreign object.
type backend struct {
	name string
	open func(t *testing.T) storage.Store
}

func backends() []backend {
	return []backend{
		{storage.Local, func(t *testing.T) storage.Store {
			l, err := storage.NewLocal(filepath.Join(t.TempDir(), "uploads"), validKey)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { l.Close() })
			return l
		}},
		{storage.S3, func(t *testing.T) storage.Store { return newS3(t) }},
		{"s3 over TLS's reads", func(t *testing.T) storage.Store { return storage.PooledGets(newS3(t)) }},
	}
}

func newS3(t *testing.T) *storage.S3Store {
	s, err := storage.NewS3(context.Background(), miniotest.Config(t), validKey)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func put(t *testing.T, st storage.Store, key string, data []byte) {
	t.Helper()
	w, err := st.Create(context.Background(), key, -1)
	if err != nil {
		t.Fatal(err)
	}
	// Written in uneven pieces, as an upload arrives.
	for off := 0; off < len(data); {
		n := min(len(data)-off, 1+off%70000)
		if _, err := w.Write(data[off : off+n]); err != nil {
			t.Fatal(err)
		}
		off += n
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
}

func random(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

func keys(t *testing.T, st storage.Store) []string {
	t.Helper()
	var out []string
	if err := st.List(context.Background(), func(k string) error { out = append(out, k); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	// empty, tiny, one part, two parts, parts exactly full, more parts than
	// the writer holds buffers (they are reused, the parts stay in order)
	sizes := []int{0, 1, 300 << 10, storage.PartSize + 12345, 2 * storage.PartSize, 4*storage.PartSize + 7}
	for _, be := range backends() {
		t.Run(be.name, func(t *testing.T) {
			st := be.open(t)
			for _, n := range sizes {
				data := random(n)
				put(t, st, keyA, data)
				r, size, err := st.Open(context.Background(), keyA)
				if err != nil {
					t.Fatal(err)
				}
				got, err := io.ReadAll(r)
				if err != nil || size != int64(n) || !bytes.Equal(got, data) {
					t.Fatalf("%d bytes: read %d (size %d), err %v", n, len(got), size, err)
				}
				if n > 10 {
					// A range: seek, then read only what was asked.
					if _, err := r.Seek(int64(n/2), io.SeekStart); err != nil {
						t.Fatal(err)
					}
					part := make([]byte, 10)
					if _, err := io.ReadFull(r, part); err != nil || !bytes.Equal(part, data[n/2:n/2+10]) {
						t.Fatalf("%d bytes: range read %v", n, err)
					}
				}
				r.Close()
				if n > 10 {
					// A Range request: a seek before the first read, to the
					// last bytes, then to the end.
					r, _, err := st.Open(context.Background(), keyA)
					if err != nil {
						t.Fatal(err)
					}
					if _, err := r.Seek(-5, io.SeekEnd); err != nil {
						t.Fatal(err)
					}
					if tail, err := io.ReadAll(r); err != nil || !bytes.Equal(tail, data[n-5:]) {
						t.Fatalf("%d bytes: tail %q, %v", n, tail, err)
					}
					if _, err := r.Seek(0, io.SeekEnd); err != nil {
						t.Fatal(err)
					}
					if k, err := r.Read(make([]byte, 1)); k != 0 || err != io.EOF {
						t.Fatalf("%d bytes: read at the end: %d, %v", n, k, err)
					}
					r.Close()
				}
				if got, err := st.Stat(context.Background(), keyA); err != nil || got != int64(n) {
					t.Fatalf("Stat %d, %v", got, err)
				}
			}
		})
	}
}

// TestAbortLeavesNothing: an aborted write, of any size, leaves no object
// and nothing for List; a second write to the key works.
func TestAbortLeavesNothing(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.name, func(t *testing.T) {
			st := be.open(t)
			for _, n := range []int{10, storage.PartSize + 1} {
				w, err := st.Create(context.Background(), keyB, -1)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := w.Write(random(n)); err != nil {
					t.Fatal(err)
				}
				w.Abort()
				if _, err := st.Stat(context.Background(), keyB); !errors.Is(err, storage.ErrNotFound) {
					t.Fatalf("after abort of %d bytes: Stat %v", n, err)
				}
				if k := keys(t, st); len(k) != 0 {
					t.Fatalf("after abort: %v", k)
				}
				if n, err := st.SweepIncomplete(context.Background()); err != nil || n != 0 {
					t.Fatalf("an abort left %d incomplete writes (%v)", n, err)
				}
			}
		})
	}
}

func TestKeysAndDelete(t *testing.T) {
	cases := []struct{ name, key string }{
		{"traversal", "../../etc/passwd"},
		{"upper case", strings.ToUpper(keyA)},
		{"short", "abc"},
		{"empty", ""},
	}
	for _, be := range backends() {
		t.Run(be.name, func(t *testing.T) {
			st := be.open(t)
			for _, tc := range cases {
				if _, err := st.Create(context.Background(), tc.key, -1); err == nil {
					t.Errorf("%s: Create accepted %q", tc.name, tc.key)
				}
				if _, _, err := st.Open(context.Background(), tc.key); !errors.Is(err, storage.ErrNotFound) {
					t.Errorf("%s: Open %v", tc.name, err)
				}
				if err := st.Delete(context.Background(), tc.key); err == nil {
					t.Errorf("%s: Delete accepted %q", tc.name, tc.key)
				}
			}
			put(t, st, keyA, []byte("a"))
			put(t, st, keyC, []byte("c"))
			if k := keys(t, st); len(k) != 2 {
				t.Fatalf("List %v", k)
			}
			if err := st.Delete(context.Background(), keyA); err != nil {
				t.Fatal(err)
			}
			if err := st.Delete(context.Background(), keyA); err != nil {
				t.Fatalf("deleting a missing object: %v", err)
			}
			if _, _, err := st.Open(context.Background(), keyA); !errors.Is(err, storage.ErrNotFound) {
				t.Fatalf("Open after Delete: %v", err)
			}
			if k := keys(t, st); len(k) != 1 || k[0] != keyC {
				t.Fatalf("List %v", k)
			}
		})
	}
}

// TestLocalSweep: a temp file a killed process left is swept; files that
// are not ours and symlinks stay out of List and are never followed.
func TestLocalSweep(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "uploads")
	l, err := storage.NewLocal(dir, validKey)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	w, _ := l.Create(context.Background(), keyA, -1)
	w.Write([]byte("half"))
	// No Commit, no Abort: the process "died". Then a foreign file and a
	// planted symlink with a key's name.
	os.WriteFile(filepath.Join(dir, "README"), []byte("x"), 0o600)
	outside := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(outside, []byte("secret"), 0o600)
	os.Symlink(outside, filepath.Join(dir, keyB))
	if n, err := l.SweepIncomplete(context.Background()); err != nil || n != 1 {
		t.Fatalf("swept %d, %v", n, err)
	}
	if k := keys(t, l); len(k) != 0 {
		t.Fatalf("List %v", k)
	}
	if _, _, err := l.Open(context.Background(), keyB); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("a symlink out was opened: %v", err)
	}
	if err := l.Delete(context.Background(), keyB); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(outside); err != nil || string(b) != "secret" {
		t.Fatal("deleting the link touched its target")
	}
}

// TestS3SweepKilledUpload: a multipart upload a killed process left open
// (parts sent, never completed) is no object, and the sweep aborts it.
func TestS3SweepKilledUpload(t *testing.T) {
	cfg := miniotest.Config(t)
	st, err := storage.NewS3(context.Background(), cfg, validKey)
	if err != nil {
		t.Fatal(err)
	}
	core, err := minio.NewCore(strings.TrimPrefix(cfg.Endpoint, "http://"), &minio.Options{
		Creds: credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""), Region: cfg.Region, BucketLookup: minio.BucketLookupPath})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	id, err := core.NewMultipartUpload(ctx, cfg.Bucket, keyA, minio.PutObjectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	data := random(5 << 20)
	if _, err := core.PutObjectPart(ctx, cfg.Bucket, keyA, id, 1, bytes.NewReader(data), int64(len(data)), minio.PutObjectPartOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Stat(ctx, keyA); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("an unfinished upload is an object: %v", err)
	}
	if n, err := st.SweepIncomplete(ctx); err != nil || n != 1 {
		t.Fatalf("swept %d, %v", n, err)
	}
	if n, err := st.SweepIncomplete(ctx); err != nil || n != 0 {
		t.Fatalf("second sweep found %d, %v", n, err)
	}
}
