// Package miniotest runs a real MinIO server on 127.0.0.1 for tests of the
// S3 storage backend: one per test binary, started on first use, with its
// data in a temp directory, and killed with the test binary (Pdeathsig).
// Each test gets a bucket of its own.
//
// The server binary comes from DEVHUB_MINIO (set by the Makefile, which
// builds the pinned MinIO into build/tools), build/tools/minio-*/minio
// under the module root, or "minio" on PATH. Without one
// the test fails with how to get it: a storage test that quietly skipped
// would count as passing.
package miniotest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/devhub/devhub/pkg/internal/random"
	"github.com/devhub/devhub/pkg/storage"
)

// Credentials of the test server.
const (
	AccessKey = "devhub-test"
	SecretKey = "devhub-test-secret"
)

var (
	once     sync.Once
	endpoint string
	startErr error
)

// Config returns the S3 settings of a fresh bucket on the shared test
// server (the bucket is created by storage.NewS3).
func Config(t testing.TB) storage.S3Config {
	t.Helper()
	once.Do(func() { endpoint, startErr = start() })
	if startErr != nil {
		t.Fatalf("MinIO for the S3 tests: %v", startErr)
	}
	return storage.S3Config{Endpoint: endpoint, Bucket: "t-" + random.Hex(8), Region: "us-east-1", PathStyle: true,
		AccessKey: AccessKey, SecretKey: SecretKey}
}

func binary() (string, error) {
	if p := os.Getenv("DEVHUB_MINIO"); p != "" {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	// The Makefile's copy, found from the module root (go test runs in a
	// package directory below it).
	if dir, err := os.Getwd(); err == nil {
		for ; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				if m, _ := filepath.Glob(filepath.Join(dir, "build", "tools", "minio-*", "minio")); len(m) > 0 {
					return m[len(m)-1], nil
				}
				break
			}
		}
	}
	if p, err := exec.LookPath("minio"); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("no MinIO server binary: run `make minio` (builds the pinned one into build/tools) and set DEVHUB_MINIO to it, or use `make test`")
}

func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func start() (string, error) {
	bin, err := binary()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "devhub-minio-")
	if err != nil {
		return "", err
	}
	addr, err := freePort()
	if err != nil {
		return "", err
	}
	console, err := freePort()
	if err != nil {
		return "", err
	}
	cmd := exec.Command(bin, "server", filepath.Join(dir, "data"), "--address", addr, "--console-address", console, "--quiet")
	cmd.Env = append(os.Environ(), "MINIO_ROOT_USER="+AccessKey, "MINIO_ROOT_PASSWORD="+SecretKey,
		"MINIO_BROWSER=off", "MINIO_UPDATE=off", "HOME="+dir)
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	// The server dies with the test binary, however that ends.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("start %s: %w", bin, err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	url := "http://" + addr
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/minio/health/ready", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return url, nil
			}
		}
		select {
		case <-exited:
			return "", fmt.Errorf("MinIO exited: %s", logs.String())
		case <-ctx.Done():
			cmd.Process.Kill()
			return "", fmt.Errorf("MinIO not ready within 60 s: %s", logs.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Incomplete counts the multipart uploads open in cfg's bucket: an upload
// in progress that has sent a part, or one a killed writer left behind.
func Incomplete(t testing.TB, cfg storage.S3Config) int {
	t.Helper()
	c, err := minio.New(strings.TrimPrefix(cfg.Endpoint, "http://"), &minio.Options{
		Creds: credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""), Region: cfg.Region, BucketLookup: minio.BucketLookupPath})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for up := range c.ListIncompleteUploads(context.Background(), cfg.Bucket, "", true) {
		if up.Err != nil {
			t.Fatal(up.Err)
		}
		n++
	}
	return n
}
