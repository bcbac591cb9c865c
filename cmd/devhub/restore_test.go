package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// The restore of docs/deploy.md: back up a running server through the
// owner socket, copy the uploads, start a second server on the copies, and
// find the account, the article and the file there.
func TestBackupRestores(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the real binary")
	}
	bin := buildBinary(t)
	src := newInstance(t, bin, t.TempDir())
	src.run(t, "crash-test-password\n", "user", "create", "--email", "owner@example.com", "--name", "Owner", "--admin", "--password-stdin")
	srv := src.start(t)
	token := login(t, src.addr)
	got := &acked{files: map[uint64]string{}, articles: map[uint64]string{}}
	uploadFile(context.Background(), src.addr, token, 300<<10, got)
	createArticle(context.Background(), src.addr, token, "Before the backup", got)
	if len(got.files) != 1 || len(got.articles) != 1 {
		t.Fatalf("seeding: %d files, %d articles", len(got.files), len(got.articles))
	}
	backup := filepath.Join(t.TempDir(), "devhub-backup.db")
	src.run(t, "", "backup", backup) // through the running server
	srv.Process.Signal(syscall.SIGTERM)
	srv.Wait()

	dst := newInstance(t, bin, t.TempDir())
	if err := os.MkdirAll(filepath.Join(dst.dataDir, "uploads"), 0o750); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-a", backup, filepath.Join(dst.dataDir, "devhub.db")).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	if out, err := exec.Command("cp", "-a", filepath.Join(src.dataDir, "uploads")+"/.", filepath.Join(dst.dataDir, "uploads")).CombinedOutput(); err != nil {
		t.Fatalf("cp uploads: %v %s", err, out)
	}
	restored := dst.start(t)
	defer func() { restored.Process.Signal(syscall.SIGTERM); restored.Wait() }()
	login(t, dst.addr)
	for id, sum := range got.files {
		if have := downloadSum(t, dst.addr, id); have != sum {
			t.Fatalf("restored file %d: sha256 %s, want %s", id, have, sum)
		}
	}
	for id := range got.articles {
		resp, err := http.Get(fmt.Sprintf("http://%s/api/blog/%d", dst.addr, id))
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("restored article %d: %v %v", id, resp, err)
		}
		resp.Body.Close()
	}
}
