package main

// The crash test: the real binary, uploads and article creations in
// flight, kill -9 at a random moment, restart — and nothing that was
// acknowledged is lost, nothing half-written is listed, no temp file stays.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"mime/multipart"
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

	bolt "go.etcd.io/bbolt"
)

func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "devhub")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("build: %v", err)
	}
	return bin
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

type instance struct {
	bin, dataDir, addr string
	env                []string
}

// newInstance is bin on a free loopback address with all of its storage
// under dataDir; extra (KEY=value) is added to its environment.
func newInstance(t *testing.T, bin, dataDir string, extra ...string) *instance {
	t.Helper()
	in := &instance{bin: bin, dataDir: dataDir, addr: freeAddr(t)}
	in.env = append(append(os.Environ(),
		"DEVHUB_SERVER_ADDR="+in.addr,
		"DEVHUB_STORAGE_DATA_DIR="+dataDir,
		"DEVHUB_STORAGE_UPLOADS_DIR="+filepath.Join(dataDir, "uploads"),
		"DEVHUB_STORAGE_ROMS_DIR="+filepath.Join(dataDir, "roms"),
		"DEVHUB_STORAGE_CONTENT_DIR="+filepath.Join(dataDir, "content"),
	), extra...)
	return in
}

func (in *instance) run(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(in.bin, args...)
	cmd.Env = in.env
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("devhub %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (in *instance) start(t *testing.T) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(in.bin, "serve")
	cmd.Env = in.env
	var logs bytes.Buffer
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get("http://" + in.addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			return cmd
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("server did not come up: %v\n%s", err, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

type acked struct {
	mu       sync.Mutex
	files    map[uint64]string // id → sha256 of what was sent
	articles map[uint64]string // id → name
}

func (a *acked) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.files) + len(a.articles)
}

func TestCrashKeepsEveryAcknowledgedWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("the crash test builds and kills the real binary")
	}
	bin := buildBinary(t)
	for round := 1; round <= 3; round++ {
		t.Run(fmt.Sprintf("kill point %d", round), func(t *testing.T) {
			in := newInstance(t, bin, t.TempDir(),
				"DEVHUB_FILES_MAX_CONCURRENT_UPLOADS_PER_USER=64",
				"DEVHUB_FILES_UPLOADS_PER_MINUTE=10000",
			)
			in.run(t, "crash-test-password\n", "user", "create", "--email", "owner@example.com", "--name", "Owner", "--admin", "--password-stdin")
			srv := in.start(t)
			token := login(t, in.addr)

			got := &acked{files: map[uint64]string{}, articles: map[uint64]string{}}
			ctx, stop := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			for w := 0; w < 20; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; ctx.Err() == nil; i++ {
						if w%4 == 0 {
							createArticle(ctx, in.addr, token, fmt.Sprintf("Crash %d-%d", w, i), got)
						} else {
							uploadFile(ctx, in.addr, token, (1+rand.IntN(4))<<20, got)
						}
					}
				}()
			}
			// The kill point: once a random number of writes were
			// acknowledged, with twenty more in flight.
			target := 5 + rand.IntN(40)
			deadline := time.Now().Add(60 * time.Second)
			for got.count() < target && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			srv.Process.Signal(syscall.SIGKILL)
			srv.Wait()
			stop()
			wg.Wait()

			// The store passes bbolt's consistency check after the crash.
			db, err := bolt.Open(filepath.Join(in.dataDir, "devhub.db"), 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
			if err != nil {
				t.Fatalf("store after kill -9: %v", err)
			}
			db.View(func(tx *bolt.Tx) error {
				for e := range tx.Check() {
					t.Errorf("store check: %v", e)
				}
				return nil
			})
			db.Close()

			srv = in.start(t)
			defer func() { srv.Process.Signal(syscall.SIGTERM); srv.Wait() }()
			t.Logf("acknowledged before the kill: %d files, %d articles", len(got.files), len(got.articles))
			if len(got.files) == 0 {
				t.Fatal("no upload finished before the kill; the kill point tells nothing")
			}
			listed := listFiles(t, in.addr)
			for id, sum := range got.files {
				if !listed[id] {
					t.Errorf("acknowledged file %d is missing after the restart", id)
					continue
				}
				if have := downloadSum(t, in.addr, id); have != sum {
					t.Errorf("file %d: sha256 %s after the restart, %s sent", id, have, sum)
				}
			}
			// Nothing half-written is listed: every listed file downloads
			// whole and matches its recorded hash.
			for id := range listed {
				if _, ok := got.files[id]; !ok {
					downloadSum(t, in.addr, id) // a file committed just before the kill, its answer lost: must be whole
				}
			}
			for id, name := range got.articles {
				resp, err := http.Get(fmt.Sprintf("http://%s/api/blog/%d", in.addr, id))
				if err != nil || resp.StatusCode != 200 {
					t.Errorf("acknowledged article %d (%s) is missing after the restart", id, name)
				}
				if resp != nil {
					resp.Body.Close()
				}
			}
			entries, _ := os.ReadDir(filepath.Join(in.dataDir, "uploads"))
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), ".upload-") {
					t.Errorf("temp file %s left after start-up", e.Name())
				}
			}
		})
	}
}

func login(t *testing.T, addr string) string {
	t.Helper()
	body := `{"email":"owner@example.com","password":"crash-test-password"}`
	resp, err := http.Post("http://"+addr+"/api/auth/login", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct{ Tokens struct{ AccessToken string } }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Tokens.AccessToken == "" {
		t.Fatalf("login: %d %v", resp.StatusCode, err)
	}
	return out.Tokens.AccessToken
}

func uploadFile(ctx context.Context, addr, token string, size int, got *acked) {
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(rand.IntN(256))
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, _ := mw.CreateFormFile("files", "crash.bin")
	w.Write(data)
	mw.Close()
	req, _ := http.NewRequestWithContext(ctx, "POST", "http://"+addr+"/api/files/upload", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	var out struct {
		Files []struct {
			ID     uint64 `json:"id"`
			SHA256 string `json:"sha256"`
		} `json:"files"`
	}
	if !created(req, &out) || len(out.Files) != 1 {
		return
	}
	sum := sha256.Sum256(data)
	got.mu.Lock()
	got.files[out.Files[0].ID] = hex.EncodeToString(sum[:])
	got.mu.Unlock()
}

func createArticle(ctx context.Context, addr, token, name string, got *acked) {
	b, _ := json.Marshal(map[string]string{"name": name, "excerpt": "e", "category": "crash", "content": "Body of " + name})
	req, _ := http.NewRequestWithContext(ctx, "POST", "http://"+addr+"/api/blog", bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	var out struct {
		ID uint64 `json:"id"`
	}
	if !created(req, &out) {
		return
	}
	got.mu.Lock()
	got.articles[out.ID] = name
	got.mu.Unlock()
}

// created sends req and reports whether it was answered 201 with a body
// that decodes into out: only then is the write acknowledged (a request the
// kill cut off is not).
func created(req *http.Request, out any) bool {
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	return resp.StatusCode == 201 && json.NewDecoder(resp.Body).Decode(out) == nil
}

func listFiles(t *testing.T, addr string) map[uint64]bool {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/api/files")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var groups map[string]json.RawMessage
	if err := json.NewDecoder(resp.Body).Decode(&groups); err != nil {
		t.Fatal(err)
	}
	ids := map[uint64]bool{}
	for _, raw := range groups {
		var items []struct {
			ID uint64 `json:"id"`
		}
		if json.Unmarshal(raw, &items) == nil {
			for _, it := range items {
				ids[it.ID] = true
			}
		}
	}
	return ids
}

func downloadSum(t *testing.T, addr string, id uint64) string {
	t.Helper()
	resp, err := http.Get(fmt.Sprintf("http://%s/api/files/%d/download", addr, id))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("download %d: %d", id, resp.StatusCode)
		return ""
	}
	h := sha256.New()
	n, _ := io.Copy(h, resp.Body)
	if n != resp.ContentLength {
		t.Errorf("download %d: %d bytes of %d", id, n, resp.ContentLength)
	}
	return hex.EncodeToString(h.Sum(nil))
}
