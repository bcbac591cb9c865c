package cli

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/server"
)

// writeNew writes a file, making its directory.
func writeNew(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, data)
}

// servedInstance is a test instance's services started and served the way
// `devhub serve` does, with a signed-in user.
type servedInstance struct {
	ti    *testInstance
	svc   *services
	app   *fiber.App
	token string
	game  uint64
}

// serveInstance starts the instance configured by the environment (and a
// ROM in roms/nes) and signs a user in through POST /api/auth/login.
func serveInstance(t *testing.T, ti *testInstance) *servedInstance {
	t.Helper()
	cfg, err := loadConfig("", nil)
	if err != nil {
		t.Fatal(err)
	}
	writeNew(t, filepath.Join(cfg.Storage.RomsDir, "nes", "Game.nes"), []byte("NES\x1agame"))
	svc := openServices(t, cfg)
	t.Cleanup(func() { svc.Close() })
	ctx := context.Background()
	if err := svc.startup(ctx); err != nil {
		t.Fatal(err)
	}
	app, err := server.New(server.Options{Config: cfg, Services: svc.Services, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Auth.CreateUser(ctx, auth.NewUser{Email: "player@example.com", Name: "Player", Password: "correct horse battery"}); err != nil {
		t.Fatal(err)
	}
	games, err := svc.Roms.All("nes")
	if err != nil || len(games) != 1 {
		t.Fatal("the game is not indexed", err)
	}
	si := &servedInstance{ti: ti, svc: svc, app: app, game: games[0].ID}
	si.token = si.signIn(t)
	return si
}

// signIn signs the user in and answers the access token.
func (si *servedInstance) signIn(t *testing.T) string {
	t.Helper()
	req := httptest.NewRequest("POST", "/api/auth/login", strings.NewReader(`{"email":"player@example.com","password":"correct horse battery"}`))
	req.Header.Set("Content-Type", "application/json")
	status, body := si.do(t, req)
	var out struct {
		Tokens struct {
			AccessToken string `json:"accessToken"`
		} `json:"tokens"`
	}
	if status != http.StatusOK || json.Unmarshal(body, &out) != nil || out.Tokens.AccessToken == "" {
		t.Fatalf("sign-in: %d %s", status, body)
	}
	return out.Tokens.AccessToken
}

func (si *servedInstance) do(t *testing.T, req *http.Request) (int, []byte) {
	t.Helper()
	if si.token != "" && req.Header.Get("Authorization") == "" {
		req.Header.Set("Authorization", "Bearer "+si.token)
	}
	resp, err := si.app.Test(req, fiber.TestConfig{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body
}

func uploadReq(t *testing.T, name string, data []byte) *http.Request {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	w, _ := mw.CreateFormFile("files", name)
	w.Write(data)
	mw.Close()
	req := httptest.NewRequest("POST", "/api/files/upload", &b)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return req
}

func tusCreateReq(length int) *http.Request {
	req := httptest.NewRequest("POST", "/api/files/tus/", nil)
	req.Header.Set("Tus-Resumable", "1.0.0")
	req.Header.Set("Upload-Length", fmt.Sprint(length))
	req.Header.Set("Upload-Metadata", "filename "+base64.StdEncoding.EncodeToString([]byte("big.bin")))
	return req
}

// Everything devhub writes under data_dir and uploads_dir is for the server
// alone: directories 0700, files 0600 — the store, uploaded files, staged
// resumable uploads, thumbnails, save states. The thumbnails' and the
// staging's directories made 0750 by earlier versions are tightened (the
// two directories themselves are the owner's: serve makes them 0700 when
// they are missing).
func TestDataAndUploadsArePrivate(t *testing.T) {
	ti := newTestInstance(t)
	uploads := os.Getenv("DEVHUB_STORAGE_UPLOADS_DIR")
	for _, dir := range []string{ti.dataDir, uploads} {
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range []string{filepath.Join(ti.dataDir, "thumbs"), filepath.Join(uploads, ".tus")} {
		if err := os.Mkdir(dir, 0o750); err != nil {
			t.Fatal(err)
		}
	}
	si := serveInstance(t, ti)
	if status, body := si.do(t, uploadReq(t, "photo.png", pngOf(t, 64, 48))); status != http.StatusCreated {
		t.Fatalf("upload: %d %s", status, body)
	}
	si.svc.Thumbs.Wait()
	status, _ := si.do(t, tusCreateReq(100))
	if status != http.StatusCreated {
		t.Fatalf("tus creation: %d", status)
	}
	put := httptest.NewRequest("PUT", fmt.Sprintf("/api/games/%d/states/1", si.game), strings.NewReader("state"))
	put.Header.Set("X-Emulator-Core", "fceumm")
	if status, body := si.do(t, put); status != http.StatusNoContent {
		t.Fatalf("save state: %d %s", status, body)
	}

	kinds := map[string]int{}
	for _, root := range []string{ti.dataDir, uploads} {
		filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				t.Fatal(err)
			}
			fi, err := e.Info()
			if err != nil {
				t.Fatal(err)
			}
			want := fs.FileMode(0o600)
			switch {
			case e.IsDir():
				want = 0o700
			case !e.Type().IsRegular():
				return nil // the owner socket: its own test
			}
			if fi.Mode().Perm() != want {
				t.Errorf("%s is %v, want %v", p, fi.Mode().Perm(), want)
			}
			kinds[filepath.Base(filepath.Dir(p))]++
			return nil
		})
	}
	// What the walk must have met: the store, an uploaded file, a staged
	// upload, a thumbnail, a save state.
	for _, dir := range []string{filepath.Base(ti.dataDir), filepath.Base(uploads), ".tus", "thumbs", "1"} {
		if kinds[dir] == 0 {
			t.Errorf("no file met in a %s directory: %v", dir, kinds)
		}
	}
}

// storage.min_free_bytes reaches every writer: with a reserve larger than
// any disk, an upload of either kind and a save state are the 507, and
// signing in still works. Resumable uploads are staged on the uploads'
// disk, and what an older version staged beside the store is gone.
func TestFreeSpaceReserveIsWired(t *testing.T) {
	ti := newTestInstance(t)
	legacy := filepath.Join(ti.dataDir, "tus")
	writeNew(t, filepath.Join(legacy, strings.Repeat("ab", 16)), []byte("staged by an older version"))
	writeFile(t, filepath.Join(legacy, strings.Repeat("ab", 16)+".info"), []byte("{}"))
	t.Setenv("DEVHUB_STORAGE_MIN_FREE_BYTES", "1152921504606846976") // 1 EiB
	si := serveInstance(t, ti)
	if _, err := os.Stat(legacy); !os.IsNotExist(err) {
		t.Errorf("the staging beside the store survived start-up: %v", err)
	}
	if got, want := si.svc.Services.TusDir, filepath.Join(os.Getenv("DEVHUB_STORAGE_UPLOADS_DIR"), ".tus"); got != want {
		t.Errorf("resumable uploads staged in %s, want %s", got, want)
	}
	put := httptest.NewRequest("PUT", fmt.Sprintf("/api/games/%d/states/1", si.game), strings.NewReader("state"))
	put.Header.Set("X-Emulator-Core", "fceumm")
	for name, req := range map[string]*http.Request{
		"file upload":      uploadReq(t, "a.txt", []byte("hello")),
		"resumable upload": tusCreateReq(5),
		"save state":       put,
	} {
		status, body := si.do(t, req)
		if status != http.StatusInsufficientStorage || !strings.Contains(string(body), "not enough storage space") {
			t.Errorf("%s: %d %s, want 507", name, status, body)
		}
	}
	si.signIn(t)
}
