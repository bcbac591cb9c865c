package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/store/storetest"
)

func TestConfigPrecedence(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(file, []byte("server:\n  addr: \"127.0.0.1:1111\"\n  idle_timeout: 7s\nauth:\n  access_ttl: 20m\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DEVHUB_STORAGE_DATA_DIR", filepath.Join(dir, "data"))
	t.Setenv("DEVHUB_STORAGE_UPLOADS_DIR", filepath.Join(dir, "up"))

	flags := func(addr string) map[string]*pflag.Flag {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		fs.String("addr", "", "")
		if addr != "" {
			if err := fs.Set("addr", addr); err != nil {
				t.Fatal(err)
			}
		}
		return map[string]*pflag.Flag{"server.addr": fs.Lookup("addr")}
	}
	tests := []struct {
		name     string
		env      string
		flag     string
		file     string
		wantAddr string
	}{
		{name: "default", wantAddr: ":8080"},
		{name: "file over default", file: file, wantAddr: "127.0.0.1:1111"},
		{name: "env over file", file: file, env: "127.0.0.1:2222", wantAddr: "127.0.0.1:2222"},
		{name: "flag over env", file: file, env: "127.0.0.1:2222", flag: "127.0.0.1:3333", wantAddr: "127.0.0.1:3333"},
		{name: "flag over default", flag: "127.0.0.1:4444", wantAddr: "127.0.0.1:4444"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv("DEVHUB_SERVER_ADDR", tc.env)
			}
			cfg, err := loadConfig(tc.file, flags(tc.flag))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Server.Addr != tc.wantAddr {
				t.Fatalf("addr = %q, want %q", cfg.Server.Addr, tc.wantAddr)
			}
			if tc.file != "" && (cfg.Server.IdleTimeout != 7*time.Second || cfg.Auth.AccessTTL != 20*time.Minute) {
				t.Fatalf("file values not applied: idle %s access %s", cfg.Server.IdleTimeout, cfg.Auth.AccessTTL)
			}
			if tc.file == "" && cfg.Auth.AccessTTL != 15*time.Minute {
				t.Fatalf("default access ttl = %s", cfg.Auth.AccessTTL)
			}
		})
	}
}

func TestInvalidConfigFailsBeforeStart(t *testing.T) {
	tests := []struct {
		name, key, value, want string
	}{
		{"bad duration", "DEVHUB_AUTH_ACCESS_TTL", "soon", "auth.access_ttl"},
		{"bad address", "DEVHUB_SERVER_ADDR", "localhost", "server.addr"},
		{"data dir is a file", "DEVHUB_STORAGE_DATA_DIR", "FILE", "storage.data_dir"},
		{"short secret", "DEVHUB_AUTH_JWT_SECRET", "short", "auth.jwt_secret"},
		{"bad proxy", "DEVHUB_SERVER_TRUSTED_PROXIES", "10.0.0.0/99", "server.trusted_proxies"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ti := newTestInstance(t)
			value := tc.value
			if value == "FILE" {
				value = filepath.Join(t.TempDir(), "plain-file")
				os.WriteFile(value, []byte("x"), 0o600)
			}
			t.Setenv(tc.key, value)
			_, stderr, code := ti.run("", "serve")
			if code != 1 {
				t.Fatalf("exit code %d, want 1 (stderr %q)", code, stderr)
			}
			if !strings.Contains(stderr, "invalid config") || !strings.Contains(stderr, tc.want) {
				t.Fatalf("stderr %q should name the problem %q", stderr, tc.want)
			}
			if strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Fatalf("want one line, got %q", stderr)
			}
		})
	}
}

func TestStoreInUseFailsFast(t *testing.T) {
	ti := newTestInstance(t)
	// Another process holding the lock without answering on the socket is
	// simulated by holding the store open here: bbolt's flock is per open
	// file, so a second open in this process waits exactly like another
	// process would.
	storetest.OpenPath(t, filepath.Join(ti.dataDir, "devhub.db"))

	start := time.Now()
	_, stderr, code := ti.run("", "backup", filepath.Join(t.TempDir(), "b.db"))
	if code == 0 {
		t.Fatal("backup succeeded against a locked store")
	}
	if !strings.Contains(stderr, "in use") {
		t.Fatalf("stderr %q should say the store is in use", stderr)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %s, want a few seconds at most", d)
	}
}

// seed writes a marker key so a backup can be checked for content.
func seed(t *testing.T, st *store.Store, key, value string) {
	t.Helper()
	if err := st.EnsureBuckets("test"); err != nil {
		t.Fatal(err)
	}
	if err := st.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte("test")).Put([]byte(key), []byte(value)) }); err != nil {
		t.Fatal(err)
	}
}

func readMarker(t *testing.T, path, key string) string {
	t.Helper()
	st, err := store.Open(path, time.Second)
	if err != nil {
		t.Fatalf("backup does not open: %v", err)
	}
	defer st.Close()
	var v string
	st.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket([]byte("test")); b != nil {
			v = string(b.Get([]byte(key)))
		}
		return nil
	})
	return v
}

func TestBackupWithoutServer(t *testing.T) {
	ti := newTestInstance(t)
	st, err := store.Open(filepath.Join(ti.dataDir, "devhub.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	seed(t, st, "k", "offline")
	st.Close()

	dst := filepath.Join(t.TempDir(), "copy.db")
	out, stderr, code := ti.run("", "backup", dst)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, dst) {
		t.Fatalf("stdout %q should name the file", out)
	}
	if got := readMarker(t, dst, "k"); got != "offline" {
		t.Fatalf("backup holds %q", got)
	}
	fi, _ := os.Stat(dst)
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("backup mode %v, want 0600", fi.Mode().Perm())
	}
}

func TestBackupThroughRunningServer(t *testing.T) {
	ti := newTestInstance(t)
	cfg, svc, _ := runningServer(t)
	seed(t, svc.Store, "k", "live")

	// The store stays locked by the "server" the whole time; the command
	// can only succeed by running inside it.
	dst := filepath.Join(t.TempDir(), "copy.db")
	start := time.Now()
	_, stderr, code := ti.run("", "backup", dst)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("backup through the socket took %s: it waited for the lock instead", d)
	}
	if got := readMarker(t, dst, "k"); got != "live" {
		t.Fatalf("backup holds %q", got)
	}
	fi, err := os.Stat(cfg.SocketPath())
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode: %v %v", fi.Mode(), err)
	}
}

func TestRemoteErrorsAndExitCodes(t *testing.T) {
	ti := newTestInstance(t)
	runningServer(t)

	// A failing command inside the server reports on the caller's stderr
	// with a non-zero exit, exactly like a local one.
	_, stderr, code := ti.run("", "backup", filepath.Join(t.TempDir(), "missing-dir", "b.db"))
	if code == 0 || !strings.Contains(stderr, "backup") {
		t.Fatalf("code %d stderr %q", code, stderr)
	}
	// serve refuses to run through the socket.
	if _, stderr, code := ti.run("", "serve"); code == 0 || !strings.Contains(stderr, "already running") {
		t.Fatalf("serve while running: code %d stderr %q", code, stderr)
	}
}
