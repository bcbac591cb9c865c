package server

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/quota"
	"github.com/devhub/devhub/pkg/roms"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// The limits of the ROM tests: a file may be 4 KiB, a ROM 64 KiB, so tusd's
// own limit must be the ROM's and each target is held to its own.
const (
	tusRomFileLimit = 4 << 10
	tusRomLimit     = 64 << 10
)

// tusRomApp is the files test app with the games library on (roms/nes holds
// Existing.nes) and the admin's file quota at 100 bytes, which a ROM must
// not be counted in.
func tusRomApp(t *testing.T) (*filesTestApp, *roms.Service) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "roms")
	if err := os.MkdirAll(filepath.Join(root, "nes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "nes", "Existing.nes"), []byte("NES\x1aold"), 0o644); err != nil {
		t.Fatal(err)
	}
	romsSvc, err := roms.New(storetest.Open(t), root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := romsSvc.Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	fa := newFilesTestAppWithOptions(t, func(c *config.Config) {
		c.Files.MaxUploadBytes = tusRomFileLimit
		c.Emulator.MaxROMBytes = tusRomLimit
	}, func(o *Options) {
		o.Config.Emulator.MaxROMBytes = tusRomLimit
		o.Config.Storage.RomsDir = root
		o.Services.Roms = romsSvc
	})
	small := int64(100)
	if err := fa.quota.SetOverride(context.Background(), 1, quota.Override{Bytes: &small}); err != nil {
		t.Fatal(err)
	}
	return fa, romsSvc
}

// tusRomMeta is the Upload-Metadata of a ROM upload; pairs of key, value
// (an empty value is left out).
func tusRomMeta(kv ...string) string {
	var parts []string
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			parts = append(parts, kv[i]+" "+base64.StdEncoding.EncodeToString([]byte(kv[i+1])))
		}
	}
	return strings.Join(parts, ",")
}

// TestTusROMRefusals: every ROM upload the creation must refuse, before a
// byte is sent, in the API's error shape, keeping nothing.
func TestTusROMRefusals(t *testing.T) {
	cases := []struct {
		name   string
		token  string
		length int
		meta   string
		want   int
		inMsg  string
	}{
		{"not an admin", userToken, 100, tusRomMeta("target", "rom", "filename", "New.nes"), 403, "administrator"},
		{"bad extension", adminToken, 100, tusRomMeta("target", "rom", "filename", "evil.exe", "console", "nes"), 400, "does not run"},
		{"extension of no single console", adminToken, 100, tusRomMeta("target", "rom", "filename", "game.bin"), 400, "choose the console"},
		{"traversal", adminToken, 100, tusRomMeta("target", "rom", "filename", "../../escape.nes", "console", "nes"), 400, "path"},
		{"backslash traversal", adminToken, 100, tusRomMeta("target", "rom", "filename", `..\escape.nes`, "console", "nes"), 400, "path"},
		{"dot dot", adminToken, 100, tusRomMeta("target", "rom", "filename", "..", "console", "nes"), 400, ""},
		{"hidden", adminToken, 100, tusRomMeta("target", "rom", "filename", ".hidden.nes"), 400, "hidden"},
		{"no file name", adminToken, 100, tusRomMeta("target", "rom"), 400, "file name"},
		{"unknown console", adminToken, 100, tusRomMeta("target", "rom", "filename", "a.nes", "console", "toaster"), 400, "unknown console"},
		{"a ROM of that name is there", adminToken, 100, tusRomMeta("target", "rom", "filename", "Existing.nes"), 409, "already exists"},
		{"over emulator.max_rom_bytes", adminToken, tusRomLimit + 1, tusRomMeta("target", "rom", "filename", "Big.nes"), 413, "ROM larger than the limit"},
		{"an unknown target", adminToken, 100, tusRomMeta("target", "blog", "filename", "a.nes"), 400, "unknown upload target"},
		{"a file over the file limit (under the ROM limit)", adminToken, tusRomFileLimit + 1, tusRomMeta("filename", "big.bin"), 413, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fa, _ := tusRomApp(t)
			resp, body := fa.do(t, tusReq("POST", "/api/files/tus/", tc.token, nil, "Upload-Length", strconv.Itoa(tc.length), "Upload-Metadata", tc.meta))
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.want, body)
			}
			var e APIError
			if err := json.Unmarshal(body, &e); err != nil || e.Status != tc.want || e.Message == "" {
				t.Fatalf("error not in the API's shape: %s", body)
			}
			if tc.inMsg != "" && !strings.Contains(string(body), tc.inMsg) {
				t.Fatalf("answer %s lacks %q", body, tc.inMsg)
			}
			if n := fa.stagedEntries(t); n != 0 {
				t.Fatalf("%d staged entries after a refusal", n)
			}
		})
	}
}

// TestTusROMToAGame is the whole life of an admin's ROM upload: created
// over the file limit and the admin's file quota (neither applies), sent in
// two pieces, and on the last byte a game of the console's list whose bytes
// /romserv serves; no file record, no quota used, no staged bytes left.
func TestTusROMToAGame(t *testing.T) {
	fa, romsSvc := tusRomApp(t)
	if resp, _ := fa.do(t, tusReq("OPTIONS", "/api/files/tus/", "", nil)); resp.Header.Get("Tus-Max-Size") != strconv.Itoa(tusRomLimit) {
		t.Fatalf("Tus-Max-Size %q, want the ROM limit", resp.Header.Get("Tus-Max-Size"))
	}
	rom := append([]byte("NES\x1a"), randomBytes(10_000)...)
	resp, body := fa.do(t, tusReq("POST", "/api/files/tus/", adminToken, nil, "Upload-Length", strconv.Itoa(len(rom)),
		"Upload-Metadata", tusRomMeta("target", "rom", "filename", "New Game.nes", "name", "Brand New")))
	if resp.StatusCode != 201 {
		t.Fatalf("create: %d %s", resp.StatusCode, body)
	}
	up := "/api/files/tus/" + path.Base(resp.Header.Get("Location"))
	if resp, body := fa.do(t, tusReq("PATCH", up, adminToken, rom[:4000], "Upload-Offset", "0")); resp.StatusCode != 204 || resp.Header.Get(tusGameIDHeader) != "" {
		t.Fatalf("first piece: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	resp, body = fa.do(t, tusReq("PATCH", up, adminToken, rom[4000:], "Upload-Offset", "4000"))
	if resp.StatusCode != 204 {
		t.Fatalf("last piece: %d %s", resp.StatusCode, body)
	}
	id, err := strconv.ParseUint(resp.Header.Get(tusGameIDHeader), 10, 64)
	if err != nil || resp.Header.Get(tusFileIDHeader) != "" {
		t.Fatalf("answer headers %v", resp.Header)
	}
	g, err := romsSvc.Get(id)
	if err != nil || g.Name != "Brand New" || g.Console != "nes" {
		t.Fatalf("game %+v %v", g, err)
	}

	resp, body = fa.do(t, tusReq("GET", "/romserv/consoles/nes/games", "", nil))
	var list struct {
		Data []roms.Game `json:"data"`
	}
	if err := json.Unmarshal(body, &list); resp.StatusCode != 200 || err != nil {
		t.Fatalf("list: %d %s", resp.StatusCode, body)
	}
	found := false
	for _, x := range list.Data {
		found = found || x.ID == id
	}
	if !found {
		t.Fatalf("the game is not in the console's list: %s", body)
	}
	resp, served := fa.do(t, tusReq("GET", "/romserv"+strings.ReplaceAll(g.Path, " ", "%20"), "", nil))
	if resp.StatusCode != 200 || !bytes.Equal(served, rom) {
		t.Fatalf("/romserv%s: %d, %d bytes", g.Path, resp.StatusCode, len(served))
	}

	if u := fa.quota.Usage(1); u.Bytes != 0 || u.Files != 0 {
		t.Fatalf("the ROM counted in the admin's file quota: %+v", u)
	}
	if all, _ := fa.svc.List(); len(all) != 0 {
		t.Fatalf("a ROM became a file record: %+v", all)
	}
	if n := fa.stagedEntries(t); n != 0 {
		t.Fatalf("%d staged entries left after the import", n)
	}
}

// TestTusROMRefusedImport: a ROM whose name was taken while it uploaded
// (another admin, `devhub rom add`) is refused at its last byte with 409;
// the ROM that is there stays as it was and the staged bytes are gone.
func TestTusROMRefusedImport(t *testing.T) {
	cases := []struct {
		name string
		// meanwhile changes roms/ while the upload is under way.
		meanwhile func(t *testing.T, root string)
		want      int
	}{
		{"the name was taken", func(t *testing.T, root string) {
			if err := os.WriteFile(filepath.Join(root, "nes", "Race.nes"), []byte("first"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, 409},
		{"the name was taken by a folder", func(t *testing.T, root string) {
			if err := os.Mkdir(filepath.Join(root, "nes", "Race.nes"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, 409},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fa, romsSvc := tusRomApp(t)
			rom := append([]byte("NES\x1a"), randomBytes(2000)...)
			resp, body := fa.do(t, tusReq("POST", "/api/files/tus/", adminToken, nil, "Upload-Length", strconv.Itoa(len(rom)),
				"Upload-Metadata", tusRomMeta("target", "rom", "filename", "Race.nes")))
			if resp.StatusCode != 201 {
				t.Fatalf("create: %d %s", resp.StatusCode, body)
			}
			up := "/api/files/tus/" + path.Base(resp.Header.Get("Location"))
			tc.meanwhile(t, romsSvc.Root())
			resp, body = fa.do(t, tusReq("PATCH", up, adminToken, rom, "Upload-Offset", "0"))
			if resp.StatusCode != tc.want || resp.Header.Get(tusGameIDHeader) != "" {
				t.Fatalf("last piece: %d %v %s", resp.StatusCode, resp.Header, body)
			}
			var e APIError
			if err := json.Unmarshal(body, &e); err != nil || e.Status != tc.want {
				t.Fatalf("error not in the API's shape: %s", body)
			}
			if n := fa.stagedEntries(t); n != 0 {
				t.Fatalf("%d staged entries left after a refused import", n)
			}
			if data, err := os.ReadFile(filepath.Join(romsSvc.Root(), "nes", "Race.nes")); err == nil && bytes.Equal(data, rom) {
				t.Fatal("the upload replaced the ROM that was there")
			}
			if resp, _ := fa.do(t, tusReq("HEAD", up, adminToken, nil)); resp.StatusCode != http.StatusNotFound {
				t.Fatalf("HEAD after a refused import: %d", resp.StatusCode)
			}
		})
	}
}

// TestTusROMNameClash: a ROM whose file name the console's folder already
// holds is refused at creation with 409 and data.file.code "exists" (so the
// games page can offer another name or replace), naming no server path;
// with replace=true the admin's upload takes its place: the same game (id,
// display name), the new bytes served, no second game, nothing staged left.
// Anything but a ROM file there (a folder) is never replaced.
func TestTusROMNameClash(t *testing.T) {
	cases := []struct {
		name    string
		file    string
		replace string
		// before prepares roms/ (it holds nes/Existing.nes).
		before     func(t *testing.T, root string)
		wantCreate int
		wantCode   string
	}{
		{"the name is taken", "Existing.nes", "", nil, 409, "exists"},
		{"replace false", "Existing.nes", "false", nil, 409, "exists"},
		{"replace not a boolean", "Existing.nes", "yes", nil, 400, "invalid"},
		{"replace a folder of that name", "Folder.nes", "true", func(t *testing.T, root string) {
			if err := os.Mkdir(filepath.Join(root, "nes", "Folder.nes"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, 409, "exists"},
		{"replaced", "Existing.nes", "true", nil, 201, ""},
		{"replace with no ROM there adds it", "Fresh.nes", "true", nil, 201, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fa, romsSvc := tusRomApp(t)
			if tc.before != nil {
				tc.before(t, romsSvc.Root())
			}
			before, err := romsSvc.All("nes")
			if err != nil || len(before) != 1 {
				t.Fatalf("library before: %+v %v", before, err)
			}
			rom := append([]byte("NES\x1a"), randomBytes(3000)...)
			resp, body := fa.do(t, tusReq("POST", "/api/files/tus/", adminToken, nil, "Upload-Length", strconv.Itoa(len(rom)),
				"Upload-Metadata", tusRomMeta("target", "rom", "filename", tc.file, "replace", tc.replace)))
			if resp.StatusCode != tc.wantCreate {
				t.Fatalf("create: %d, want %d: %s", resp.StatusCode, tc.wantCreate, body)
			}
			if tc.wantCreate != 201 {
				var e APIError
				if err := json.Unmarshal(body, &e); err != nil || e.Status != tc.wantCreate || e.Message == "" {
					t.Fatalf("error not in the API's shape: %s", body)
				}
				var code string
				for _, f := range e.Data {
					code = f.Code
				}
				if code != tc.wantCode {
					t.Fatalf("data %+v, want a field with code %q", e.Data, tc.wantCode)
				}
				if strings.Contains(string(body), romsSvc.Root()) {
					t.Fatalf("the answer names a server path: %s", body)
				}
				if data, _ := os.ReadFile(filepath.Join(romsSvc.Root(), "nes", "Existing.nes")); string(data) != "NES\x1aold" {
					t.Fatalf("the ROM that was there changed: %q", data)
				}
				return
			}
			up := "/api/files/tus/" + path.Base(resp.Header.Get("Location"))
			resp, body = fa.do(t, tusReq("PATCH", up, adminToken, rom, "Upload-Offset", "0"))
			if resp.StatusCode != 204 {
				t.Fatalf("last piece: %d %s", resp.StatusCode, body)
			}
			id, err := strconv.ParseUint(resp.Header.Get(tusGameIDHeader), 10, 64)
			if err != nil {
				t.Fatalf("answer headers %v", resp.Header)
			}
			g, err := romsSvc.Get(id)
			if err != nil || g.Path != "/nes/"+tc.file {
				t.Fatalf("game %+v %v", g, err)
			}
			after, _ := romsSvc.All("nes")
			if tc.file == "Existing.nes" && (id != before[0].ID || len(after) != 1) {
				t.Fatalf("replacing made game %d (was %d), library %+v", id, before[0].ID, after)
			}
			resp, served := fa.do(t, tusReq("GET", "/romserv"+g.Path, "", nil))
			if resp.StatusCode != 200 || !bytes.Equal(served, rom) {
				t.Fatalf("/romserv%s: %d, %d bytes, want the new %d", g.Path, resp.StatusCode, len(served), len(rom))
			}
			if n := fa.stagedEntries(t); n != 0 {
				t.Fatalf("%d staged entries left", n)
			}
		})
	}
}
