package cli

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
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
