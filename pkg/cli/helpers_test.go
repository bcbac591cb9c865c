package cli

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/store"
)

// testInstance is one devhub data directory for CLI tests, configured
// through the DEVHUB_* environment like a real deployment.
type testInstance struct {
	t       *testing.T
	dataDir string
}

// newTestInstance points every storage setting at fresh temp directories.
func newTestInstance(t *testing.T) *testInstance {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("DEVHUB_STORAGE_DATA_DIR", filepath.Join(dir, "data"))
	t.Setenv("DEVHUB_STORAGE_UPLOADS_DIR", filepath.Join(dir, "uploads"))
	t.Setenv("DEVHUB_STORAGE_ROMS_DIR", filepath.Join(dir, "roms"))
	t.Setenv("DEVHUB_STORAGE_CONTENT_DIR", filepath.Join(dir, "content"))
	return &testInstance{t: t, dataDir: filepath.Join(dir, "data")}
}

// run executes one command line the way a terminal user would (stdin from
// the given text) and returns stdout, stderr and the exit code.
func (ti *testInstance) run(stdin string, args ...string) (string, string, int) {
	ti.t.Helper()
	return articleCLI(ti.t, ti.t.TempDir(), stdin, args...)
}

// syncBuffer is a log sink that a server's goroutines (requests, the
// thumbnail backfill) may write to while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serveRefused runs `devhub serve` on a fresh instance with env set and
// fails the test unless it exits 1 with want in stderr; it returns the
// instance and stderr for further checks.
func serveRefused(t *testing.T, env map[string]string, want string) (*testInstance, string) {
	t.Helper()
	ti := newTestInstance(t)
	for k, v := range env {
		t.Setenv(k, v)
	}
	_, stderr, code := ti.run("", "serve")
	if code != 1 || !strings.Contains(stderr, want) {
		t.Fatalf("exit %d, stderr %q, want %q", code, stderr, want)
	}
	return ti, stderr
}

// cliCase is one command line of a table test: its arguments, the exit
// code, texts the output must contain and a text stderr must contain (""
// for any).
type cliCase struct {
	name       string
	args       []string
	code       int
	wantOut    []string
	wantStderr string
}

// runCLICases runs the cases in order, each as a subtest, in cwd with
// stdin: later cases see what earlier ones wrote.
func runCLICases(t *testing.T, cwd, stdin string, cases []cliCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := articleCLI(t, cwd, stdin, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s %s", code, tc.code, out, stderr)
			}
			for _, w := range tc.wantOut {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if !strings.Contains(stderr, tc.wantStderr) {
				t.Errorf("stderr lacks %q: %s", tc.wantStderr, stderr)
			}
		})
	}
}

// articleCreateArgs is `article create --json` of an article named N whose
// body comes from stdin, with extra flags.
func articleCreateArgs(extra ...string) []string {
	return append([]string{"article", "create", "--name", "N", "--excerpt", "E", "--category", "C", "--file", "-", "--json"}, extra...)
}

// runningServer stands in for `devhub serve` on the test instance: the
// store is held open by this "server" and its owner socket answers, so CLI
// commands run in tests can only succeed through the socket. Everything is
// released when the test ends.
func runningServer(t *testing.T) (config.Config, *services, *ownerSocket) {
	t.Helper()
	cfg, svc := openInstance(t)
	sock, err := listenOwnerSocket(cfg, svc, svc.log)
	if err != nil {
		svc.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		sock.Close()
		svc.Close()
	})
	return cfg, svc, sock
}

// openInstance loads the test instance's configuration and opens its
// services; the caller closes them.
func openInstance(t *testing.T) (config.Config, *services) {
	t.Helper()
	cfg, err := loadConfig("", nil)
	if err != nil {
		t.Fatal(err)
	}
	return cfg, openServices(t, cfg)
}

// openServices opens the store and builds the services the way serve does;
// the caller closes them (tests that restart a "server" need that control).
func openServices(t *testing.T, cfg config.Config) *services {
	t.Helper()
	st, err := store.Open(cfg.DBPath(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := newServices(context.Background(), cfg, st, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	return svc
}
