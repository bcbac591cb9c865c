package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	tusd "github.com/tus/tusd/v2/pkg/handler"

	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/files/resumable"
	"github.com/devhub/devhub/pkg/quota"
)

// tusReq builds one tus request (Tus-Resumable set) as token.
func tusReq(method, target, token string, body []byte, hdr ...string) *http.Request {
	var r *http.Request
	if body != nil {
		r = httptest.NewRequest(method, target, bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/offset+octet-stream")
	} else {
		r = httptest.NewRequest(method, target, nil)
	}
	r.Header.Set("Tus-Resumable", "1.0.0")
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	return r
}

func tusMeta(name string) string {
	return "filename " + base64.StdEncoding.EncodeToString([]byte(name))
}

// tusCreate starts an upload of length n and returns its path.
func (fa *filesTestApp) tusCreate(t *testing.T, token string, n int, name string) string {
	t.Helper()
	resp, body := fa.do(t, tusReq("POST", "/api/files/tus/", token, nil, "Upload-Length", strconv.Itoa(n), "Upload-Metadata", tusMeta(name)))
	if resp.StatusCode != 201 {
		t.Fatalf("create: %d %s", resp.StatusCode, body)
	}
	loc := resp.Header.Get("Location")
	if !strings.Contains(loc, "/api/files/tus/") {
		t.Fatalf("Location %q", loc)
	}
	return "/api/files/tus/" + path.Base(loc)
}

func (fa *filesTestApp) stagedEntries(t *testing.T) int {
	t.Helper()
	es, err := os.ReadDir(fa.tusDir)
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}

func TestTusDiscovery(t *testing.T) {
	fa := newFilesTestApp(t, 1<<20)
	resp, _ := fa.do(t, tusReq("OPTIONS", "/api/files/tus/", "", nil))
	if resp.StatusCode != 200 || resp.Header.Get("Tus-Version") != "1.0.0" || resp.Header.Get("Tus-Max-Size") != strconv.FormatInt(max(1<<20, config.Default().Emulator.MaxROMBytes), 10) {
		t.Fatalf("OPTIONS: %d %v", resp.StatusCode, resp.Header)
	}
	ext := resp.Header.Get("Tus-Extension")
	for _, want := range []string{"creation", "creation-with-upload", "termination", "expiration"} {
		if !strings.Contains(","+ext+",", ","+want+",") {
			t.Errorf("Tus-Extension %q lacks %s", ext, want)
		}
	}
	for _, not := range []string{"creation-defer-length", "concatenation"} {
		if strings.Contains(ext, not) {
			t.Errorf("Tus-Extension %q offers %s, which is not composed in", ext, not)
		}
	}
}

// TestTusResumeToAFile is the whole life of a resumable upload: created,
// sent in pieces (a wrong offset refused), seen by nobody but its owner,
// and on the last byte a normal file record with its type and hash.
func TestTusResumeToAFile(t *testing.T) {
	forEachBackend(t, func(t *testing.T, newApp func(func(*config.Config)) *filesTestApp) {
		fa := newApp(nil)
		data := append(append([]byte{}, testPNG...), randomBytes(5000)...)
		up := fa.tusCreate(t, userToken, len(data), "../holiday\\photo.png")

		steps := []struct {
			name       string
			req        *http.Request
			want       int
			wantOffset string
		}{
			{"head at the start", tusReq("HEAD", up, userToken, nil), 200, "0"},
			{"first piece", tusReq("PATCH", up, userToken, data[:1000], "Upload-Offset", "0"), 204, "1000"},
			{"a piece at the wrong offset", tusReq("PATCH", up, userToken, data[1000:2000], "Upload-Offset", "500"), 409, ""},
			{"another user cannot see it", tusReq("HEAD", up, adminToken, nil), 404, ""},
			{"another user cannot write it", tusReq("PATCH", up, adminToken, data[1000:], "Upload-Offset", "1000"), 404, ""},
			{"a guest cannot", tusReq("HEAD", up, "", nil), 401, ""},
			{"head after a dropped connection", tusReq("HEAD", up, userToken, nil), 200, "1000"},
		}
		for _, st := range steps {
			resp, body := fa.do(t, st.req)
			if resp.StatusCode != st.want {
				t.Fatalf("%s: %d %s", st.name, resp.StatusCode, body)
			}
			if st.wantOffset != "" && resp.Header.Get("Upload-Offset") != st.wantOffset {
				t.Fatalf("%s: Upload-Offset %q, want %s", st.name, resp.Header.Get("Upload-Offset"), st.wantOffset)
			}
			if st.want < 300 {
				if _, err := http.ParseTime(resp.Header.Get("Upload-Expires")); err != nil {
					t.Fatalf("%s: Upload-Expires %q", st.name, resp.Header.Get("Upload-Expires"))
				}
			}
			if st.want >= 400 && st.req.Method != "HEAD" {
				var e APIError
				if err := json.Unmarshal(body, &e); err != nil || e.Status != st.want || e.Message == "" {
					t.Fatalf("%s: error not in the API's shape: %s", st.name, body)
				}
			}
		}
		if all, _ := fa.svc.List(); len(all) != 0 {
			t.Fatal("an unfinished upload is listed")
		}

		resp, body := fa.do(t, tusReq("PATCH", up, userToken, data[1000:], "Upload-Offset", "1000"))
		if resp.StatusCode != 204 {
			t.Fatalf("last piece: %d %s", resp.StatusCode, body)
		}
		id, err := strconv.ParseUint(resp.Header.Get(tusFileIDHeader), 10, 64)
		if err != nil {
			t.Fatalf("%s %q", tusFileIDHeader, resp.Header.Get(tusFileIDHeader))
		}
		f, err := fa.svc.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if f.Size != int64(len(data)) || f.SHA256 != hex.EncodeToString(sum[:]) || f.Type != "image" || f.UploaderID != 2 || f.OriginalName != "photo.png" {
			t.Fatalf("record %+v", f)
		}
		if n := fa.stagedEntries(t); n != 0 {
			t.Fatalf("%d staged entries left after the import", n)
		}
		if resp, _ := fa.do(t, tusReq("HEAD", up, userToken, nil)); resp.StatusCode != 404 {
			t.Fatalf("HEAD of a finished upload: %d", resp.StatusCode)
		}
	})
}

func TestTusCreationWithUpload(t *testing.T) {
	fa := newFilesTestApp(t, 1<<20)
	data := randomBytes(3000)
	resp, body := fa.do(t, tusReq("POST", "/api/files/tus/", userToken, data, "Upload-Length", "3000", "Upload-Metadata", tusMeta("all.bin")))
	if resp.StatusCode != 201 || resp.Header.Get(tusFileIDHeader) == "" {
		t.Fatalf("%d %v %s", resp.StatusCode, resp.Header, body)
	}
	if all, _ := fa.svc.List(); len(all) != 1 || all[0].Size != 3000 {
		t.Fatalf("files %+v", all)
	}
}

func TestTusTermination(t *testing.T) {
	forEachBackend(t, func(t *testing.T, newApp func(func(*config.Config)) *filesTestApp) {
		fa := newApp(nil)
		up := fa.tusCreate(t, userToken, 5000, "gone.bin")
		fa.do(t, tusReq("PATCH", up, userToken, randomBytes(1000), "Upload-Offset", "0"))
		if resp, body := fa.do(t, tusReq("DELETE", up, adminToken, nil)); resp.StatusCode != 404 {
			t.Fatalf("someone else's DELETE: %d %s", resp.StatusCode, body)
		}
		if resp, body := fa.do(t, tusReq("DELETE", up, userToken, nil)); resp.StatusCode != 204 {
			t.Fatalf("DELETE: %d %s", resp.StatusCode, body)
		}
		if resp, _ := fa.do(t, tusReq("HEAD", up, userToken, nil)); resp.StatusCode != 404 {
			t.Fatalf("HEAD after DELETE: %d", resp.StatusCode)
		}
		if n := fa.stagedEntries(t); n != 0 {
			t.Fatalf("%d staged entries left", n)
		}
		fa.assertNothingKept(t)
	})
}

// TestTusRefusals: every creation the endpoint must refuse, in the API's
// error shape, keeping nothing.
func TestTusRefusals(t *testing.T) {
	cases := []struct {
		name  string
		req   *http.Request
		want  int
		quota bool // the answer carries data.quota
	}{
		{"a guest", tusReq("POST", "/api/files/tus/", "", nil, "Upload-Length", "10"), 401, false},
		{"no length", tusReq("POST", "/api/files/tus/", userToken, nil), 400, false},
		{"a deferred length (not offered: the quota needs the length)", tusReq("POST", "/api/files/tus/", userToken, nil, "Upload-Defer-Length", "1"), 501, false},
		{"a negative length", tusReq("POST", "/api/files/tus/", userToken, nil, "Upload-Length", "-5"), 400, false},
		{"over the upload limit", tusReq("POST", "/api/files/tus/", userToken, nil, "Upload-Length", strconv.Itoa(1<<20+1)), 413, false},
		{"over the quota by its length", tusReq("POST", "/api/files/tus/", userToken, nil, "Upload-Length", "20001"), 413, true},
		{"without Tus-Resumable", func() *http.Request {
			r := tusReq("POST", "/api/files/tus/", userToken, nil, "Upload-Length", "10")
			r.Header.Del("Tus-Resumable")
			return r
		}(), 412, false},
		{"an id that is not one", tusReq("HEAD", "/api/files/tus/..%2f..%2fdevhub.db", userToken, nil), 404, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fa := newFilesTestAppWith(t, 1<<20, func(f *config.Files) { f.QuotaBytes = 20000 })
			resp, body := fa.do(t, tc.req)
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.want, body)
			}
			if tc.quota {
				var ans quotaAnswer
				if err := json.Unmarshal(body, &ans); err != nil || ans.Data.Quota.Code != "quota_exceeded" || *ans.Data.Quota.Limit.Bytes != 20000 {
					t.Fatalf("no data.quota: %s", body)
				}
			}
			if n := fa.stagedEntries(t); n != 0 {
				t.Fatalf("%d staged entries after a refusal", n)
			}
		})
	}
}

// TestTusQuotaWhileWriting: the quota fills up (another upload) after a
// resumable one was created; its next piece is refused and it is gone.
func TestTusQuotaWhileWriting(t *testing.T) {
	fa := newFilesTestAppWith(t, 1<<20, func(f *config.Files) { f.QuotaBytes = 10000 })
	up := fa.tusCreate(t, userToken, 6000, "big.bin")
	fa.do(t, tusReq("PATCH", up, userToken, randomBytes(1000), "Upload-Offset", "0"))
	fa.upload(t, filePart("other.bin", randomBytes(5000)))
	resp, body := fa.do(t, tusReq("PATCH", up, userToken, randomBytes(5000), "Upload-Offset", "1000"))
	if resp.StatusCode != 413 {
		t.Fatalf("PATCH over quota: %d %s", resp.StatusCode, body)
	}
	var ans quotaAnswer
	if err := json.Unmarshal(body, &ans); err != nil || ans.Data.Quota.Used.Bytes != 5000 {
		t.Fatalf("data.quota: %s", body)
	}
	if n := fa.stagedEntries(t); n != 0 {
		t.Fatalf("%d staged entries left", n)
	}
	if all, _ := fa.svc.List(); len(all) != 1 {
		t.Fatalf("%d files", len(all))
	}
}

// TestTusExpiry: an upload idle for longer than files.tus_expiry answers
// 410 and its bytes go; the sweep reclaims the ones nobody asks for.
func TestTusExpiry(t *testing.T) {
	fa := newFilesTestAppWith(t, 1<<20, func(f *config.Files) { f.TusExpiry = time.Hour })
	asked := fa.tusCreate(t, userToken, 5000, "a.bin")
	forgotten := fa.tusCreate(t, userToken, 5000, "b.bin")
	fresh := fa.tusCreate(t, userToken, 5000, "c.bin")
	old := time.Now().Add(-2 * time.Hour)
	for _, up := range []string{asked, forgotten} {
		p := filepath.Join(fa.tusDir, path.Base(up))
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if resp, body := fa.do(t, tusReq("HEAD", asked, userToken, nil)); resp.StatusCode != 410 {
		t.Fatalf("HEAD of an expired upload: %d %s", resp.StatusCode, body)
	}
	if resp, body := fa.do(t, tusReq("PATCH", asked, userToken, []byte("x"), "Upload-Offset", "0")); resp.StatusCode != 404 {
		t.Fatalf("PATCH after it expired: %d %s", resp.StatusCode, body)
	}
	if n := fa.stagedEntries(t); n != 4 { // forgotten and fresh: bytes and record each
		t.Fatalf("%d staged entries before the sweep", n)
	}
	sw, err := resumable.New(resumable.Options{Dir: fa.tusDir, Expiry: time.Hour, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if n := sw.Sweep(); n != 1 {
		t.Fatalf("sweep removed %d uploads, want 1", n)
	}
	if resp, _ := fa.do(t, tusReq("HEAD", fresh, userToken, nil)); resp.StatusCode != 200 {
		t.Fatalf("the fresh upload: %d", resp.StatusCode)
	}
	if n := fa.stagedEntries(t); n != 2 {
		t.Fatalf("%d staged entries after the sweep", n)
	}
}

// TestTusQuotaCountsUnfinishedUploads: staged bytes fill the disk like
// stored ones, so the uploads a user has not finished hold their announced
// lengths against the quota — at creation and at every PATCH — until they
// finish, are cancelled or expire. Without this one account could stage any
// number of uploads each just under its quota.
func TestTusQuotaCountsUnfinishedUploads(t *testing.T) {
	t.Run("creation", func(t *testing.T) {
		fa := newFilesTestAppWith(t, 1<<20, func(f *config.Files) { f.QuotaBytes = 10000; f.TusExpiry = time.Hour })
		first := fa.tusCreate(t, userToken, 6000, "a.bin")
		resp, body := fa.do(t, tusReq("POST", "/api/files/tus/", userToken, nil, "Upload-Length", "5000", "Upload-Metadata", tusMeta("b.bin")))
		if resp.StatusCode != 413 {
			t.Fatalf("a second upload over the quota with the first: %d %s", resp.StatusCode, body)
		}
		var ans quotaAnswer
		if err := json.Unmarshal(body, &ans); err != nil || ans.Data.Quota.Code != "quota_exceeded" ||
			ans.Data.Quota.Used != (quota.Amount{}) || ans.Data.Quota.Held == nil ||
			*ans.Data.Quota.Held != (quota.Amount{Bytes: 6000, Files: 1}) || *ans.Data.Quota.Limit.Bytes != 10000 {
			t.Fatalf("data.quota: %s", body)
		}
		if !strings.Contains(string(body), "unfinished uploads") {
			t.Fatalf("the message does not say why: %s", body)
		}
		if n := fa.stagedEntries(t); n != 2 {
			t.Fatalf("%d staged entries, want the first upload's 2", n)
		}
		// One that fits beside it is taken.
		fa.tusCreate(t, userToken, 4000, "c.bin")
		// An admin (unlimited) is not held by the user's uploads.
		fa.tusCreate(t, adminToken, 9000, "d.bin")
		// Cancelling the first gives its room back.
		if resp, body := fa.do(t, tusReq("DELETE", first, userToken, nil)); resp.StatusCode != 204 {
			t.Fatalf("DELETE: %d %s", resp.StatusCode, body)
		}
		fa.tusCreate(t, userToken, 5000, "b.bin")
	})
	t.Run("an expired upload holds nothing", func(t *testing.T) {
		fa := newFilesTestAppWith(t, 1<<20, func(f *config.Files) { f.QuotaBytes = 10000; f.TusExpiry = time.Hour })
		old := fa.tusCreate(t, userToken, 9000, "old.bin")
		then := time.Now().Add(-2 * time.Hour)
		if err := os.Chtimes(filepath.Join(fa.tusDir, path.Base(old)), then, then); err != nil {
			t.Fatal(err)
		}
		fa.tusCreate(t, userToken, 9000, "new.bin")
	})
	t.Run("PATCH", func(t *testing.T) {
		fa := newFilesTestAppWith(t, 1<<20, func(f *config.Files) { f.QuotaBytes = 10000; f.TusExpiry = time.Hour })
		a := fa.tusCreate(t, userToken, 4000, "a.bin")
		b := fa.tusCreate(t, userToken, 4000, "b.bin")
		fa.upload(t, filePart("stored.bin", randomBytes(3000)))
		// a now needs 3000 stored + 4000 held by b + its own 4000: over.
		resp, body := fa.do(t, tusReq("PATCH", a, userToken, randomBytes(4000), "Upload-Offset", "0"))
		if resp.StatusCode != 413 {
			t.Fatalf("PATCH over the quota with the other upload: %d %s", resp.StatusCode, body)
		}
		var ans quotaAnswer
		if err := json.Unmarshal(body, &ans); err != nil || ans.Data.Quota.Used != (quota.Amount{Bytes: 3000, Files: 1}) ||
			ans.Data.Quota.Held == nil || *ans.Data.Quota.Held != (quota.Amount{Bytes: 4000, Files: 1}) {
			t.Fatalf("data.quota: %s", body)
		}
		// a is gone, so b fits and finishes.
		resp, body = fa.do(t, tusReq("PATCH", b, userToken, randomBytes(4000), "Upload-Offset", "0"))
		if resp.StatusCode != 204 || resp.Header.Get(tusFileIDHeader) == "" {
			t.Fatalf("PATCH of the other: %d %s", resp.StatusCode, body)
		}
		if n := fa.stagedEntries(t); n != 0 {
			t.Fatalf("%d staged entries left", n)
		}
	})
}

// chunkedDo sends a tus request over a real connection (app.Test cannot
// send a body without a Content-Length) with its body chunked, as a client
// that streams does.
func chunkedDo(t *testing.T, base, method, target, token string, body []byte, hdr ...string) *http.Response {
	t.Helper()
	// An io.Reader of unknown length makes net/http send it chunked.
	req, err := http.NewRequest(method, base+target, io.MultiReader(bytes.NewReader(body)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = tusReq(method, target, token, body, hdr...).Header
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if req.ContentLength != 0 && req.ContentLength != -1 {
		t.Fatalf("request was not chunked (length %d)", req.ContentLength)
	}
	return resp
}

// TestTusBodyLongerThanAnnounced: a chunked body that goes on past the
// upload's length is refused with 413 and becomes no file (tusd would have
// finished the upload with the bytes it took); the upload waits one byte
// short, and the right last piece finishes it.
func TestTusBodyLongerThanAnnounced(t *testing.T) {
	fa := newFilesTestApp(t, 1<<20)
	base := fa.listen(t)
	data := randomBytes(3000)
	up := fa.tusCreate(t, userToken, len(data), "a.bin")
	resp := chunkedDo(t, base, "PATCH", up, userToken, append(append([]byte{}, data...), "and more"...), "Upload-Offset", "0")
	if resp.StatusCode != 413 {
		t.Fatalf("longer body: %d", resp.StatusCode)
	}
	if all, _ := fa.svc.List(); len(all) != 0 {
		t.Fatalf("a refused body became %d file(s)", len(all))
	}
	resp, _ = fa.do(t, tusReq("HEAD", up, userToken, nil))
	if resp.StatusCode != 200 || resp.Header.Get("Upload-Offset") != "2999" {
		t.Fatalf("after the refusal: %d, offset %q", resp.StatusCode, resp.Header.Get("Upload-Offset"))
	}
	resp = chunkedDo(t, base, "PATCH", up, userToken, data[2999:], "Upload-Offset", "2999")
	if resp.StatusCode != 204 || resp.Header.Get(tusFileIDHeader) == "" {
		t.Fatalf("the last byte: %d", resp.StatusCode)
	}

	// A chunked body of exactly the length finishes at once; one that stops
	// short waits for the rest.
	whole := fa.tusCreate(t, userToken, len(data), "b.bin")
	if resp := chunkedDo(t, base, "PATCH", whole, userToken, data, "Upload-Offset", "0"); resp.StatusCode != 204 || resp.Header.Get(tusFileIDHeader) == "" {
		t.Fatalf("exact chunked body: %d", resp.StatusCode)
	}
	short := fa.tusCreate(t, userToken, len(data), "c.bin")
	if resp := chunkedDo(t, base, "PATCH", short, userToken, data[:1000], "Upload-Offset", "0"); resp.StatusCode != 204 || resp.Header.Get("Upload-Offset") != "1000" {
		t.Fatalf("short chunked body: %d, offset %q", resp.StatusCode, resp.Header.Get("Upload-Offset"))
	}

	// The same for a creation that brings its first piece.
	resp = chunkedDo(t, base, "POST", "/api/files/tus/", userToken, append(append([]byte{}, data...), 'x'),
		"Upload-Length", strconv.Itoa(len(data)), "Upload-Metadata", tusMeta("d.bin"))
	if resp.StatusCode != 413 {
		t.Fatalf("creation with a longer body: %d", resp.StatusCode)
	}
	if all, _ := fa.svc.List(); len(all) != 2 {
		t.Fatalf("%d files, want the 2 finished", len(all))
	}
}

func TestExactBody(t *testing.T) {
	for _, tc := range []struct {
		name    string
		body    string
		left    int64
		want    string
		wantErr error
	}{
		{"exact", "abcdef", 6, "abcdef", nil},
		{"short", "abc", 6, "abc", nil},
		{"longer", "abcdefg", 6, "abcde", tusd.ErrSizeExceeded},
		{"much longer", strings.Repeat("x", 100), 6, "xxxxx", tusd.ErrSizeExceeded},
		{"nothing left, nothing sent", "", 0, "", nil},
	} {
		for _, wrap := range []struct {
			name string
			fn   func(io.Reader) io.Reader
		}{{"whole", func(r io.Reader) io.Reader { return r }}, {"one byte at a time", iotest.OneByteReader}, {"data then EOF", iotest.DataErrReader}} {
			t.Run(tc.name+"/"+wrap.name, func(t *testing.T) {
				got, err := io.ReadAll(&exactBody{r: wrap.fn(strings.NewReader(tc.body)), left: tc.left})
				if string(got) != tc.want || !errors.Is(err, tc.wantErr) && !(tc.wantErr == nil && err == nil) {
					t.Fatalf("read %q, %v; want %q, %v", got, err, tc.want, tc.wantErr)
				}
			})
		}
	}
}
