package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/storage/miniotest"
)

// TestStorageMigrate moves the file cloud to a real MinIO and back through
// the CLI; every bad invocation fails with a message and moves nothing.
func TestStorageMigrate(t *testing.T) {
	ti := newTestInstance(t)
	src := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(src, []byte("bytes that travel"), 0o600)
	if _, errOut, code := ti.run("", "file", "add", src, src); code != 0 {
		t.Fatalf("file add: %s", errOut)
	}

	bad := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"no target", []string{"storage", "migrate"}, "--to must be local or s3"},
		{"unknown target", []string{"storage", "migrate", "--to", "ftp"}, "--to must be local or s3"},
		{"s3 not configured", []string{"storage", "migrate", "--to", "s3"}, "not configured"},
		{"an argument", []string{"storage", "migrate", "--to", "s3", "extra"}, "unknown command"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := ti.run("", tc.args...)
			if code == 0 || !strings.Contains(errOut, tc.wantErr) {
				t.Fatalf("exit %d, stderr %q; want %q", code, errOut, tc.wantErr)
			}
		})
	}

	cfg := miniotest.Config(t)
	t.Setenv("DEVHUB_STORAGE_S3_ENDPOINT", cfg.Endpoint)
	t.Setenv("DEVHUB_STORAGE_S3_BUCKET", cfg.Bucket)
	t.Setenv("DEVHUB_STORAGE_S3_ACCESS_KEY", cfg.AccessKey)
	t.Setenv("DEVHUB_STORAGE_S3_SECRET_KEY", cfg.SecretKey)
	for _, to := range []string{"s3", "local"} {
		out, errOut, code := ti.run("", "storage", "migrate", "--to", to)
		if code != 0 || !strings.Contains(out, "2 file(s), 34 B moved to "+to) {
			t.Fatalf("migrate --to %s: exit %d\n%s%s", to, code, out, errOut)
		}
		for _, id := range []string{"1", "2"} {
			got, errOut, code := ti.run("", "file", "get", id, "-o", "-")
			if code != 0 || got != "bytes that travel" {
				t.Fatalf("after --to %s, file %s: %q %s", to, id, got, errOut)
			}
		}
	}
	if out, _, code := ti.run("", "storage", "migrate", "--to", "local"); code != 0 || !strings.Contains(out, "0 file(s)") {
		t.Fatalf("nothing left to move: %s", out)
	}
}
