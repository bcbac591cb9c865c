package server

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	_ "image/jpeg"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/audit"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/shares"
	"github.com/devhub/devhub/pkg/storage"
	"github.com/devhub/devhub/pkg/thumbs"
)

// otherToken is a signed-in user who is neither the uploader (userToken)
// nor an admin.
const otherToken = "other-token"

// testClock is a clock tests move forward.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time          { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

type sharesTestApp struct {
	*filesTestApp
	shares *shares.Service
	audit  *audit.Service
	thumbs *thumbs.Service
	clock  *testClock
}

func newSharesTestApp(t *testing.T) *sharesTestApp {
	t.Helper()
	return newSharesTestAppOn(t, storage.Local)
}

// newSharesTestAppOn is newSharesTestApp with its files in the given
// storage backend.
func newSharesTestAppOn(t *testing.T, backend string) *sharesTestApp {
	t.Helper()
	return newSharesTestAppWithConfig(t, func(c *config.Config) { c.Storage.Backend = backend })
}

// newSharesTestAppWithConfig is newSharesTestApp with any config change.
func newSharesTestAppWithConfig(t *testing.T, mutate func(*config.Config)) *sharesTestApp {
	t.Helper()
	sa := &sharesTestApp{clock: &testClock{t: time.Now()}}
	sa.filesTestApp = newFilesTestAppWithOptions(t, mutate, func(o *Options) {
		st := o.Services.Store
		a := newTestAuth(t, st, config.Default().Auth)
		var err error
		if sa.shares, err = shares.New(st, a, sa.clock.Now); err != nil {
			t.Fatal(err)
		}
		if sa.audit, err = audit.New(st, 0, nil); err != nil {
			t.Fatal(err)
		}
		sa.thumbs = wireThumbs(t, o)
		o.Services.Authenticate = fakeAuthenticate
		o.Services.Shares = sa.shares
		o.Services.Audit = sa.audit
	})
	return sa
}

// uploadAs uploads one file as the user (userToken), optionally private.
func (sa *sharesTestApp) uploadFile(t *testing.T, name string, data []byte, private bool) files.Info {
	t.Helper()
	f := sa.upload(t, filePart(name, data))[0]
	if private {
		resp, body := sa.do(t, jsonRequest(http.MethodPatch, "/api/files/"+strconv.FormatUint(f.ID, 10), userToken, `{"visibility":"private"}`))
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("make private: %d %s", resp.StatusCode, body)
		}
	}
	return f
}

func listedIDs(t *testing.T, body []byte, nameKey string) map[uint64]bool {
	t.Helper()
	var groups map[string]json.RawMessage
	if err := json.Unmarshal(body, &groups); err != nil {
		t.Fatal(err)
	}
	out := map[uint64]bool{}
	for _, g := range files.GroupNames() {
		var items []map[string]any
		json.Unmarshal(groups[g], &items)
		for _, it := range items {
			out[uint64(it["id"].(float64))] = true
		}
	}
	return out
}

func TestPrivateFileVisibility(t *testing.T) {
	sa := newSharesTestApp(t)
	pub := sa.uploadFile(t, "public.png", testPNG, false)
	priv := sa.uploadFile(t, "private.pdf", testPDF, true)
	pid := strconv.FormatUint(priv.ID, 10)
	// A private image with a thumbnail: its picture is as private as its bytes.
	img := sa.uploadFile(t, "private-photo.png", testImagePNG(t, 64, 48), true)
	sa.thumbs.Wait()
	iid := strconv.FormatUint(img.ID, 10)
	viewers := []struct {
		name, token string
		sees        bool
	}{
		{"guest", "", false},
		{"other user", otherToken, false},
		{"bad token", "nonsense", false},
		{"uploader", userToken, true},
		{"admin", adminToken, true},
	}
	for _, v := range viewers {
		t.Run(v.name, func(t *testing.T) {
			auth := []string{}
			if v.token != "" {
				auth = []string{"Authorization", "Bearer " + v.token}
			}
			// Twice: the second answer may come from the list cache.
			for range 2 {
				for _, path := range []string{"/api/files", "/api/api/files", "/api/files?type=documents", "/api/files?page=1&limit=10"} {
					resp, body := sa.do(t, get(path, auth...))
					if resp.StatusCode != http.StatusOK {
						t.Fatalf("%s: %d", path, resp.StatusCode)
					}
					ids := listedIDs(t, body, "")
					if ids[priv.ID] != v.sees {
						t.Errorf("%s lists the private file: %v, want %v", path, ids[priv.ID], v.sees)
					}
					if path != "/api/files?type=documents" && !ids[pub.ID] {
						t.Errorf("%s does not list the public file", path)
					}
					var totals struct{ Totals map[string]int }
					json.Unmarshal(body, &totals)
					want := 0
					if v.sees {
						want = 1
					}
					if totals.Totals["documents"] != want {
						t.Errorf("%s: documents total %d, want %d", path, totals.Totals["documents"], want)
					}
				}
			}
			for _, path := range []string{"/api/files/" + pid, "/api/api/files/" + pid, "/api/files/" + pid + "/download", "/api/files/stream/" + pid,
				"/api/api/files/" + pid + "/download", "/api/api/files/stream/" + pid,
				"/api/files/" + iid + "/thumbnail", "/api/files/" + iid + "/thumbnail?v=" + thumbSource(files.File{ID: img.ID, SHA256: img.SHA256}).Version(),
				"/api/api/files/" + iid + "/thumbnail", "/api/files/stream/" + iid} {
				for _, method := range []string{http.MethodGet, http.MethodHead} {
					req := get(path, auth...)
					req.Method = method
					resp, body := sa.do(t, req)
					want := http.StatusNotFound
					if v.sees {
						want = http.StatusOK
					}
					if resp.StatusCode != want {
						t.Errorf("%s %s: %d, want %d (%s)", method, path, resp.StatusCode, want, body)
					}
				}
			}
		})
	}
	// The detail says what it is.
	_, body := sa.do(t, get("/api/files/"+pid, "Authorization", "Bearer "+userToken))
	var info files.Info
	json.Unmarshal(body, &info)
	if info.Visibility != files.Private {
		t.Errorf("detail visibility %q", info.Visibility)
	}
	_, body = sa.do(t, get("/api/files/"+strconv.FormatUint(pub.ID, 10)))
	json.Unmarshal(body, &info)
	if info.Visibility != files.Public {
		t.Errorf("public detail visibility %q", info.Visibility)
	}
}

func TestPatchVisibility(t *testing.T) {
	sa := newSharesTestApp(t)
	pub := sa.uploadFile(t, "a.png", testPNG, false)
	priv := sa.uploadFile(t, "b.png", testPNG, true)
	path := func(f files.Info) string { return "/api/files/" + strconv.FormatUint(f.ID, 10) }
	cases := []struct {
		name, token, path, body string
		want                    int
		wantVis                 string
	}{
		{"guest", "", path(pub), `{"visibility":"private"}`, http.StatusUnauthorized, ""},
		{"other user, public file", otherToken, path(pub), `{"visibility":"private"}`, http.StatusForbidden, ""},
		{"other user, private file", otherToken, path(priv), `{"visibility":"public"}`, http.StatusNotFound, ""},
		{"unknown file", userToken, "/api/files/999", `{"visibility":"private"}`, http.StatusNotFound, ""},
		{"bad id", userToken, "/api/files/abc", `{"visibility":"private"}`, http.StatusBadRequest, ""},
		{"bad value", userToken, path(pub), `{"visibility":"secret"}`, http.StatusBadRequest, ""},
		{"missing value", userToken, path(pub), `{}`, http.StatusBadRequest, ""},
		{"malformed", userToken, path(pub), `{"visibility":`, http.StatusBadRequest, ""},
		{"uploader makes private", userToken, path(pub), `{"visibility":"private"}`, http.StatusOK, files.Private},
		{"admin makes public", adminToken, path(pub), `{"visibility":"public"}`, http.StatusOK, files.Public},
		{"uploader makes public", userToken, path(priv), `{"visibility":"public"}`, http.StatusOK, files.Public},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := sa.do(t, jsonRequest(http.MethodPatch, tc.path, tc.token, tc.body))
			if resp.StatusCode != tc.want {
				t.Fatalf("%d, want %d: %s", resp.StatusCode, tc.want, body)
			}
			if tc.wantVis != "" {
				var info files.Info
				json.Unmarshal(body, &info)
				if info.Visibility != tc.wantVis {
					t.Errorf("visibility %q, want %q", info.Visibility, tc.wantVis)
				}
			}
		})
	}
	// Not JSON: 415, as every JSON route.
	req := jsonRequest(http.MethodPatch, path(pub), userToken, `{"visibility":"private"}`)
	req.Header.Set("Content-Type", "text/plain")
	if resp, _ := sa.do(t, req); resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("text/plain: %d", resp.StatusCode)
	}
}

// createShare makes a link as token and returns it.
func (sa *sharesTestApp) createShare(t *testing.T, fileID uint64, token, body string) shares.Link {
	t.Helper()
	resp, raw := sa.do(t, jsonRequest(http.MethodPost, "/api/files/"+strconv.FormatUint(fileID, 10)+"/shares", token, body))
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create share: %d %s", resp.StatusCode, raw)
	}
	var sh shares.Link
	if err := json.Unmarshal(raw, &sh); err != nil {
		t.Fatal(err)
	}
	return sh
}

func TestShareCreate(t *testing.T) {
	sa := newSharesTestApp(t)
	f := sa.uploadFile(t, "a.png", testPNG, false)
	priv := sa.uploadFile(t, "p.png", testPNG, true)
	path := "/api/files/" + strconv.FormatUint(f.ID, 10) + "/shares"
	cases := []struct {
		name, token, path, body string
		want                    int
	}{
		{"guest", "", path, `{}`, http.StatusUnauthorized},
		{"other user", otherToken, path, `{}`, http.StatusForbidden},
		{"other user, private file", otherToken, "/api/files/" + strconv.FormatUint(priv.ID, 10) + "/shares", `{}`, http.StatusNotFound},
		{"unknown file", userToken, "/api/files/999/shares", `{}`, http.StatusNotFound},
		{"bad expiry", userToken, path, `{"expiresIn":"soon"}`, http.StatusBadRequest},
		{"negative expiry", userToken, path, `{"expiresIn":-5}`, http.StatusBadRequest},
		{"expiry over a year", userToken, path, `{"expiresIn":"400d"}`, http.StatusBadRequest},
		{"zero downloads", userToken, path, `{"maxDownloads":0}`, http.StatusBadRequest},
		{"empty password", userToken, path, `{"password":""}`, http.StatusBadRequest},
		{"long password", userToken, path, `{"password":"` + strings.Repeat("x", auth.MaxPasswordBytes+1) + `"}`, http.StatusBadRequest},
		{"defaults", userToken, path, `{}`, http.StatusCreated},
		{"all options", userToken, path, `{"expiresIn":"36h","password":"hunter22","maxDownloads":3}`, http.StatusCreated},
		{"seconds", userToken, path, `{"expiresIn":3600}`, http.StatusCreated},
		{"admin, private file", adminToken, "/api/files/" + strconv.FormatUint(priv.ID, 10) + "/shares", `{}`, http.StatusCreated},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := sa.do(t, jsonRequest(http.MethodPost, tc.path, tc.token, tc.body))
			if resp.StatusCode != tc.want {
				t.Fatalf("%d, want %d: %s", resp.StatusCode, tc.want, body)
			}
		})
	}
	sh := sa.createShare(t, f.ID, userToken, `{"expiresIn":"36h","password":"hunter22","maxDownloads":3}`)
	if len(sh.Token) < 22 || !shares.ValidToken(sh.Token) { // 22 base64 characters = 132 bits
		t.Errorf("token %q too short", sh.Token)
	}
	if !strings.HasSuffix(sh.URL, "/s/"+sh.Token) || sh.MaxDownloads == nil || *sh.MaxDownloads != 3 || !sh.HasPassword || sh.State != shares.StateActive {
		t.Errorf("link %+v", sh)
	}
	if d := sh.ExpiresAt.Sub(sa.clock.Now()); d < 35*time.Hour || d > 37*time.Hour {
		t.Errorf("expires in %v", d)
	}
	// Listed on the file (uploader, admin; not others) and as the maker's links.
	for _, tc := range []struct {
		token, path string
		want, n     int
	}{
		{userToken, path, http.StatusOK, 4},
		{adminToken, path, http.StatusOK, 4},
		{otherToken, path, http.StatusForbidden, 0},
		{"", path, http.StatusUnauthorized, 0},
		{userToken, "/api/shares", http.StatusOK, 4},
		{adminToken, "/api/shares", http.StatusOK, 1},
		{otherToken, "/api/shares", http.StatusOK, 0},
	} {
		resp, body := sa.do(t, jsonRequest(http.MethodGet, tc.path, tc.token, ""))
		if resp.StatusCode != tc.want {
			t.Errorf("GET %s as %q: %d, want %d", tc.path, tc.token, resp.StatusCode, tc.want)
			continue
		}
		if tc.want == http.StatusOK {
			var list []shares.Link
			json.Unmarshal(body, &list)
			if len(list) != tc.n {
				t.Errorf("GET %s as %q: %d links, want %d", tc.path, tc.token, len(list), tc.n)
			}
		}
	}
	evs, _, _ := sa.audit.List(context.Background(), audit.Query{Type: audit.ShareCreated})
	if len(evs) != 5 || strings.Contains(evs[0].Details["link"], sh.Token) {
		t.Errorf("audit: %d share.created events, first %+v", len(evs), evs)
	}
}

// shareGet requests a link's bytes with optional headers and cookies.
func (sa *sharesTestApp) shareGet(t *testing.T, method, token string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(method, "/s/"+token+"/download", nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Add(hdr[i], hdr[i+1])
	}
	return sa.do(t, req)
}

// cookieOf is the value of the named cookie the answer set, as a Cookie header.
func cookieHeader(resp *http.Response, name string) string {
	for _, c := range resp.Cookies() {
		if c.Name == name {
			return c.Name + "=" + c.Value
		}
	}
	return ""
}

func TestShareDownloadCounting(t *testing.T) {
	sa := newSharesTestApp(t)
	data := randomBytes(1000)
	f := sa.uploadFile(t, "data.bin", data, true) // private: the link still works
	sh := sa.createShare(t, f.ID, userToken, `{"maxDownloads":3}`)
	steps := []struct {
		name    string
		method  string
		hdr     []string
		want    int
		counted int // downloads after the step
	}{
		{"HEAD", http.MethodHead, nil, http.StatusOK, 0},
		// Bots do not use up downloads, nor get a limited link's file for free
		// (their User-Agent is anybody's to send): no thumbnail here, so 403.
		{"Slackbot", http.MethodGet, []string{"User-Agent", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"}, http.StatusForbidden, 0},
		{"facebook", http.MethodGet, []string{"User-Agent", "facebookexternalhit/1.1"}, http.StatusForbidden, 0},
		{"Discord", http.MethodGet, []string{"User-Agent", "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)"}, http.StatusForbidden, 0},
		{"TelegramBot", http.MethodGet, []string{"User-Agent", "TelegramBot (like TwitterBot)"}, http.StatusForbidden, 0},
		{"WhatsApp", http.MethodGet, []string{"User-Agent", "WhatsApp/2.23.20.0"}, http.StatusForbidden, 0},
		{"bot, HEAD", http.MethodHead, []string{"User-Agent", "Twitterbot/1.0"}, http.StatusOK, 0},
		// No bytes sent, nothing used up: a range past the end, a copy the
		// client already holds.
		{"range past the end", http.MethodGet, []string{"Range", "bytes=5000-"}, http.StatusRequestedRangeNotSatisfiable, 0},
		{"conditional, fresh copy", http.MethodGet, []string{"If-None-Match", `"` + f.SHA256 + `"`}, http.StatusNotModified, 0},
		// A Range request outside a counted visit counts: free continuations
		// (bytes=1-) would fetch the file any number of times.
		{"range continuation", http.MethodGet, []string{"Range", "bytes=500-"}, http.StatusPartialContent, 1},
		{"range from 0", http.MethodGet, []string{"Range", "bytes=0-99"}, http.StatusPartialContent, 2},
		{"whole file", http.MethodGet, []string{"User-Agent", "curl/8.5"}, http.StatusOK, 3},
		{"used up", http.MethodGet, nil, http.StatusGone, 3},
		{"used up, range", http.MethodGet, []string{"Range", "bytes=1-"}, http.StatusGone, 3},
		{"used up, HEAD", http.MethodHead, nil, http.StatusGone, 3},
		{"used up, bot", http.MethodGet, []string{"User-Agent", "Twitterbot/1.0"}, http.StatusGone, 3},
	}
	for _, st := range steps {
		resp, body := sa.shareGet(t, st.method, sh.Token, st.hdr...)
		if resp.StatusCode != st.want {
			t.Fatalf("%s: %d, want %d (%s)", st.name, resp.StatusCode, st.want, body)
		}
		got, _ := sa.shares.Get(sh.Token)
		if got.Downloads != st.counted {
			t.Fatalf("%s: %d downloads counted, want %d", st.name, got.Downloads, st.counted)
		}
		if st.want == http.StatusOK && st.method == http.MethodGet && string(body) != string(data) {
			t.Fatalf("%s: body differs", st.name)
		}
		if st.want == http.StatusForbidden && bytes.Contains(body, data[:64]) {
			t.Fatalf("%s: a bot got the file", st.name)
		}
		if st.want == http.StatusPartialContent && st.hdr[1] == "bytes=500-" && string(body) != string(data[500:]) {
			t.Fatalf("%s: range body differs", st.name)
		}
	}
	evs, _, _ := sa.audit.List(context.Background(), audit.Query{Type: audit.ShareUsed})
	if len(evs) != 3 {
		t.Errorf("%d share.used events, want 3", len(evs))
	}
}

// TestShareBots: on a limited link a link-preview bot gets an image's
// thumbnail (the link's card) and nothing counts; on a link without a
// maximum it gets the file.
func TestShareBots(t *testing.T) {
	sa := newSharesTestApp(t)
	img := testImagePNG(t, 640, 480)
	f := sa.uploadFile(t, "photo.png", img, false)
	sa.thumbs.Wait()
	limited := sa.createShare(t, f.ID, userToken, `{"maxDownloads":1}`)
	open := sa.createShare(t, f.ID, userToken, `{}`)
	bot := []string{"User-Agent", "facebookexternalhit/1.1"}

	resp, body := sa.shareGet(t, http.MethodGet, limited.Token, bot...)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/jpeg" || bytes.Equal(body, img) {
		t.Fatalf("bot on a limited link: %d %s, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
	}
	if m, _, err := image.Decode(bytes.NewReader(body)); err != nil || m.Bounds().Dx() > 320 {
		t.Fatalf("not a thumbnail: %v", err)
	}
	if !strings.Contains(strings.Join(resp.Header.Values("Vary"), ","), "User-Agent") {
		t.Fatalf("a limited link's answer depends on the User-Agent without saying so: Vary %q", resp.Header.Values("Vary"))
	}
	resp, body = sa.shareGet(t, http.MethodGet, open.Token, bot...)
	if resp.StatusCode != http.StatusOK || !bytes.Equal(body, img) {
		t.Fatalf("bot on an unlimited link: %d, %d bytes", resp.StatusCode, len(body))
	}
	for _, sh := range []shares.Link{limited, open} {
		if got, _ := sa.shares.Get(sh.Token); got.Downloads != 0 {
			t.Errorf("%d downloads counted for bots", got.Downloads)
		}
	}
	// A person's download still counts and still gets the file.
	resp, body = sa.shareGet(t, http.MethodGet, limited.Token)
	if resp.StatusCode != http.StatusOK || !bytes.Equal(body, img) {
		t.Fatalf("person: %d", resp.StatusCode)
	}
	if got, _ := sa.shares.Get(limited.Token); got.Downloads != 1 {
		t.Errorf("%d downloads, want 1", got.Downloads)
	}
}

// TestShareRangeOnEachBackend: a link's download honours Range, HEAD and a
// visit's resumed requests the same way whichever backend holds the bytes
// (on S3 a range is a ranged GET of the object).
func TestShareRangeOnEachBackend(t *testing.T) {
	for _, be := range backendsUnderTest {
		t.Run(be, func(t *testing.T) {
			sa := newSharesTestAppOn(t, be)
			data := randomBytes(3000)
			f := sa.uploadFile(t, "data.bin", data, true)
			sh := sa.createShare(t, f.ID, userToken, `{"maxDownloads":1}`)
			if resp, body := sa.shareGet(t, http.MethodHead, sh.Token, "Range", "bytes=100-199"); resp.StatusCode != http.StatusPartialContent ||
				resp.Header.Get("Content-Length") != "100" || len(body) != 0 {
				t.Fatalf("HEAD: %d, Content-Length %s, %d body bytes", resp.StatusCode, resp.Header.Get("Content-Length"), len(body))
			}
			resp, body := sa.shareGet(t, http.MethodGet, sh.Token, "Range", "bytes=100-199")
			if resp.StatusCode != http.StatusPartialContent || !bytes.Equal(body, data[100:200]) ||
				resp.Header.Get("Content-Range") != "bytes 100-199/3000" {
				t.Fatalf("first range: %d %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Range"), len(body))
			}
			visit := cookieHeader(resp, shareCountedCookie)
			// The link is used up now; the same visit goes on reading it.
			for _, rng := range []struct {
				hdr  string
				want []byte
			}{{"bytes=0-99", data[:100]}, {"bytes=2500-", data[2500:]}, {"bytes=-10", data[2990:]}} {
				resp, body := sa.shareGet(t, http.MethodGet, sh.Token, "Cookie", visit, "Range", rng.hdr)
				if resp.StatusCode != http.StatusPartialContent || !bytes.Equal(body, rng.want) {
					t.Fatalf("%s: %d, %d bytes", rng.hdr, resp.StatusCode, len(body))
				}
			}
			if resp, _ := sa.shareGet(t, http.MethodGet, sh.Token, "Range", "bytes=200-"); resp.StatusCode != http.StatusGone {
				t.Fatalf("another visit: %d, want 410", resp.StatusCode)
			}
			if got, _ := sa.shares.Get(sh.Token); got.Downloads != 1 {
				t.Fatalf("%d downloads, want 1", got.Downloads)
			}
		})
	}
}

func TestShareVisitCountsOnce(t *testing.T) {
	sa := newSharesTestApp(t)
	f := sa.uploadFile(t, "v.mp4", testMP4, false)
	sh := sa.createShare(t, f.ID, userToken, `{"maxDownloads":1}`)
	// The page's preview counts the visit's one download and leaves a cookie...
	resp, _ := sa.shareGet(t, http.MethodGet, sh.Token)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Disposition") == "" {
		t.Fatalf("first: %d", resp.StatusCode)
	}
	visit := cookieHeader(resp, shareCountedCookie)
	if visit == "" {
		t.Fatal("no visit cookie")
	}
	// ...with which the same visit downloads again (the button, a resumed
	// download) though the link is used up now; without it: 410.
	for _, hdr := range [][]string{{"Cookie", visit}, {"Cookie", visit, "Range", "bytes=0-3"}} {
		if resp, body := sa.shareGet(t, http.MethodGet, sh.Token, hdr...); resp.StatusCode/100 != 2 {
			t.Fatalf("same visit %v: %d %s", hdr, resp.StatusCode, body)
		}
	}
	if resp, _ := sa.shareGet(t, http.MethodGet, sh.Token); resp.StatusCode != http.StatusGone {
		t.Fatalf("new visit: %d, want 410", resp.StatusCode)
	}
	if resp, _ := sa.shareGet(t, http.MethodGet, sh.Token, "Cookie", shareCountedCookie+"=123.forged"); resp.StatusCode != http.StatusGone {
		t.Fatalf("forged visit cookie: %d, want 410", resp.StatusCode)
	}
	got, _ := sa.shares.Get(sh.Token)
	if got.Downloads != 1 {
		t.Errorf("%d downloads, want 1", got.Downloads)
	}
	// ?inline=1 shows a safe type inline.
	sh2 := sa.createShare(t, f.ID, userToken, `{}`)
	req := httptest.NewRequest(http.MethodGet, "/s/"+sh2.Token+"/download?inline=1", nil)
	resp, _ = sa.do(t, req)
	if cd := resp.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "inline") {
		t.Errorf("inline: Content-Disposition %q", cd)
	}
	if resp.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("user file headers missing: %v", resp.Header)
	}
}

func TestShareGone(t *testing.T) {
	sa := newSharesTestApp(t)
	f := sa.uploadFile(t, "a.png", testPNG, false)
	expiring := sa.createShare(t, f.ID, userToken, `{"expiresIn":"1h"}`)
	revoked := sa.createShare(t, f.ID, userToken, `{}`)
	byAdmin := sa.createShare(t, f.ID, userToken, `{}`)
	deletedFile := sa.uploadFile(t, "b.png", testPNG, false)
	orphan := sa.createShare(t, deletedFile.ID, userToken, `{}`)

	// Revocation: not by another user (404), by the maker and by an admin.
	for _, tc := range []struct {
		token, link string
		want        int
	}{
		{"", revoked.Token, http.StatusUnauthorized},
		{otherToken, revoked.Token, http.StatusNotFound},
		{userToken, "no-such-token-aaaaaaaaaaaa", http.StatusNotFound},
		{userToken, "bad token", http.StatusNotFound},
		{userToken, revoked.Token, http.StatusNoContent},
		{adminToken, byAdmin.Token, http.StatusNoContent},
	} {
		resp, body := sa.do(t, jsonRequest(http.MethodDelete, "/api/shares/"+strings.ReplaceAll(tc.link, " ", "%20"), tc.token, ""))
		if resp.StatusCode != tc.want {
			t.Errorf("DELETE %s as %q: %d, want %d (%s)", tc.link, tc.token, resp.StatusCode, tc.want, body)
		}
	}
	if _, err := sa.svc.Delete(t.Context(), deletedFile.ID); err != nil {
		t.Fatal(err)
	}
	sa.clock.Advance(2 * time.Hour)
	cases := []struct {
		name, token string
		want        int
	}{
		{"expired", expiring.Token, http.StatusGone},
		{"revoked", revoked.Token, http.StatusGone},
		{"revoked by admin", byAdmin.Token, http.StatusGone},
		{"file deleted", orphan.Token, http.StatusGone},
		{"unknown", "AAAAAAAAAAAAAAAAAAAAAAAA", http.StatusNotFound},
		{"malformed", "x", http.StatusNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"/s/" + tc.token + "/download", "/s/" + tc.token + "/info"} {
				resp, body := sa.do(t, get(path))
				if resp.StatusCode != tc.want {
					t.Errorf("%s: %d, want %d (%s)", path, resp.StatusCode, tc.want, body)
				}
			}
			// The page itself is the SPA's, with the link's status.
			resp, body := sa.do(t, get("/s/"+tc.token))
			if resp.StatusCode != tc.want || !strings.Contains(string(body), "<html") {
				t.Errorf("page: %d, want %d (%.80s)", resp.StatusCode, tc.want, body)
			}
			resp, _ = sa.do(t, jsonRequest(http.MethodPost, "/s/"+tc.token+"/unlock", "", `{"password":"x"}`))
			if resp.StatusCode != tc.want {
				t.Errorf("unlock: %d, want %d", resp.StatusCode, tc.want)
			}
		})
	}
	// A link in use: its page answers 200.
	live := sa.createShare(t, f.ID, userToken, `{}`)
	if resp, _ := sa.do(t, get("/s/"+live.Token)); resp.StatusCode != http.StatusOK {
		t.Errorf("live link page: %d", resp.StatusCode)
	}
	// The owner's list says why.
	_, body := sa.do(t, jsonRequest(http.MethodGet, "/api/files/"+strconv.FormatUint(f.ID, 10)+"/shares", userToken, ""))
	var list []shares.Link
	json.Unmarshal(body, &list)
	states := map[string]string{}
	for _, s := range list {
		states[s.Token] = s.State
	}
	if states[expiring.Token] != shares.StateExpired || states[revoked.Token] != shares.StateRevoked {
		t.Errorf("states %v", states)
	}
	evs, _, _ := sa.audit.List(context.Background(), audit.Query{Type: audit.ShareRevoked})
	if len(evs) != 2 {
		t.Errorf("%d share.revoked events, want 2", len(evs))
	}
}

func TestSharePassword(t *testing.T) {
	sa := newSharesTestApp(t)
	data := randomBytes(300)
	f := sa.uploadFile(t, "secret.bin", data, true)
	sh := sa.createShare(t, f.ID, userToken, `{"password":"correct horse"}`)
	base := "/s/" + sh.Token
	// Stored as an argon2id hash through pkg/auth, never as given.
	if stored, _ := sa.shares.Get(sh.Token); !strings.HasPrefix(stored.PasswordHash, "$argon2id$") ||
		strings.Contains(stored.PasswordHash, "correct horse") {
		t.Fatalf("stored password %q", stored.PasswordHash)
	}

	// Locked: the page learns only that a password is needed; the bytes are 401.
	resp, body := sa.do(t, get(base+"/info"))
	var info shareInfoJSON
	json.Unmarshal(body, &info)
	if resp.StatusCode != http.StatusOK || !info.Locked || !info.PasswordRequired || info.File != nil {
		t.Fatalf("locked info: %d %s", resp.StatusCode, body)
	}
	if resp, _ := sa.shareGet(t, http.MethodGet, sh.Token); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("locked download: %d", resp.StatusCode)
	}
	if resp, _ := sa.shareGet(t, http.MethodGet, sh.Token, "Cookie", shareUnlockCookie+"=99999999999.forged"); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("forged grant: %d", resp.StatusCode)
	}
	cases := []struct {
		name, body string
		want       int
	}{
		{"wrong", `{"password":"wrong"}`, http.StatusUnauthorized},
		{"empty", `{"password":""}`, http.StatusUnauthorized},
		{"missing", `{}`, http.StatusUnauthorized},
		{"malformed", `{"password":`, http.StatusBadRequest},
	}
	for _, tc := range cases {
		resp, body := sa.do(t, jsonRequest(http.MethodPost, base+"/unlock", "", tc.body))
		if resp.StatusCode != tc.want {
			t.Errorf("%s: %d, want %d (%s)", tc.name, resp.StatusCode, tc.want, body)
		}
	}
	resp, body = sa.do(t, jsonRequest(http.MethodPost, base+"/unlock", "", `{"password":"correct horse"}`))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("right password: %d %s", resp.StatusCode, body)
	}
	unlock := cookieHeader(resp, shareUnlockCookie)
	var grant struct{ Grant string }
	json.Unmarshal(body, &grant)
	if unlock == "" || grant.Grant == "" {
		t.Fatalf("no grant: %v %s", resp.Header, body)
	}
	for _, c := range resp.Cookies() {
		if c.Name == shareUnlockCookie && (!c.HttpOnly || c.Path != "/s/"+sh.Token) {
			t.Errorf("unlock cookie %+v", c)
		}
	}
	_, body = sa.do(t, get(base+"/info", "Cookie", unlock))
	json.Unmarshal(body, &info)
	if info.Locked || info.File == nil || info.File.Name != "secret.bin" || info.File.Size != 300 {
		t.Fatalf("unlocked info: %s", body)
	}
	for _, hdr := range [][]string{{"Cookie", unlock}, {shareGrantHeader, grant.Grant}} {
		resp, body := sa.shareGet(t, http.MethodGet, sh.Token, hdr...)
		if resp.StatusCode != http.StatusOK || string(body) != string(data) {
			t.Fatalf("download with %s: %d", hdr[0], resp.StatusCode)
		}
	}
	// A grant of one link opens no other.
	other := sa.createShare(t, f.ID, userToken, `{"password":"correct horse"}`)
	if resp, _ := sa.shareGet(t, http.MethodGet, other.Token, shareGrantHeader, grant.Grant); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("grant reused on another link: %d", resp.StatusCode)
	}
	// The grant expires.
	sa.clock.Advance(shareGrantTTL + time.Minute)
	if resp, _ := sa.shareGet(t, http.MethodGet, sh.Token, shareGrantHeader, grant.Grant); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("expired grant: %d", resp.StatusCode)
	}
}

func TestSharePasswordThrottled(t *testing.T) {
	sa := newSharesTestApp(t)
	f := sa.uploadFile(t, "a.png", testPNG, false)
	sh := sa.createShare(t, f.ID, userToken, `{"password":"right one"}`)
	for i := range auth.LoginMaxFailures {
		resp, _ := sa.do(t, jsonRequest(http.MethodPost, "/s/"+sh.Token+"/unlock", "", `{"password":"guess `+strconv.Itoa(i)+`"}`))
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("guess %d: %d", i, resp.StatusCode)
		}
	}
	// Throttled now, even with the right password (else the answer would tell).
	resp, body := sa.do(t, jsonRequest(http.MethodPost, "/s/"+sh.Token+"/unlock", "", `{"password":"right one"}`))
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("after %d wrong guesses: %d %s", auth.LoginMaxFailures, resp.StatusCode, body)
	}
}

func TestIsLinkPreviewBot(t *testing.T) {
	for _, tc := range []struct {
		ua   string
		want bool
	}{
		{"facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", true},
		{"Twitterbot/1.0", true}, {"LinkedInBot/1.0 (compatible; Mozilla/5.0)", true},
		{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120 Safari/537.36", false},
		{"curl/8.5.0", false}, {"", false},
	} {
		if got := isLinkPreviewBot(tc.ua); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.ua, got, tc.want)
		}
	}
}
