package cli

import (
	"bufio"

	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// asBinary makes this test binary act as the devhub binary when a test
// starts it as one (an upgrade starts os.Args[0] again, which must be a
// real executable of its own).
const asBinary = "DEVHUB_TEST_AS_BINARY"

func TestMain(m *testing.M) {
	if os.Getenv(asBinary) == "1" {
		os.Exit(Execute())
	}
	os.Exit(m.Run())
}

func readPID(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

func alive(pid int) bool { return pid > 0 && syscall.Kill(pid, 0) == nil }

// SIGHUP starts the binary again on the same sockets while requests keep
// coming: none fails, a request in flight across the switch is answered,
// the old process exits and the new one serves (the store included).
func TestServeUpgradeUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real server processes")
	}
	dir := t.TempDir()
	addr := freePort(t)
	pidFile := filepath.Join(dir, "devhub.pid")
	cmd := exec.Command(os.Args[0], "serve", "--pid-file", pidFile)
	cmd.Env = append(os.Environ(), asBinary+"=1",
		"DEVHUB_SERVER_ADDR="+addr,
		"DEVHUB_STORAGE_DATA_DIR="+filepath.Join(dir, "data"),
		"DEVHUB_STORAGE_UPLOADS_DIR="+filepath.Join(dir, "uploads"),
		"DEVHUB_STORAGE_ROMS_DIR="+filepath.Join(dir, "roms"),
		"DEVHUB_STORAGE_CONTENT_DIR="+filepath.Join(dir, "content"),
		"DEVHUB_ACTIVITY_RATE_PER_MINUTE=1000000", "DEVHUB_ACTIVITY_GLOBAL_RATE_PER_MINUTE=1000000")
	logs := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	oldExited := make(chan error, 1)
	// Process.Wait, not cmd.Wait: the new process inherits the log pipe,
	// which stays open after the old one exits.
	go func() { _, err := cmd.Process.Wait(); oldExited <- err }()
	t.Cleanup(func() {
		// Whichever process serves at the end is stopped, and waited for.
		for _, pid := range []int{cmd.Process.Pid, readPID(pidFile)} {
			if alive(pid) {
				syscall.Kill(pid, syscall.SIGTERM)
			}
		}
		deadline := time.Now().Add(20 * time.Second)
		for alive(readPID(pidFile)) && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	})
	base := "http://" + addr
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: timed out\n%s", what, logs.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	get := func(c *http.Client, path string) error {
		resp, err := c.Get(base + path)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("GET %s: %d %s", path, resp.StatusCode, body)
		}
		return nil
	}
	waitFor("the first server answers", func() bool { return get(http.DefaultClient, "/readyz") == nil })
	oldPID := cmd.Process.Pid
	if got := readPID(pidFile); got != oldPID {
		t.Fatalf("pid file holds %d, want %d", got, oldPID)
	}

	// Load: a few clients with keep-alive connections, each request
	// reading and writing the store (/readyz) or not (/healthz).
	var ok, failed atomic.Int64
	var errMu sync.Mutex
	var firstErr error
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 2}}
			paths := []string{"/healthz", "/readyz", "/api/site"}
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				if err := get(c, paths[(n+i)%len(paths)]); err != nil {
					failed.Add(1)
					errMu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					errMu.Unlock()
				} else {
					ok.Add(1)
				}
			}
		}()
	}
	waitFor("load runs", func() bool { return ok.Load() > 50 })

	// A request in flight across the switch: its first half now, to the
	// old process, the rest once the new one is ready.
	inflight, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer inflight.Close()
	fmt.Fprintf(inflight, "GET /healthz HTTP/1.1\r\nHost: %s\r\n", addr)

	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	waitFor("the new process is ready", func() bool { p := readPID(pidFile); return p != 0 && p != oldPID && alive(p) })
	fmt.Fprintf(inflight, "\r\n")
	inflight.SetReadDeadline(time.Now().Add(20 * time.Second))
	line, err := bufio.NewReader(inflight).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "HTTP/1.1 200") {
		t.Fatalf("the request in flight across the upgrade got %q, %v", line, err)
	}
	select {
	case <-oldExited:
	case <-time.After(30 * time.Second):
		t.Fatalf("the old process did not exit\n%s", logs.String())
	}
	// The new process serves, its store too, with the load still on.
	before := ok.Load()
	waitFor("the new process serves the load", func() bool { return ok.Load() > before+50 })
	close(stop)
	wg.Wait()
	if n := failed.Load(); n > 0 {
		t.Fatalf("%d of %d requests failed across the upgrade; first: %v", n, n+ok.Load(), firstErr)
	}
	if err := get(http.DefaultClient, "/readyz"); err != nil {
		t.Fatalf("after the upgrade: %v", err)
	}
	if !strings.Contains(logs.String(), "upgraded: waiting for the previous process") {
		t.Fatalf("the new process did not say it was an upgrade\n%s", logs.String())
	}

}
