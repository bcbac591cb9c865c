package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/devhub/devhub/pkg/gameshelf"
	"github.com/devhub/devhub/pkg/gamestates"
	"github.com/devhub/devhub/pkg/roms"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// gamesFixture is the ROM fixture with save states (limit 64 KiB, kept in
// statesDir), the shelf and the fake identities.
type gamesFixture struct {
	*romsFixture
	states    *gamestates.Service
	statesDir string
	nesID     uint64
}

// newGamesFixture makes the fixture; more changes the options after its own
// (a test's limits, more services).
func newGamesFixture(t *testing.T, more ...func(*Options)) *gamesFixture {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "gamestates")
	states, err := gamestates.New(dir, 64<<10)
	if err != nil {
		t.Fatal(err)
	}
	shelf, err := gameshelf.New(storetest.Open(t))
	if err != nil {
		t.Fatal(err)
	}
	f := newRomsFixture(t, func(o *Options) {
		o.Config.Emulator.MaxROMBytes = 1024
		o.Services.Authenticate = fakeAuthenticate
		o.Services.GameStates = states
		o.Services.Shelf = shelf
		for _, m := range more {
			m(o)
		}
	})
	games, err := f.svc.All("nes")
	if err != nil || len(games) == 0 {
		t.Fatal("no nes games", err)
	}
	return &gamesFixture{romsFixture: f, states: states, statesDir: dir, nesID: games[0].ID}
}

func (f *gamesFixture) req(t *testing.T, method, target, token string, body []byte, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	var r *http.Request
	if body != nil {
		r = httptest.NewRequest(method, target, bytes.NewReader(body))
	} else {
		r = httptest.NewRequest(method, target, nil)
	}
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	return f.ta.do(t, r)
}

func TestGameStatesAPI(t *testing.T) {
	f := newGamesFixture(t)
	base := fmt.Sprintf("/api/games/%d/states", f.nesID)
	octet := []string{"Content-Type", "application/octet-stream", "X-Emulator-Core", "fceumm"}
	big := bytes.Repeat([]byte{1}, 64<<10+1)
	for _, tc := range []struct {
		name, method, target, token string
		body                        []byte
		hdr                         []string
		want                        int
		inMsg                       string
	}{
		{"guest cannot save", "PUT", base + "/1", "", []byte("s"), octet, 401, ""},
		{"guest cannot list", "GET", base, "", nil, nil, 401, ""},
		{"bad token", "GET", base, "nope", nil, nil, 401, ""},
		{"unknown game", "PUT", "/api/games/999999/states/1", userToken, []byte("s"), octet, 404, "unknown game"},
		{"game id not a number", "GET", "/api/games/abc/states", userToken, nil, nil, 404, "unknown game"},
		{"slot 6", "PUT", base + "/6", userToken, []byte("s"), octet, 400, "slot"},
		{"no core", "PUT", base + "/1", userToken, []byte("s"), []string{"Content-Type", "application/octet-stream"}, 400, "X-Emulator-Core"},
		{"over the size limit", "PUT", base + "/1", userToken, big, octet, 413, "limit"},
		{"empty slot", "GET", base + "/2", userToken, nil, nil, 404, ""},
		{"saves", "PUT", base + "/1", userToken, []byte("state one"), octet, 204, ""},
		{"autosave", "PUT", base + "/auto", userToken, []byte("auto state"), octet, 204, ""},
		{"loads", "GET", base + "/1?core=fceumm", userToken, nil, nil, 200, ""},
		{"another core is refused", "GET", base + "/1?core=snes9x", userToken, nil, nil, 409, "fceumm core"},
		{"another user sees none", "GET", base + "/1", adminToken, nil, nil, 404, ""},
		{"screenshot not a PNG", "PUT", base + "/1/screenshot", userToken, []byte("GIF89a"), []string{"Content-Type", "image/png"}, 400, "PNG"},
		{"screenshot", "PUT", base + "/1/screenshot", userToken, []byte("\x89PNG\r\n\x1a\nxx"), []string{"Content-Type", "image/png"}, 204, ""},
		{"screenshot of an empty slot", "PUT", base + "/3/screenshot", userToken, []byte("\x89PNG\r\n\x1a\nxx"), []string{"Content-Type", "image/png"}, 404, ""},
		{"reads the screenshot", "GET", base + "/1/screenshot", userToken, nil, nil, 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := f.req(t, tc.method, tc.target, tc.token, tc.body, tc.hdr...)
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.want, body)
			}
			if tc.inMsg != "" && !strings.Contains(string(body), tc.inMsg) {
				t.Fatalf("answer %s lacks %q", body, tc.inMsg)
			}
		})
	}
	resp, body := f.req(t, "GET", base+"/1", userToken, nil)
	if string(body) != "state one" || resp.Header.Get("X-Emulator-Core") != "fceumm" {
		t.Fatalf("loaded %q core %q", body, resp.Header.Get("X-Emulator-Core"))
	}
	_, body = f.req(t, "GET", base, userToken, nil)
	var list []gamestates.Info
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Slot != "auto" || list[1].Slot != "1" || !list[1].HasScreenshot || list[1].Size != 9 || list[1].Core != "fceumm" {
		t.Fatalf("list %s", body)
	}
	_, body = f.req(t, "GET", base+"/1?core=snes9x", userToken, nil)
	var apiErr APIError
	json.Unmarshal(body, &apiErr)
	if apiErr.Data["core"].Code != "wrong_core" || apiErr.Data["core"].Message != "fceumm" {
		t.Fatalf("wrong-core answer %s", body)
	}
	if resp, _ := f.req(t, "DELETE", base+"/1", userToken, nil); resp.StatusCode != 204 {
		t.Fatalf("delete %d", resp.StatusCode)
	}
	if resp, _ := f.req(t, "GET", base+"/1", userToken, nil); resp.StatusCode != 404 {
		t.Fatalf("after delete %d", resp.StatusCode)
	}
	if used, _ := f.states.UsageOf(2); used == 0 {
		t.Fatal("usage not counted")
	}
}

// Concurrent PUTs to one slot over real connections: the slot ends up with
// one of the bodies, whole.
func TestGameStatesConcurrentPuts(t *testing.T) {
	f := newGamesFixture(t)
	base := f.ta.listen(t)
	target := fmt.Sprintf("%s/api/games/%d/states/auto", base, f.nesID)
	var wg sync.WaitGroup
	bodies := map[string]bool{}
	for i := 0; i < 6; i++ {
		body := strings.Repeat(string(rune('a'+i)), 50<<10)
		bodies[body] = true
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodPut, target, strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+userToken)
			req.Header.Set("X-Emulator-Core", "fceumm")
			req.Header.Set("Content-Type", "application/octet-stream")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != 204 {
				t.Errorf("status %d", resp.StatusCode)
			}
		}()
	}
	wg.Wait()
	// A chunked body (no Content-Length) over the limit is cut off at the
	// limit and refused; the slot keeps its state.
	req, _ := http.NewRequest(http.MethodPut, target, io.MultiReader(strings.NewReader(strings.Repeat("z", 70<<10))))
	req.Header.Set("Authorization", "Bearer "+userToken)
	req.Header.Set("X-Emulator-Core", "fceumm")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge || req.ContentLength > 0 {
		t.Fatalf("chunked over the limit: %d (length %d)", resp.StatusCode, req.ContentLength)
	}
	data, _, err := f.states.Get(2, f.nesID, "auto", "fceumm")
	if err != nil || !bodies[string(data)] {
		t.Fatalf("slot holds %d bytes that are no one's write (%v)", len(data), err)
	}
}

func TestGamesShelfAPI(t *testing.T) {
	f := newGamesFixture(t)
	games, _ := f.svc.All("nes")
	a, b := games[0].ID, games[1].ID
	for _, tc := range []struct {
		name, method, target, token string
		want                        int
	}{
		{"guest has no shelf", "GET", "/api/games/me", "", 401},
		{"guest cannot favour", "PUT", fmt.Sprintf("/api/games/%d/favourite", a), "", 401},
		{"unknown game", "PUT", "/api/games/424242/favourite", userToken, 404},
		{"unknown game played", "POST", "/api/games/424242/played", userToken, 404},
		{"favour a", "PUT", fmt.Sprintf("/api/games/%d/favourite", a), userToken, 204},
		{"favour b", "PUT", fmt.Sprintf("/api/games/%d/favourite", b), userToken, 204},
		{"unfavour b", "DELETE", fmt.Sprintf("/api/games/%d/favourite", b), userToken, 204},
		{"played a", "POST", fmt.Sprintf("/api/games/%d/played", a), userToken, 204},
		{"played b", "POST", fmt.Sprintf("/api/games/%d/played", b), userToken, 204},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if resp, body := f.req(t, tc.method, tc.target, tc.token, nil); resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.want, body)
			}
		})
	}
	_, body := f.req(t, "GET", "/api/games/me", userToken, nil)
	var me struct {
		Favourites, Recent []shelfGame
	}
	if err := json.Unmarshal(body, &me); err != nil {
		t.Fatal(err)
	}
	if len(me.Favourites) != 1 || me.Favourites[0].ID != a || me.Favourites[0].Name == "" {
		t.Fatalf("favourites %s", body)
	}
	if len(me.Recent) != 2 || me.Recent[0].ID != b || me.Recent[1].ID != a {
		t.Fatalf("recent %s", body)
	}
	// A game removed from the library leaves the lists.
	if _, err := f.svc.Remove(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	_, body = f.req(t, "GET", "/api/games/me", userToken, nil)
	json.Unmarshal(body, &me)
	if len(me.Favourites) != 0 || len(me.Recent) != 1 {
		t.Fatalf("after removal %s", body)
	}
	_, body = f.req(t, "GET", "/api/games/me", adminToken, nil)
	if !strings.Contains(string(body), `"favourites":[]`) {
		t.Fatalf("admin's own shelf %s", body)
	}
}

func TestAdminROMUpload(t *testing.T) {
	f := newGamesFixture(t)
	octet := []string{"Content-Type", "application/octet-stream"}
	rom := []byte("NES\x1a uploaded rom")
	for _, tc := range []struct {
		name, method, target, token string
		body                        []byte
		want                        int
		inMsg                       string
	}{
		{"guest", "POST", "/api/games/roms?file=New.nes", "", rom, 401, ""},
		{"not an admin", "POST", "/api/games/roms?file=New.nes", userToken, rom, 403, ""},
		{"bad extension", "POST", "/api/games/roms?file=evil.exe&console=nes", adminToken, rom, 400, "does not run"},
		{"extension of no single console", "POST", "/api/games/roms?file=game.bin", adminToken, rom, 400, "choose the console"},
		{"traversal", "POST", "/api/games/roms?file=..%2F..%2Fescape.nes&console=nes", adminToken, rom, 400, "path"},
		{"backslash traversal", "POST", "/api/games/roms?file=..%5Cescape.nes&console=nes", adminToken, rom, 400, "path"},
		{"dot dot", "POST", "/api/games/roms?file=..&console=nes", adminToken, rom, 400, ""},
		{"hidden", "POST", "/api/games/roms?file=.hidden.nes", adminToken, rom, 400, "hidden"},
		{"no name", "POST", "/api/games/roms", adminToken, rom, 400, "file name"},
		{"unknown console", "POST", "/api/games/roms?file=a.nes&console=toaster", adminToken, rom, 400, "unknown console"},
		{"empty", "POST", "/api/games/roms?file=Empty.nes", adminToken, []byte{}, 400, "empty"},
		{"over the size limit", "POST", "/api/games/roms?file=Big.nes", adminToken, bytes.Repeat([]byte{1}, 2048), 413, "limit"},
		{"added, console from the extension", "POST", "/api/games/roms?file=New%20Game.nes&name=Brand%20New", adminToken, rom, 201, `"console":"nes"`},
		{"same name again", "POST", "/api/games/roms?file=New%20Game.nes", adminToken, rom, 409, `"code":"exists"`},
		{"replace that is not a boolean", "POST", "/api/games/roms?file=New%20Game.nes&replace=yes", adminToken, rom, 400, "replace"},
		{"same name, replaced", "POST", "/api/games/roms?file=New%20Game.nes&replace=true", adminToken, rom, 201, `"name":"Brand New"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := f.req(t, tc.method, tc.target, tc.token, tc.body, octet...)
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.want, body)
			}
			if tc.inMsg != "" && !strings.Contains(string(body), tc.inMsg) {
				t.Fatalf("answer %s lacks %q", body, tc.inMsg)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(f.root), "escape.nes")); err == nil {
		t.Fatal("traversal wrote outside roms/")
	}
	data, err := os.ReadFile(filepath.Join(f.root, "nes", "New Game.nes"))
	if err != nil || !bytes.Equal(data, rom) {
		t.Fatalf("stored %q %v", data, err)
	}
	var added roms.Game
	for _, g := range mustAll(t, f) {
		if g.Name == "Brand New" {
			added = g
		}
	}
	if added.ID == 0 {
		t.Fatal("the upload is not in the list")
	}
	cover := fmt.Sprintf("/api/games/%d/cover", added.ID)
	for _, tc := range []struct {
		name, target, token string
		want                int
	}{
		{"cover by a user", cover + "?file=c.png", userToken, 403},
		{"cover not an image", cover + "?file=c.gif", adminToken, 400},
		{"cover traversal", cover + "?file=..%2Fc.png", adminToken, 400},
		{"cover of an unknown game", "/api/games/987654/cover?file=c.png", adminToken, 404},
		{"cover", cover + "?file=c.png", adminToken, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if resp, body := f.req(t, "PUT", tc.target, tc.token, []byte("\x89PNG\r\n\x1a\ncover"), "Content-Type", "image/png"); resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.want, body)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(f.root, "nes", "images", "New Game.png")); err != nil {
		t.Fatal("cover not stored:", err)
	}
	del := fmt.Sprintf("/api/games/%d", added.ID)
	if resp, _ := f.req(t, "DELETE", del, userToken, nil); resp.StatusCode != 403 {
		t.Fatalf("user delete %d", resp.StatusCode)
	}
	if resp, _ := f.req(t, "DELETE", del, adminToken, nil); resp.StatusCode != 204 {
		t.Fatalf("admin delete %d", resp.StatusCode)
	}
	if _, err := os.Stat(filepath.Join(f.root, "nes", "New Game.nes")); err == nil {
		t.Fatal("file still there")
	}
	if resp, _ := f.req(t, "DELETE", del, adminToken, nil); resp.StatusCode != 404 {
		t.Fatalf("second delete %d", resp.StatusCode)
	}
}

func mustAll(t *testing.T, f *gamesFixture) []roms.Game {
	t.Helper()
	all, err := f.svc.All("nes")
	if err != nil {
		t.Fatal(err)
	}
	return all
}
