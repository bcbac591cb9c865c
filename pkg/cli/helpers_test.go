package cli

import (
	"time"

	"bytes"
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

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
	var out, errb bytes.Buffer
	env := &Env{
		In: strings.NewReader(stdin), Out: &out, Err: &errb, Cwd: ti.t.TempDir(),
		log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	code := run(context.Background(), env, args)
	return out.String(), errb.String(), code
}

// runningServer stands in for `devhub serve` on the test instance: the
// store is held open by this "server" and its owner socket answers, so CLI
// commands run in tests can only succeed through the socket. Everything is
// released when the test ends.
func runningServer(t *testing.T) (config.Config, *services, *ownerSocket) {
	t.Helper()
	cfg, err := loadConfig("", nil)
	if err != nil {
		t.Fatal(err)
	}
	svc := openServices(t, cfg)
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
