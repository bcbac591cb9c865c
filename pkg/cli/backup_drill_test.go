package cli

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v3"
	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/server"
	"github.com/devhub/devhub/pkg/storage/miniotest"
)

// dumpStore lists every key and value of every bucket (nested ones too) of
// the store at path, opened read-only.
func dumpStore(t *testing.T, path string) map[string]string {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := map[string]string{}
	var walk func(prefix string, b *bolt.Bucket)
	walk = func(prefix string, b *bolt.Bucket) {
		b.ForEach(func(k, v []byte) error {
			if v == nil {
				walk(prefix+hex.EncodeToString(k)+"/", b.Bucket(k))
				return nil
			}
			out[prefix+hex.EncodeToString(k)] = string(v)
			return nil
		})
	}
	db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			walk(string(name)+"/", b)
			return nil
		})
	})
	return out
}

// dumpTree reads every file under dir by its path inside it.
func dumpTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = string(raw)
		return nil
	})
	return out
}

// apiView is what the site answers about its data, read over HTTP as the
// admin and as a player: accounts, articles, files with their bytes, share
// links and save states.
func apiView(t *testing.T) map[string]string {
	t.Helper()
	cfg, svc := openInstance(t)
	defer svc.Close()
	app, err := server.New(server.Options{Config: cfg, Services: svc.Services, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	call := func(method, path, token, body string) string {
		var r io.Reader
		if body != "" {
			r = strings.NewReader(body)
		}
		req := httptest.NewRequest(method, path, r)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := app.Test(req, fiber.TestConfig{Timeout: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
		}
		return string(raw)
	}
	login := func(email, password string) string {
		var res struct {
			Tokens struct{ AccessToken string } `json:"tokens"`
		}
		json.Unmarshal([]byte(call("POST", "/api/auth/login", "", `{"email":"`+email+`","password":"`+password+`"}`)), &res)
		return res.Tokens.AccessToken
	}
	admin, player := login("owner@example.org", "owner password 1"), login("player@example.org", "player password 1")
	view := map[string]string{
		"users":    call("GET", "/api/auth/admin/users", admin, ""),
		"articles": call("GET", "/api/blog", "", ""),
		"article":  call("GET", "/api/blog/1", "", ""),
		"files":    call("GET", "/api/files", "", ""),
		"file 1":   call("GET", "/api/files/1/download", "", ""),
		"file 2":   call("GET", "/api/files/2/download", "", ""),
		"shares":   call("GET", "/api/files/1/shares", admin, ""),
		"states":   call("GET", "/api/games/1/states", player, ""),
		"state 1":  call("GET", "/api/games/1/states/1", player, ""),
	}
	return view
}

// TestRestoreDrill seeds a site, backs it up to a directory and to MinIO,
// wipes it, restores it and finds it equal: the store key by key, every
// file byte for byte, and the API's answers.
func TestRestoreDrill(t *testing.T) {
	for _, to := range []string{"directory", "minio"} {
		t.Run(to, func(t *testing.T) {
			ti := newTestInstance(t)
			root := filepath.Dir(ti.dataDir)
			dest := filepath.Join(t.TempDir(), "backups")
			if to == "minio" {
				cfg := miniotest.Config(t)
				t.Setenv("DEVHUB_STORAGE_S3_ENDPOINT", cfg.Endpoint)
				t.Setenv("DEVHUB_STORAGE_S3_ACCESS_KEY", cfg.AccessKey)
				t.Setenv("DEVHUB_STORAGE_S3_SECRET_KEY", cfg.SecretKey)
				dest = "s3://" + cfg.Bucket
			}
			t.Setenv("DEVHUB_BACKUP_TO", dest)
			seedSite(t, ti)

			// The store as the backup copies it (the backup's own audit
			// event comes after the copy).
			wantStore := dumpStore(t, filepath.Join(ti.dataDir, "devhub.db"))
			out, errOut, code := ti.run("", "backup")
			if code != 0 || !strings.Contains(out, "devhub-backup-") {
				t.Fatalf("backup: exit %d\n%s%s", code, out, errOut)
			}
			trees := []string{"data/gamestates", "uploads", "roms", "content"}
			wantTrees := map[string]map[string]string{}
			for _, tr := range trees {
				wantTrees[tr] = dumpTree(t, filepath.Join(root, tr))
			}
			if len(wantTrees["uploads"]) != 2 || len(wantTrees["data/gamestates"]) == 0 || len(wantTrees["roms"]) != 1 {
				t.Fatalf("seeding went wrong: %v", wantTrees)
			}
			wantAPI := apiView(t)

			for _, dir := range []string{"data", "uploads", "roms", "content"} {
				if err := os.RemoveAll(filepath.Join(root, dir)); err != nil {
					t.Fatal(err)
				}
			}
			out, errOut, code = ti.run("", "restore", "latest")
			if code != 0 || !strings.Contains(out, "restored devhub-backup-") {
				t.Fatalf("restore: exit %d\n%s%s", code, out, errOut)
			}
			if got := dumpStore(t, filepath.Join(ti.dataDir, "devhub.db")); !reflect.DeepEqual(got, wantStore) {
				t.Fatalf("the store differs: %d keys, want %d\n%s", len(got), len(wantStore), diffKeys(got, wantStore))
			}
			for _, tr := range trees {
				if got := dumpTree(t, filepath.Join(root, tr)); !reflect.DeepEqual(got, wantTrees[tr]) {
					t.Fatalf("%s differs:\n%s", tr, diffKeys(got, wantTrees[tr]))
				}
			}
			gotAPI := apiView(t)
			for k, want := range wantAPI {
				if gotAPI[k] != want {
					t.Fatalf("the API's %s differs after the restore:\n got %.300s\nwant %.300s", k, gotAPI[k], want)
				}
			}
		})
	}
}

func diffKeys(got, want map[string]string) string {
	var lines []string
	for k, v := range want {
		if g, ok := got[k]; !ok {
			lines = append(lines, "missing "+k)
		} else if g != v {
			lines = append(lines, "changed "+k)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			lines = append(lines, "extra "+k)
		}
	}
	sort.Strings(lines)
	if len(lines) > 20 {
		lines = append(lines[:20], "…")
	}
	return strings.Join(lines, "\n")
}

// drillGame is the id of the one ROM the drill adds.
const drillGame = 1

// seedSite makes accounts, articles, files (one of 300 KiB of random
// bytes), a share link, a ROM, a content file and a save state.
func seedSite(t *testing.T, ti *testInstance) {
	t.Helper()
	must := func(stdin string, args ...string) string {
		t.Helper()
		out, errOut, code := ti.run(stdin, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		return out
	}
	must("owner password 1\n", "user", "create", "--email", "owner@example.org", "--name", "Owner", "--admin", "--password-stdin")
	must("player password 1\n", "user", "create", "--email", "player@example.org", "--name", "Player", "--password-stdin")
	for i := 1; i <= 2; i++ {
		must(fmt.Sprintf("# Article %d\n\nBody **%d** with `code`.\n", i, i), "article", "create", "--name", fmt.Sprintf("Article %d", i),
			"--excerpt", "An excerpt", "--category", "notes", "--file", "-")
	}
	dir := t.TempDir()
	random := make([]byte, 300<<10)
	rand.Read(random)
	os.WriteFile(filepath.Join(dir, "random.bin"), random, 0o600)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("plain notes"), 0o600)
	must("", "file", "add", filepath.Join(dir, "random.bin"), filepath.Join(dir, "notes.txt"))
	must("", "file", "share", "1", "--max-downloads", "3")
	root := filepath.Dir(ti.dataDir)
	os.MkdirAll(filepath.Join(root, "roms", "nes"), 0o700)
	os.WriteFile(filepath.Join(root, "roms", "nes", "homebrew.nes"), append([]byte("NES\x1a"), random[:4096]...), 0o600)
	os.MkdirAll(filepath.Join(root, "content"), 0o700)
	os.WriteFile(filepath.Join(root, "content", "about.md"), []byte("# About\n"), 0o600)
	var games []struct{ ID uint64 }
	must("", "rom", "scan")
	if err := json.Unmarshal([]byte(must("", "rom", "list", "--json")), &games); err != nil || len(games) != 1 || games[0].ID != drillGame {
		t.Fatalf("rom list: %v %v", games, err)
	}

	_, svc := openInstance(t)
	defer svc.Close()
	player, err := svc.Auth.UserByEmail("player@example.org")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.GameStates.Put(context.Background(), player.ID, drillGame, "1", "fceumm", bytes.NewReader(random[:64<<10])); err != nil {
		t.Fatal(err)
	}
}
