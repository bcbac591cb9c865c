package server

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// An owner's ROM upload takes a place among the uploads in progress, the
// same places the file cloud's uploads take (holdUploadSlot): past the cap a
// new one is a 429 with Retry-After and nothing is kept; the place frees up
// when the upload ends, and the upload cut off by the client keeps nothing
// (its body ends before its Content-Length: not a shorter ROM).
func TestAdminROMUploadHoldsAnUploadSlot(t *testing.T) {
	f := newGamesFixture(t, func(o *Options) {
		o.Config.Emulator.MaxROMBytes = 64 << 20
		o.Config.Files.MaxConcurrentUploadsPerUser = 1
		o.Config.Files.MaxConcurrentUploads = 8
	})
	base := f.ta.listen(t)
	// A ROM upload spools into a temp dir of its own: where it shows that
	// the upload is in (and holds its place).
	spool := t.TempDir()
	t.Setenv("TMPDIR", spool)

	// An upload that starts and then waits: it holds the admin's one place.
	conn := dialApp(t, base)
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/games/roms?file=Slow.nes HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n", adminToken, 10<<20)
	conn.Write(bytes.Repeat([]byte("x"), 256<<10))
	// Asked before it is in, a second upload could take the place first
	// and the stalled one be the upload refused (seen once in CI).
	waitFor(t, "the stalled upload to be spooling", func() bool {
		m, _ := filepath.Glob(filepath.Join(spool, "devhub-rom-*", "*"))
		return len(m) > 0
	})

	// A second upload of the same admin (for a console that does not exist,
	// so it keeps nothing once it gets in).
	post := func(name string) *http.Response {
		req, _ := http.NewRequest("POST", base+"/api/games/roms?file="+name, bytes.NewReader([]byte("NES\x1a")))
		req.Header.Set("Content-Type", "application/octet-stream")
		req.Header.Set("Authorization", "Bearer "+adminToken)
		resp, _ := overTCP(t, req)
		return resp
	}
	var resp *http.Response
	if resp = post("Second.nes&console=toaster"); resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a second upload while the first holds the place: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	conn.Close()
	waitFor(t, "the place to free up", func() bool { resp = post("Second.nes&console=toaster"); return resp.StatusCode == 400 })
	for _, name := range []string{"Slow.nes", "Second.nes"} {
		if _, err := os.Stat(filepath.Join(f.root, "nes", name)); err == nil {
			t.Fatalf("%s kept in roms/", name)
		}
	}
}

// A save state whose body ends before its Content-Length (the tab closed
// mid-request) is not a state: the slot keeps the one it had.
func TestStatePutCutOffKeepsTheSlot(t *testing.T) {
	f := newGamesFixture(t)
	game := f.nesID
	base := f.ta.listen(t)
	path := fmt.Sprintf("/api/games/%d/states/auto", game)
	if resp, body := f.req(t, "PUT", path, userToken, []byte("the good state"), "Content-Type", "application/octet-stream", "X-Emulator-Core", "fceumm"); resp.StatusCode != 204 {
		t.Fatalf("first save: %d %s", resp.StatusCode, body)
	}
	// The state being written streams into a temp file beside the slots.
	writing := func() bool {
		m, _ := filepath.Glob(filepath.Join(f.statesDir, "*", fmt.Sprint(game), ".put-*"))
		return len(m) > 0
	}
	conn := dialApp(t, base)
	fmt.Fprintf(conn, "PUT %s HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer %s\r\nX-Emulator-Core: fceumm\r\n"+
		"Content-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n", path, userToken, 60<<10)
	conn.Write(bytes.Repeat([]byte("x"), 20<<10))
	waitFor(t, "the server to write the state", writing)
	conn.Close()
	waitFor(t, "the cut-off request to end", func() bool { return !writing() })
	data, _, err := f.states.Get(2, game, "auto", "fceumm")
	if err != nil || string(data) != "the good state" {
		t.Fatalf("the slot holds %d bytes (%v), want the good state", len(data), err)
	}
}
