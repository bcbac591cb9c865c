package cli

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/store"
)

func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// serve answers /healthz, accepts CLI commands on its socket while running,
// and on cancellation (what SIGINT/SIGTERM do) shuts down cleanly: it
// returns nil, removes the socket and releases the store.
func TestServeRunsAndShutsDownGracefully(t *testing.T) {
	ti := newTestInstance(t)
	addr := freePort(t)
	t.Setenv("DEVHUB_SERVER_ADDR", addr)
	cfg, err := loadConfig("", nil)
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	env := &Env{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}, Cwd: t.TempDir(),
		cfg: cfg, loaded: true, log: slog.New(slog.NewTextHandler(logs, nil))}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, env) }()

	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not come up: %v\n%s", err, logs.String())
		}
		select {
		case err := <-done:
			t.Fatalf("serve returned early: %v\n%s", err, logs.String())
		case <-time.After(20 * time.Millisecond):
		}
	}

	// A second server on the same data directory is refused.
	if _, stderr, code := ti.run("", "serve"); code == 0 || !strings.Contains(stderr, "already running") {
		t.Fatalf("second serve: code %d, stderr %q", code, stderr)
	}
	// The CLI works meanwhile, through the socket.
	dst := filepath.Join(t.TempDir(), "live.db")
	if _, stderr, code := ti.run("", "backup", dst); code != 0 {
		t.Fatalf("backup while serving: %s", stderr)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not shut down")
	}
	if !strings.Contains(logs.String(), "shutting down") {
		t.Fatalf("no shutdown line in the log:\n%s", logs.String())
	}
	if _, err := os.Stat(cfg.SocketPath()); !os.IsNotExist(err) {
		t.Fatalf("socket left behind: %v", err)
	}
	st, err := store.Open(cfg.DBPath(), time.Second)
	if err != nil {
		t.Fatalf("store still locked after shutdown: %v", err)
	}
	st.Close()
	if _, err := http.Get("http://" + addr + "/healthz"); err == nil {
		t.Fatal("still answering after shutdown")
	}
}
