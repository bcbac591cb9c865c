package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/gamestates"
	"github.com/devhub/devhub/pkg/internal/freespace"
	"github.com/devhub/devhub/pkg/internal/freespace/freespacetest"
	"github.com/devhub/devhub/pkg/roms"
	"github.com/devhub/devhub/pkg/store"
)

// The disk of the full-disk tests: the store, the uploads (with the
// resumable uploads' staging), the save states and roms/ all on one small
// disk — a tmpfs where the machine allows it — with a reserve of a quarter.
const (
	diskSize    = 32 << 20
	diskReserve = 8 << 20
	diskMaxBody = 64 << 20
)

const (
	diskUser     = "player@example.com"
	diskAdmin    = "owner@example.com"
	diskPassword = "correct horse battery"
)

// diskApp is the server over services on one small disk, signed in for
// real: the point is that sign-in keeps working.
type diskApp struct {
	*testApp
	disk                                   *freespacetest.Disk
	dataDir, uploadsDir, tusDir, statesDir string
	user, admin                            string // access tokens
	gameID                                 uint64
	base                                   string // the app listening on loopback
}

// newDiskApp builds the app on a fresh disk; reserve makes the free-space
// reserve from the disk and the data and uploads directories (nil: the
// disk's, diskReserve).
func newDiskApp(t *testing.T, reserve func(d *freespacetest.Disk, data, uploads string) *freespace.Reserve) *diskApp {
	t.Helper()
	d := freespacetest.New(t, diskSize)
	a := &diskApp{disk: d, dataDir: filepath.Join(d.Dir, "data"), uploadsDir: filepath.Join(d.Dir, "uploads")}
	a.tusDir = filepath.Join(a.uploadsDir, ".tus")
	a.statesDir = filepath.Join(a.dataDir, "gamestates")
	romsDir := filepath.Join(d.Dir, "roms")
	if err := os.MkdirAll(filepath.Join(romsDir, "nes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(romsDir, "nes", "Game.nes"), []byte("NES\x1agame"), 0o644); err != nil {
		t.Fatal(err)
	}
	if reserve == nil {
		reserve = func(d *freespacetest.Disk, data, uploads string) *freespace.Reserve {
			return d.Reserve(diskReserve, data, uploads)
		}
	}
	r := reserve(d, a.dataDir, a.uploadsDir)

	st, err := store.Open(filepath.Join(a.dataDir, "devhub.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cfg := config.Default()
	cfg.Auth.JWTSecret = authTestSecret
	cfg.Files.MaxUploadBytes = diskMaxBody
	cfg.Emulator.MaxROMBytes = diskMaxBody
	cfg.Emulator.MaxStateBytes = diskMaxBody
	cfg.Storage.RomsDir = romsDir
	authSvc := newTestAuth(t, st, cfg.Auth)
	filesSvc, err := files.New(st, a.uploadsDir, cfg.Files.MaxUploadBytes, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { filesSvc.Close() })
	filesSvc.UseReserve(r)
	states, err := gamestates.New(a.statesDir, cfg.Emulator.MaxStateBytes)
	if err != nil {
		t.Fatal(err)
	}
	states.UseReserve(r)
	romsSvc, err := roms.New(st, romsDir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := romsSvc.Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	romsSvc.UseReserve(r)
	games, err := romsSvc.All("nes")
	if err != nil || len(games) != 1 {
		t.Fatal("the game is not indexed", err)
	}
	a.gameID = games[0].ID
	for _, u := range []auth.NewUser{
		{Email: diskUser, Name: "Player", Password: diskPassword},
		{Email: diskAdmin, Name: "Owner", Password: diskPassword, Role: auth.RoleAdmin},
	} {
		if _, err := authSvc.CreateUser(context.Background(), u); err != nil {
			t.Fatal(err)
		}
	}
	a.testApp = newTestApp(t, func(o *Options) {
		o.Config = cfg
		o.Services = &Services{Store: st, Auth: authSvc, Authenticate: authSvc.Authenticate, Files: filesSvc,
			TusDir: a.tusDir, Reserve: r, GameStates: states, Roms: romsSvc}
	})
	a.user, a.admin = a.signIn(t, diskUser), a.signIn(t, diskAdmin)
	a.base = a.listen(t)
	return a
}

// send sends an upload on a connection of its own and reads the answer,
// checked against the contract. Uploads go over a real socket: a body sent
// without a Content-Length is really streamed, and one the server refuses
// before reading it is the connection's business, not the next request's.
func (a *diskApp) send(t *testing.T, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	var sent []byte
	if req.Body != nil {
		sent, _ = io.ReadAll(req.Body)
	}
	out, err := http.NewRequest(req.Method, a.base+req.URL.RequestURI(), bytes.NewReader(sent))
	if err != nil {
		t.Fatal(err)
	}
	out.Header = req.Header.Clone()
	if req.ContentLength < 0 {
		out.ContentLength = -1
		out.Body = io.NopCloser(bytes.NewReader(sent)) // no length: chunked
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 30 * time.Second}
	resp, err := client.Do(out)
	if err != nil {
		t.Fatal(err, a.logs.String())
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(req.Header.Get("Content-Type"), "multipart/") {
		checkContract(t, req, sent, resp.StatusCode, resp.Header, body)
	} else {
		checkContract(t, req, nil, resp.StatusCode, resp.Header, body)
	}
	return resp, body
}

// signIn signs in by POST /api/auth/login and answers the access token.
func (a *diskApp) signIn(t *testing.T, email string) string {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/api/auth/login",
		strings.NewReader(`{"email":"`+email+`","password":"`+diskPassword+`"}`))
	req.Header.Set("Content-Type", "application/json")
	resp, body := a.do(t, req)
	var out authAnswer
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &out) != nil || out.Tokens.AccessToken == "" {
		t.Fatalf("sign-in on the full disk: %d %s", resp.StatusCode, body)
	}
	return out.Tokens.AccessToken
}

// room is what may still be written before the reserve.
func (a *diskApp) room(t *testing.T) int64 { return a.disk.Free(t) - diskReserve }

// leftovers lists the files a refused write could have left: staged
// uploads, the file cloud's bytes and temp files, save states and their
// temp files, and ROM temp files.
func (a *diskApp) leftovers(t *testing.T) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(a.disk.Dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(a.disk.Dir, p)
		switch {
		case strings.HasPrefix(rel, "data"+string(filepath.Separator)+"devhub.db"), strings.HasPrefix(rel, "filler-"),
			rel == filepath.Join("roms", "nes", "Game.nes"):
		default:
			out = append(out, rel)
		}
		return nil
	})
	return out
}

// refused checks a write's answer: the one 507, nothing left on the disk,
// the reserve still free, and sign-in working.
func (a *diskApp) refused(t *testing.T, resp *http.Response, body []byte) {
	t.Helper()
	e := apiErr(t, body)
	if resp.StatusCode != http.StatusInsufficientStorage || e.Message != "not enough storage space on the server for this upload; nothing was kept" {
		t.Fatalf("answer %d %s, want the 507", resp.StatusCode, body)
	}
	if left := a.leftovers(t); len(left) > 0 {
		t.Fatalf("the refused write left %v", left)
	}
	if free := a.disk.Free(t); free < diskReserve {
		t.Fatalf("%d bytes free after the refusal, under the reserve of %d", free, diskReserve)
	}
	a.signIn(t, diskUser)
}

// chunked marks req to be sent without a Content-Length (send), so nothing
// is announced and only the stream can meet the reserve.
func chunked(req *http.Request) *http.Request {
	req.ContentLength = -1
	return req
}

func multipartUpload(t *testing.T, token string, data []byte) *http.Request {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	w, _ := mw.CreateFormFile("files", "big.bin")
	w.Write(data)
	mw.Close()
	req := httptest.NewRequest(http.MethodPost, "/api/files/upload", &b)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	return req
}

func rawUpload(method, target, token string, data []byte, hdr ...string) *http.Request {
	req := httptest.NewRequest(method, target, bytes.NewReader(data))
	req.Header.Set("Content-Type", "application/octet-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return req
}

// Every write of users' bytes that would go below the reserve is the one
// 507 and leaves nothing: refused before a byte is written when its length
// is announced, stopped where it would cross the reserve when it is not;
// the store keeps its room, and signing in keeps working.
func TestFullDiskRefusesWritesAndSignInWorks(t *testing.T) {
	for _, tc := range []struct {
		name     string
		streamed bool
		req      func(a *diskApp, data []byte) *http.Request
	}{
		{"file upload, announced", false, func(a *diskApp, data []byte) *http.Request { return multipartUpload(t, a.user, data) }},
		{"file upload, streamed", true, func(a *diskApp, data []byte) *http.Request { return chunked(multipartUpload(t, a.user, data)) }},
		{"save state, announced", false, func(a *diskApp, data []byte) *http.Request {
			return rawUpload("PUT", fmt.Sprintf("/api/games/%d/states/1", a.gameID), a.user, data, "X-Emulator-Core", "fceumm")
		}},
		{"save state, streamed", true, func(a *diskApp, data []byte) *http.Request {
			return chunked(rawUpload("PUT", fmt.Sprintf("/api/games/%d/states/1", a.gameID), a.user, data, "X-Emulator-Core", "fceumm"))
		}},
		{"ROM upload, announced", false, func(a *diskApp, data []byte) *http.Request {
			return rawUpload("POST", "/api/games/roms?file=Big.nes", a.admin, data)
		}},
		{"ROM upload, streamed", true, func(a *diskApp, data []byte) *http.Request {
			return chunked(rawUpload("POST", "/api/games/roms?file=Big.nes", a.admin, data))
		}},
		{"resumable upload, created", false, func(a *diskApp, data []byte) *http.Request {
			return tusReq("POST", "/api/files/tus/", a.user, nil, "Upload-Length", strconv.Itoa(len(data)), "Upload-Metadata", tusMeta("big.bin"))
		}},
		{"resumable ROM upload, created", false, func(a *diskApp, data []byte) *http.Request {
			return tusReq("POST", "/api/files/tus/", a.admin, nil, "Upload-Length", strconv.Itoa(len(data)),
				"Upload-Metadata", tusRomMeta("target", "rom", "filename", "Big.nes"))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newDiskApp(t, nil)
			data := make([]byte, a.room(t)+1<<20)
			resp, body := a.send(t, tc.req(a, data))
			a.refused(t, resp, body)
		})
	}
}

// A resumable upload created while there was room is refused at its next
// PATCH once other writes have filled the disk, before a byte is written,
// and its staged bytes go with it: they are not kept for files.tus_expiry.
func TestFullDiskEndsAResumableUpload(t *testing.T) {
	a := newDiskApp(t, nil)
	up := a.tusCreate(t, 4<<20)
	first := make([]byte, 1<<20)
	if resp, body := a.do(t, tusReq("PATCH", up, a.user, first, "Upload-Offset", "0")); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("first PATCH: %d %s", resp.StatusCode, body)
	}
	a.disk.Fill(t, diskReserve+1<<20)
	resp, body := a.send(t, tusReq("PATCH", up, a.user, make([]byte, 3<<20), "Upload-Offset", strconv.Itoa(len(first))))
	a.refused(t, resp, body)
	if resp, _ := a.do(t, tusReq("HEAD", up, a.user, nil)); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("the ended upload answers HEAD %d, want 404", resp.StatusCode)
	}
}

// A PATCH that crosses the reserve while it streams (another writer fills
// the disk as fast as it writes: the reserve's reading counts its staged
// bytes twice more) stops there, and the upload's bytes are deleted.
func TestFullDiskStopsAResumableUploadMidBody(t *testing.T) {
	a := newDiskApp(t, anotherWriter)
	// Room for the staged bytes and the finished file at creation.
	size := a.room(t)/2 - 64<<10
	up := a.tusCreate(t, size)
	resp, body := a.send(t, tusReq("PATCH", up, a.user, make([]byte, size), "Upload-Offset", "0"))
	a.refused(t, resp, body)
}

// A write that fills the disk — on a tmpfs with no reserve, the kernel's
// ENOSPC mid-body — is the same 507, the staged bytes it wrote are deleted
// at once (they used to stay for files.tus_expiry, with every sign-in
// failing meanwhile), and sign-in works straight away. A simulated disk has
// no end to meet: there another writer fills it during the PATCH, and the
// reserve ends the write.
func TestFullDiskWriteFailureKeepsNothing(t *testing.T) {
	a := newDiskApp(t, func(d *freespacetest.Disk, data, uploads string) *freespace.Reserve {
		if d.Mounted {
			return nil
		}
		return anotherWriter(d, data, uploads)
	})
	size := a.room(t)/2 - 64<<10
	if a.disk.Mounted {
		size = a.disk.Free(t) + 1<<20 // more than the disk holds
	}
	up := a.tusCreate(t, size)
	resp, body := a.send(t, tusReq("PATCH", up, a.user, make([]byte, size), "Upload-Offset", "0"))
	a.refused(t, resp, body)
}

// anotherWriter is the reserve of a disk that another program fills as fast
// as the resumable uploads' staging does, twice over: a PATCH that fits when
// it starts crosses the reserve on the way.
func anotherWriter(d *freespacetest.Disk, data, uploads string) *freespace.Reserve {
	staging := filepath.Join(uploads, ".tus")
	return d.Reserve(diskReserve, data, uploads).WithStat(func(dir string) (uint64, int64, error) {
		id, avail, err := d.Stat(dir)
		return id, avail - 2*freespacetest.Usage(staging), err
	})
}

// tusCreate starts a resumable upload of size bytes as the user.
func (a *diskApp) tusCreate(t *testing.T, size int64) string {
	t.Helper()
	resp, body := a.do(t, tusReq("POST", "/api/files/tus/", a.user, nil, "Upload-Length", strconv.FormatInt(size, 10), "Upload-Metadata", tusMeta("big.bin")))
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.StatusCode, body)
	}
	return "/api/files/tus/" + filepath.Base(resp.Header.Get("Location"))
}

// No answer carries a server path: a write that fails on the server's side
// for another cause than space is the generic 500, its cause (which names
// directories) in the log only. tusd's own answer to such a failure used to
// carry the error's text, paths included.
func TestDiskErrorsNameNoPath(t *testing.T) {
	replaceWithFile := func(t *testing.T, p string) {
		t.Helper()
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("in the way"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name   string
		breaks func(t *testing.T, a *diskApp)
		req    func(t *testing.T, a *diskApp) *http.Request
	}{
		{"resumable upload, staging directory gone",
			func(t *testing.T, a *diskApp) { replaceWithFile(t, a.tusDir) },
			func(t *testing.T, a *diskApp) *http.Request {
				return tusReq("POST", "/api/files/tus/", a.user, nil, "Upload-Length", "10", "Upload-Metadata", tusMeta("a.bin"))
			}},
		{"resumable upload, staged bytes unwritable",
			func(t *testing.T, a *diskApp) {},
			func(t *testing.T, a *diskApp) *http.Request {
				up := a.tusCreate(t, 1<<20)
				staged := filepath.Join(a.tusDir, filepath.Base(up))
				if err := os.Remove(staged); err != nil {
					t.Fatal(err)
				}
				if err := os.Mkdir(staged, 0o700); err != nil {
					t.Fatal(err)
				}
				fi, err := os.Stat(staged) // the offset the upload now has
				if err != nil {
					t.Fatal(err)
				}
				return tusReq("PATCH", up, a.user, []byte("0123456789"), "Upload-Offset", strconv.FormatInt(fi.Size(), 10))
			}},
		{"file upload, uploads directory gone",
			func(t *testing.T, a *diskApp) {
				if err := os.RemoveAll(a.uploadsDir); err != nil {
					t.Fatal(err)
				}
			},
			func(t *testing.T, a *diskApp) *http.Request { return multipartUpload(t, a.user, []byte("hello")) }},
		{"save state, the player's directory in the way",
			func(t *testing.T, a *diskApp) { replaceWithFile(t, filepath.Join(a.statesDir, "1")) },
			func(t *testing.T, a *diskApp) *http.Request {
				return rawUpload("PUT", fmt.Sprintf("/api/games/%d/states/1", a.gameID), a.user, []byte("state"), "X-Emulator-Core", "fceumm")
			}},
		{"ROM upload, the console's directory in the way",
			func(t *testing.T, a *diskApp) {
				replaceWithFile(t, filepath.Join(a.disk.Dir, "roms", "snes"))
			},
			func(t *testing.T, a *diskApp) *http.Request {
				return rawUpload("POST", "/api/games/roms?file=New.sfc", a.admin, []byte("snes rom"))
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newDiskApp(t, nil)
			tc.breaks(t, a)
			resp, body := a.send(t, tc.req(t, a))
			e := apiErr(t, body)
			if resp.StatusCode != http.StatusInternalServerError || e.Message != "internal server error" || len(e.Data) != 0 {
				t.Fatalf("answer %d %s, want the generic 500", resp.StatusCode, body)
			}
			for _, dir := range []string{a.disk.Dir, filepath.Dir(a.disk.Dir), os.TempDir()} {
				if strings.Contains(string(body), dir) {
					t.Fatalf("the answer names %s: %s", dir, body)
				}
			}
			if !strings.Contains(a.logs.String(), "level=ERROR") {
				t.Fatalf("the cause is not in the log:\n%s", a.logs.String())
			}
		})
	}
}
