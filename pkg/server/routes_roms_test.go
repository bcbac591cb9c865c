package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/devhub/devhub/pkg/roms"
	"github.com/devhub/devhub/pkg/roms/cores"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// romsFixture is a roms/ directory with a few games, a secret file beside
// it (outside roms/), and symlinks that try to reach it.
type romsFixture struct {
	ta   *testApp
	root string
	svc  *roms.Service
}

func newRomsFixture(t *testing.T, mutate func(*Options)) *romsFixture {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "roms")
	write := func(rel, content string) {
		p := filepath.Join(base, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("secret.txt", "TOP SECRET")
	write("roms/nes/Super_Game.nes", "NES\x1aROM")
	write("roms/nes/images/Super_Game.png", "\x89PNG fake")
	write("roms/nes/Танчики.nes", "tanks")
	write("roms/nes/Марио Брос.nes", "mario")
	write("roms/snes/Other.sfc", "snes")
	write("roms/nes/.hidden.nes", "hidden")
	for i := 0; i < 150; i++ {
		write(fmt.Sprintf("roms/gba/demo%03d.gba", i), "gba")
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(filepath.Join(base, "secret.txt"), filepath.Join(root, "nes", "escape.nes")))
	must(os.Symlink(base, filepath.Join(root, "up")))
	must(os.Symlink("Super_Game.nes", filepath.Join(root, "nes", "inside-link.nes")))

	st := storetest.Open(t)
	svc, err := roms.New(st, root)
	must(err)
	_, err = svc.Scan(context.Background())
	must(err)
	ta := newTestApp(t, func(o *Options) {
		o.Config.Storage.RomsDir = root
		o.Services = &Services{Roms: svc}
		if mutate != nil {
			mutate(o)
		}
	})
	return &romsFixture{ta: ta, root: root, svc: svc}
}

type envelope struct {
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
	Meta    map[string]int  `json:"meta"`
	Error   *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func (f *romsFixture) get(t *testing.T, target string) (*http.Response, envelope) {
	t.Helper()
	resp, body := f.ta.do(t, httptest.NewRequest(http.MethodGet, target, nil))
	var env envelope
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(body, &env); err != nil {
			t.Fatalf("%s: %v in %s", target, err, body)
		}
	}
	return resp, env
}

func TestRomservConsoles(t *testing.T) {
	f := newRomsFixture(t, nil)
	resp, env := f.get(t, "/romserv/consoles")
	if resp.StatusCode != 200 || !env.Success {
		t.Fatalf("status %d env %+v", resp.StatusCode, env)
	}
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "*" {
		t.Errorf("CORS header = %q", got)
	}
	var data []map[string]any
	if err := json.Unmarshal(env.Data, &data); err != nil {
		t.Fatal(err)
	}
	if env.Meta["total"] != 3 || len(data) != 3 {
		t.Fatalf("meta %v data %v", env.Meta, data)
	}
	first := data[0]
	want := map[string]any{"id": "nes", "name": "Nintendo Entertainment System", "shortName": "NES", "core": "fceumm",
		"stats": map[string]any{"games": float64(3)}}
	if fmt.Sprint(first) != fmt.Sprint(want) {
		t.Errorf("first console = %v, want %v", first, want)
	}
	if data[1]["id"] != "snes" || data[2]["id"] != "gba" {
		t.Errorf("order = %v", data)
	}
}

func TestRomservGames(t *testing.T) {
	f := newRomsFixture(t, nil)
	tests := []struct {
		name         string
		target       string
		status       int
		total, n     int
		page, limit  int
		firstName    string
		errorMessage string
	}{
		{"nes default", "/romserv/consoles/nes/games", 200, 3, 3, 1, 100, "Super Game", ""},
		{"paging page 2 of 100", "/romserv/consoles/gba/games?page=2", 200, 150, 50, 2, 100, "demo100", ""},
		{"limit", "/romserv/consoles/gba/games?page=3&limit=20", 200, 150, 20, 3, 20, "demo040", ""},
		{"limit capped", "/romserv/consoles/gba/games?limit=100000", 200, 150, 150, 1, roms.MaxLimit, "demo000", ""},
		{"beyond the last page", "/romserv/consoles/gba/games?page=99", 200, 150, 0, 99, 100, "", ""},
		{"cyrillic search, other case", "/romserv/consoles/nes/games?search=" + url.QueryEscape("МАРИО"), 200, 1, 1, 1, 100, "Марио Брос", ""},
		{"cyrillic search lower", "/romserv/consoles/nes/games?search=" + url.QueryEscape("танч"), 200, 1, 1, 1, 100, "Танчики", ""},
		{"latin search", "/romserv/consoles/nes/games?search=super", 200, 1, 1, 1, 100, "Super Game", ""},
		{"search with paging", "/romserv/consoles/gba/games?search=demo1&limit=10&page=2", 200, 50, 10, 2, 10, "demo110", ""},
		{"unknown console", "/romserv/consoles/psx/games", 404, 0, 0, 0, 0, "", "unknown console: psx"},
		{"bad page", "/romserv/consoles/nes/games?page=abc", 400, 0, 0, 0, 0, "", "page must be a positive integer"},
		{"zero limit", "/romserv/consoles/nes/games?limit=0", 400, 0, 0, 0, 0, "", "limit must be a positive integer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, env := f.get(t, tt.target)
			if resp.StatusCode != tt.status {
				t.Fatalf("status = %d, want %d", resp.StatusCode, tt.status)
			}
			if resp.Header.Get("Access-Control-Allow-Origin") != "*" {
				t.Error("missing CORS header")
			}
			if tt.status != 200 {
				if env.Success || env.Error == nil || env.Error.Message != tt.errorMessage {
					t.Errorf("error envelope = %+v", env)
				}
				return
			}
			var games []roms.Game
			if err := json.Unmarshal(env.Data, &games); err != nil {
				t.Fatal(err)
			}
			if !env.Success || env.Meta["total"] != tt.total || len(games) != tt.n || env.Meta["page"] != tt.page || env.Meta["limit"] != tt.limit {
				t.Fatalf("success %v meta %v, %d games", env.Success, env.Meta, len(games))
			}
			if tt.n > 0 && games[0].Name != tt.firstName {
				t.Errorf("first = %q, want %q", games[0].Name, tt.firstName)
			}
		})
	}
	// The exact game shape.
	_, env := f.get(t, "/romserv/consoles/nes/games?search=super")
	var raw []map[string]any
	json.Unmarshal(env.Data, &raw)
	want := fmt.Sprint(map[string]any{"id": raw[0]["id"], "name": "Super Game", "path": "/nes/Super_Game.nes", "console": "nes",
		"hasImage": true, "imagePath": "/nes/images/Super_Game.png"})
	if fmt.Sprint(raw[0]) != want {
		t.Errorf("game = %v, want %v", raw[0], want)
	}
}

// romRawGet sends a request line exactly as given (no client-side cleaning or
// re-encoding of the path) and returns the status and body.
func romRawGet(t *testing.T, base, target string, headers ...string) (*http.Response, string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(5 * time.Second))
	req := "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
	for _, h := range headers {
		req += h + "\r\n"
	}
	if _, err := io.WriteString(conn, req+"\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("%s: %v", target, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(body)
}

func TestRomservFiles(t *testing.T) {
	f := newRomsFixture(t, nil)
	base := f.ta.listen(t)

	resp, body := romRawGet(t, base, "/romserv/nes/Super_Game.nes")
	if resp.StatusCode != 200 || body != "NES\x1aROM" {
		t.Fatalf("ROM: %d %q", resp.StatusCode, body)
	}
	for h, want := range map[string]string{
		"Access-Control-Allow-Origin": "*",
		"Content-Type":                "application/octet-stream",
		"Cache-Control":               cacheROM,
		"X-Content-Type-Options":      "nosniff",
	} {
		if got := resp.Header.Get(h); got != want {
			t.Errorf("%s = %q, want %q", h, got, want)
		}
	}
	etag, lastMod := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	if etag == "" || lastMod == "" {
		t.Fatalf("validators missing: etag %q last-modified %q", etag, lastMod)
	}
	if r, _ := romRawGet(t, base, "/romserv/nes/Super_Game.nes", "If-None-Match: "+etag); r.StatusCode != 304 {
		t.Errorf("If-None-Match: %d, want 304", r.StatusCode)
	}
	if r, _ := romRawGet(t, base, "/romserv/nes/Super_Game.nes", "If-Modified-Since: "+lastMod); r.StatusCode != 304 {
		t.Errorf("If-Modified-Since: %d, want 304", r.StatusCode)
	}
	if r, _ := romRawGet(t, base, "/romserv/nes/Super_Game.nes", `If-None-Match: "other"`); r.StatusCode != 200 {
		t.Errorf("stale If-None-Match: %d, want 200", r.StatusCode)
	}
	if r, b := romRawGet(t, base, "/romserv/nes/images/Super_Game.png"); r.StatusCode != 200 || r.Header.Get("Content-Type") != "image/png" || b != "\x89PNG fake" {
		t.Errorf("cover: %d %s %q", r.StatusCode, r.Header.Get("Content-Type"), b)
	}
	// Cyrillic names, percent-encoded by the browser.
	if r, b := romRawGet(t, base, "/romserv/nes/"+url.PathEscape("Танчики.nes")); r.StatusCode != 200 || b != "tanks" {
		t.Errorf("cyrillic file: %d %q", r.StatusCode, b)
	}
	// A symlink that stays inside roms/ is followed.
	if r, b := romRawGet(t, base, "/romserv/nes/inside-link.nes"); r.StatusCode != 200 || b != "NES\x1aROM" {
		t.Errorf("inside symlink: %d %q", r.StatusCode, b)
	}
}

// TestRomservTraversal sends every traversal form the issue lists, as raw
// request lines (no client-side cleaning), at a roms/ directory with a secret
// file beside it and symlinks that lead to it. Each is refused with its exact
// status and the ROM service's own error envelope, and nothing leaks.
func TestRomservTraversal(t *testing.T) {
	f := newRomsFixture(t, nil)
	base := f.ta.listen(t)
	const notFound = `{"error":{"message":"not found"},"success":false}`
	const invalid = `{"error":{"message":"invalid path"},"success":false}`
	tests := []struct {
		name, target string
		status       int
		body         string
	}{
		{"dot dot", "/romserv/../secret.txt", 404, notFound},
		{"dot dot deeper", "/romserv/nes/../../secret.txt", 404, notFound},
		{"dot dot to another rom", "/romserv/snes/../nes/Super_Game.nes", 404, notFound},
		{"single dot", "/romserv/./nes/Super_Game.nes", 404, notFound},
		{"encoded dots", "/romserv/%2e%2e/secret.txt", 404, notFound},
		{"encoded dots upper", "/romserv/nes/%2E%2E/%2E%2E/secret.txt", 404, notFound},
		{"half-encoded dots", "/romserv/nes/.%2e/.%2e/secret.txt", 404, notFound},
		{"encoded slash and dots", "/romserv/nes%2f..%2f..%2fsecret.txt", 404, notFound},
		{"encoded backslash", "/romserv/nes/..%5c..%5csecret.txt", 400, invalid},
		{"encoded backslash upper", "/romserv/nes/..%5C..%5Csecret.txt", 400, invalid},
		{"raw backslash", "/romserv/nes/..\\..\\secret.txt", 400, invalid},
		{"double-encoded backslash", "/romserv/nes/..%255c..%255csecret.txt", 404, notFound},
		{"double-encoded dots", "/romserv/%252e%252e/secret.txt", 404, notFound},
		{"double-encoded slash", "/romserv/nes%252f..%252f..%252fsecret.txt", 404, notFound},
		{"absolute path", "/romserv//etc/passwd", 404, notFound},
		{"absolute path to the secret", "/romserv/" + filepath.ToSlash(filepath.Dir(f.root)) + "/secret.txt", 404, notFound},
		{"encoded absolute path", "/romserv/%2fetc%2fpasswd", 404, notFound},
		{"NUL", "/romserv/nes/Super_Game.nes%00.png", 400, invalid},
		{"NUL alone", "/romserv/%00", 400, invalid},
		{"symlink to a file outside", "/romserv/nes/escape.nes", 404, notFound},
		{"symlinked directory outside", "/romserv/up/secret.txt", 404, notFound},
		{"hidden file", "/romserv/nes/.hidden.nes", 404, notFound},
		{"directory", "/romserv/nes", 404, notFound},
		{"missing", "/romserv/nes/nope.nes", 404, notFound},
		{"bare prefix", "/romserv/", 404, notFound},
		{"bare service", "/romserv", 404, notFound},
		{"bad escape", "/romserv/nes/%zz", 400, invalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := romRawGet(t, base, tt.target)
			if strings.Contains(body, "TOP SECRET") || strings.Contains(body, "root:") || strings.Contains(body, "NES\x1aROM") {
				t.Fatalf("%s leaked a file: %q", tt.target, body)
			}
			if resp.StatusCode != tt.status || body != tt.body {
				t.Fatalf("%s → %d %s, want %d %s", tt.target, resp.StatusCode, body, tt.status, tt.body)
			}
			if resp.Header.Get("Access-Control-Allow-Origin") != "*" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
				t.Errorf("headers %v", resp.Header)
			}
		})
	}
}

// The ROM service's own envelope, byte for byte, for its error answers.
func TestRomservErrorEnvelopes(t *testing.T) {
	f := newRomsFixture(t, nil)
	long := strings.Repeat("я", 201)
	tests := []struct {
		name, method, target string
		status               int
		body                 string
		allow                string
	}{
		{"unknown console", "GET", "/romserv/consoles/psx/games", 404, `{"error":{"message":"unknown console: psx"},"success":false}`, ""},
		{"unknown route below the service", "GET", "/romserv/consoles/nes", 404, `{"error":{"message":"not found"},"success":false}`, ""},
		{"page zero", "GET", "/romserv/consoles/nes/games?page=0", 400, `{"error":{"message":"page must be a positive integer"},"success":false}`, ""},
		{"negative limit", "GET", "/romserv/consoles/nes/games?limit=-5", 400, `{"error":{"message":"limit must be a positive integer"},"success":false}`, ""},
		{"search too long", "GET", "/romserv/consoles/nes/games?search=" + url.QueryEscape(long), 400, `{"error":{"message":"search must be at most 200 characters"},"success":false}`, ""},
		{"POST to the list", "POST", "/romserv/consoles", 405, `{"error":{"message":"method not allowed"},"success":false}`, "GET, HEAD, OPTIONS"},
		{"DELETE a ROM", "DELETE", "/romserv/nes/Super_Game.nes", 405, `{"error":{"message":"method not allowed"},"success":false}`, "GET, HEAD, OPTIONS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := f.ta.do(t, httptest.NewRequest(tt.method, tt.target, nil))
			if resp.StatusCode != tt.status || string(body) != tt.body {
				t.Fatalf("%d %s, want %d %s", resp.StatusCode, body, tt.status, tt.body)
			}
			if resp.Header.Get("Allow") != tt.allow || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
				t.Errorf("headers %v", resp.Header)
			}
		})
	}
	// 200 characters of Cyrillic (400 bytes) is still a valid search.
	if resp, env := f.get(t, "/romserv/consoles/nes/games?search="+url.QueryEscape(long[:400])); resp.StatusCode != 200 || !env.Success {
		t.Errorf("200-character search: %d %+v", resp.StatusCode, env)
	}
}

// The sandboxed player fetches ROMs cross-origin (its origin is opaque):
// preflight and HEAD answer with CORS too.
func TestRomservCORSPreflightAndHead(t *testing.T) {
	f := newRomsFixture(t, nil)
	req := httptest.NewRequest(http.MethodOptions, "/romserv/nes/Super_Game.nes", nil)
	req.Header.Set("Origin", "null")
	req.Header.Set("Access-Control-Request-Method", "GET")
	resp, _ := f.ta.do(t, req)
	if resp.StatusCode != 204 || resp.Header.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(resp.Header.Get("Access-Control-Allow-Methods"), "GET") {
		t.Errorf("preflight: %d %v", resp.StatusCode, resp.Header)
	}
	resp, body := f.ta.do(t, httptest.NewRequest(http.MethodHead, "/romserv/nes/Super_Game.nes", nil))
	if resp.StatusCode != 200 || len(body) != 0 || resp.Header.Get("Content-Length") != "7" || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("HEAD: %d %q %v", resp.StatusCode, body, resp.Header)
	}
}

func TestCoresServed(t *testing.T) {
	js := "var EJS_Runtime = (() => 1)();\n// devhub: import.meta.url\nvar fceumm = EJS_Runtime;\n"
	extraDir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(extraDir, "stella2014"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(extraDir, "stella2014", "stella2014_libretro.js"), []byte("var EJS_Runtime = 2;\n"), 0o644)
	os.WriteFile(filepath.Join(extraDir, "stella2014", "stella2014_libretro.wasm"), []byte("\x00asm extra"), 0o644)
	os.WriteFile(filepath.Join(extraDir, "stella2014", "license.txt"), []byte("GPL"), 0o644)
	f := newRomsFixture(t, func(o *Options) {
		o.Config.Emulator.ExtraCoresDir = extraDir
		o.Cores = fstest.MapFS{
			"fceumm/fceumm_libretro.js":      {Data: []byte(js)},
			"fceumm/fceumm_libretro.js.gz":   {Data: gz(t, js)},
			"fceumm/fceumm_libretro.js.br":   {Data: br(js)},
			"fceumm/fceumm_libretro.wasm":    {Data: []byte("\x00asm")},
			"fceumm/fceumm_libretro.wasm.gz": {Data: gz(t, "\x00asm")},
			"fceumm/license.txt":             {Data: []byte("GNU GENERAL PUBLIC LICENSE Version 2")},
			"fceumm/manifest.json":           {Data: []byte(`{"name":"fceumm","version":"4.2.3","licence":"GPL-2.0"}`)},
			"fceumm/.stamp":                  {Data: []byte("x")},
			"notacore/readme.txt":            {Data: []byte("x")},
			"cores.json":                     {Data: []byte("{}")},
		}
	})
	base := f.ta.listen(t)

	resp, body := romRawGet(t, base, "/cores/index.json")
	if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("index: %d %v", resp.StatusCode, resp.Header)
	}
	var idx struct {
		Cores []cores.Info `json:"cores"`
	}
	if err := json.Unmarshal([]byte(body), &idx); err != nil {
		t.Fatal(err)
	}
	if len(idx.Cores) != 2 || idx.Cores[0].Name != "fceumm" || idx.Cores[1].Name != "stella2014" || !idx.Cores[1].Extra {
		t.Fatalf("index = %+v", idx)
	}
	fc := idx.Cores[0]
	if strings.Join(fc.Aliases, ",") != "nes" || len(idx.Cores[1].Aliases) != 1 || idx.Cores[1].Aliases[0] != "atari2600" {
		t.Errorf("aliases: fceumm %v, stella2014 %v", fc.Aliases, idx.Cores[1].Aliases)
	}
	if fc.Version != "4.2.3" || fc.Licence != "GPL-2.0" || fc.LicenceFile != "/cores/fceumm/license.txt" || !strings.HasPrefix(fc.JS, "/cores/fceumm/fceumm_libretro.js?v=") {
		t.Errorf("fceumm = %+v", fc)
	}

	tests := []struct {
		name, target, accept string
		status               int
		encoding             string
		body                 string
	}{
		{"js plain", fc.JS, "", 200, "", js},
		{"js brotli", fc.JS, "gzip, deflate, br", 200, "br", ""},
		{"js gzip", fc.JS, "gzip", 200, "gzip", ""},
		{"wasm gzip only", fc.Wasm, "br, gzip", 200, "gzip", ""},
		{"licence", "/cores/fceumm/license.txt", "", 200, "", "GNU GENERAL PUBLIC LICENSE Version 2"},
		{"stamp hidden", "/cores/fceumm/.stamp", "", 404, "", ""},
		{"variant not addressable", "/cores/fceumm/fceumm_libretro.js.gz", "", 404, "", ""},
		{"traversal", "/cores/../secret.txt", "", 404, "", ""},
		{"encoded traversal", "/cores/fceumm/%2e%2e/%2e%2e/secret.txt", "", 404, "", ""},
		{"extra core js adapted", idx.Cores[1].JS, "", 200, "", "var EJS_Runtime = 2;\n\n// devhub: served for Nostalgist, which expects an ES module build (import.meta.url)\nvar stella2014 = EJS_Runtime;\n"},
		{"extra core wasm", idx.Cores[1].Wasm, "", 200, "", "\x00asm extra"},
		{"extra core licence", "/cores/stella2014/license.txt", "", 200, "", "GPL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var hdr []string
			if tt.accept != "" {
				hdr = append(hdr, "Accept-Encoding: "+tt.accept)
			}
			resp, body := romRawGet(t, base, tt.target, hdr...)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.status)
			}
			if tt.status != 200 {
				return
			}
			if got := resp.Header.Get("Content-Encoding"); got != tt.encoding {
				t.Errorf("encoding %q, want %q", got, tt.encoding)
			}
			if tt.body != "" && body != tt.body {
				t.Errorf("body %q, want %q", body, tt.body)
			}
			if resp.Header.Get("Cache-Control") != cacheImmutable || resp.Header.Get("Access-Control-Allow-Origin") != "*" || resp.Header.Get("ETag") == "" {
				t.Errorf("headers %v", resp.Header)
			}
			if r, _ := romRawGet(t, base, tt.target, append(hdr, "If-None-Match: "+resp.Header.Get("ETag"))...); r.StatusCode != 304 {
				t.Errorf("revalidation: %d", r.StatusCode)
			}
		})
	}
	if r, _ := romRawGet(t, base, fc.Wasm); r.Header.Get("Content-Type") != "application/wasm" {
		t.Errorf("wasm content type %q", r.Header.Get("Content-Type"))
	}
}

func TestEmulatorPageAndAssetsCORS(t *testing.T) {
	f := newRomsFixture(t, func(o *Options) {
		o.Site.(fstest.MapFS)["emulator.html"] = &fstest.MapFile{Data: []byte("<!doctype html><title>emu</title>")}
	})
	resp, body := f.ta.do(t, httptest.NewRequest(http.MethodGet, "/emulator.html?core=fceumm&gameUrl=/romserv/nes/Super_Game.nes", nil))
	if resp.StatusCode != 200 || !strings.Contains(string(body), "emu") {
		t.Fatalf("emulator page: %d %s", resp.StatusCode, body)
	}
	csp := resp.Header.Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self' blob: 'wasm-unsafe-eval'", "frame-ancestors 'self'", "object-src 'none'", "; sandbox allow-scripts"} {
		if !strings.Contains(csp, want) {
			t.Errorf("emulator CSP %q lacks %q", csp, want)
		}
	}
	// Opened on its own, the player is as sandboxed as in the games page's iframe.
	if strings.Contains(csp, "allow-same-origin") {
		t.Errorf("emulator CSP %q lets the page keep the site's origin", csp)
	}
	resp, _ = f.ta.do(t, httptest.NewRequest(http.MethodGet, "/assets/index-abc123.js", nil))
	if resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Error("assets need CORS for the sandboxed player's module scripts")
	}
	// The SPA itself keeps its own policy and no CORS header.
	resp, _ = f.ta.do(t, httptest.NewRequest(http.MethodGet, "/games", nil))
	if resp.Header.Get("Access-Control-Allow-Origin") != "" || strings.Contains(resp.Header.Get("Content-Security-Policy"), "blob: 'wasm") {
		t.Errorf("SPA headers changed: %v", resp.Header)
	}
}
