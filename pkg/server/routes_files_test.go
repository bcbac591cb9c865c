package server

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
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
	"github.com/devhub/devhub/pkg/quota"
	"github.com/devhub/devhub/pkg/storage"
	"github.com/devhub/devhub/pkg/storage/miniotest"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// Test tokens the fake Authenticate accepts.
const (
	userToken  = "user-token"
	adminToken = "admin-token"
)

func fakeAuthenticate(tok string) (*auth.Principal, error) {
	switch tok {
	case userToken:
		return &auth.Principal{User: auth.User{ID: 2, Email: "user@example.com", Name: "User", Role: "user"}}, nil
	case adminToken:
		return &auth.Principal{User: auth.User{ID: 1, Email: "admin@example.com", Name: "Admin", Role: "admin"}}, nil
	case otherToken:
		return &auth.Principal{User: auth.User{ID: 3, Email: "other@example.com", Name: "Other", Role: "user"}}, nil
	}
	return nil, errors.New("bad token")
}

type filesTestApp struct {
	*testApp
	svc        *files.Service
	quota      *quota.Service
	uploadsDir string
	tusDir     string
	// s3 is the bucket when the app stores in S3 (Storage.Backend "s3").
	s3      *storage.S3Config
	backend storage.Store
}

// backendsUnderTest are the storage backends the HTTP file tests run
// against: the same requests and answers, bytes on disk or in a real MinIO.
var backendsUnderTest = []string{storage.Local, storage.S3}

// forEachBackend runs a test once per storage backend; new builds the app
// for that backend with any other config change.
func forEachBackend(t *testing.T, test func(t *testing.T, new func(mutate func(*config.Config)) *filesTestApp)) {
	for _, be := range backendsUnderTest {
		t.Run(be, func(t *testing.T) {
			test(t, func(mutate func(*config.Config)) *filesTestApp {
				return newFilesTestAppWithConfig(t, func(c *config.Config) {
					c.Storage.Backend = be
					if mutate != nil {
						mutate(c)
					}
				})
			})
		})
	}
}

// newFilesTestApp builds the app over a temp store and uploads directory,
// with the fake identities above and the given upload limit.
func newFilesTestApp(t *testing.T, maxUpload int64) *filesTestApp {
	t.Helper()
	return newFilesTestAppWith(t, maxUpload, nil)
}

// newFilesTestAppWith is newFilesTestApp with the files config adjusted.
func newFilesTestAppWith(t *testing.T, maxUpload int64, mutate func(*config.Files)) *filesTestApp {
	t.Helper()
	return newFilesTestAppWithConfig(t, func(c *config.Config) {
		c.Files.MaxUploadBytes = maxUpload
		if mutate != nil {
			mutate(&c.Files)
		}
	})
}

// newFilesTestAppInDir is newFilesTestApp over a given uploads directory.
func newFilesTestAppInDir(t *testing.T, dir string, maxUpload int64) *filesTestApp {
	t.Helper()
	return newFilesTestAppWithConfig(t, func(c *config.Config) {
		c.Storage.UploadsDir = dir
		c.Files.MaxUploadBytes = maxUpload
	})
}

// newFilesTestAppWithConfig is newFilesTestApp with any config change.
func newFilesTestAppWithConfig(t *testing.T, mutate func(*config.Config)) *filesTestApp {
	t.Helper()
	return newFilesTestAppWithOptions(t, mutate, nil)
}

// newFilesTestAppWithOptions is newFilesTestAppWithConfig with the server's
// Options adjusted too (after the files service is in place).
func newFilesTestAppWithOptions(t *testing.T, mutate func(*config.Config), opts func(*Options)) *filesTestApp {
	t.Helper()
	cfg := config.Default()
	cfg.Files.MaxUploadBytes = 1 << 20
	mutate(&cfg)
	maxUpload := cfg.Files.MaxUploadBytes
	st := storetest.Open(t)
	dir := cfg.Storage.UploadsDir
	if dir == "" || dir == config.Default().Storage.UploadsDir {
		dir = filepath.Join(t.TempDir(), "uploads")
	}
	svc, err := files.New(st, dir, maxUpload, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	var s3cfg *storage.S3Config
	backend := storage.Store(nil)
	if cfg.Storage.Backend == storage.S3 {
		c := miniotest.Config(t)
		s3, err := storage.NewS3(context.Background(), c, files.IsStoredName)
		if err != nil {
			t.Fatal(err)
		}
		svc.AddBackend(s3)
		if err := svc.UseBackend(storage.S3); err != nil {
			t.Fatal(err)
		}
		s3cfg, backend = &c, s3
	}
	// The fake admin (id 1) is an admin for the quota too.
	q, err := quota.New(st, quota.Amount{Bytes: cfg.Files.QuotaBytes, Files: cfg.Files.QuotaFiles}, func(id uint64) bool { return id == 1 })
	if err != nil {
		t.Fatal(err)
	}
	svc.UseQuota(q)
	tusDir := filepath.Join(t.TempDir(), "tus")
	ta := newTestApp(t, func(o *Options) {
		o.Config.Files = cfg.Files
		o.Config.Metrics = cfg.Metrics
		o.Config.Storage.S3.ServeDirect = cfg.Storage.S3.ServeDirect
		o.Services = &Services{Store: st, Authenticate: fakeAuthenticate, Files: svc, Quota: q, TusDir: tusDir}
		if opts != nil {
			opts(o)
		}
	})
	return &filesTestApp{testApp: ta, svc: svc, quota: q, uploadsDir: dir, tusDir: tusDir, s3: s3cfg, backend: backend}
}

// part is one multipart part; disposition is written as is after
// "form-data; " so tests control the exact bytes of hostile names.
type part struct {
	disposition string
	data        []byte
}

func filePart(name string, data []byte) part {
	return part{disposition: `name="files"; filename="` + name + `"`, data: data}
}

const testBoundary = "devhub-test-boundary-7MA4YWxkTrZu0gW"

func multipartBody(parts ...part) []byte {
	var b bytes.Buffer
	for _, p := range parts {
		b.WriteString("--" + testBoundary + "\r\nContent-Disposition: form-data; " + p.disposition +
			"\r\nContent-Type: application/octet-stream\r\n\r\n")
		b.Write(p.data)
		b.WriteString("\r\n")
	}
	b.WriteString("--" + testBoundary + "--\r\n")
	return b.Bytes()
}

func uploadRequest(path, token string, body []byte) *http.Request {
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "multipart/form-data; boundary="+testBoundary)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req
}

func (fa *filesTestApp) upload(t *testing.T, parts ...part) []files.Info {
	t.Helper()
	resp, body := fa.do(t, uploadRequest("/api/files/upload", userToken, multipartBody(parts...)))
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("upload: %d %s", resp.StatusCode, body)
	}
	var out struct{ Files []files.Info }
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	return out.Files
}

func get(path string, hdr ...string) *http.Request {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return req
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

var (
	testPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")
	testMP4 = []byte("\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom\x00\x00\x00\x08free")
	testMP3 = []byte("ID3\x03\x00\x00\x00\x00\x00\x00\xff\xfb\x90\x64")
	testPDF = []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n")
)

// uploadsEmpty fails unless the uploads directory holds nothing at all (no
// file, no temp file) and the store lists no file.
func (fa *filesTestApp) assertNothingKept(t *testing.T) {
	t.Helper()
	es, err := os.ReadDir(fa.uploadsDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 0 {
		var names []string
		for _, e := range es {
			names = append(names, e.Name())
		}
		t.Fatalf("uploads dir holds %v", names)
	}
	if all, _ := fa.svc.List(); len(all) != 0 {
		t.Fatalf("store lists %d files", len(all))
	}
	if fa.s3 != nil {
		var objects []string
		fa.backend.List(context.Background(), func(k string) error { objects = append(objects, k); return nil })
		if len(objects) != 0 {
			t.Fatalf("the bucket holds %v", objects)
		}
		if n := miniotest.Incomplete(t, *fa.s3); n != 0 {
			t.Fatalf("the bucket holds %d unfinished multipart uploads", n)
		}
	}
}

func TestFilesListGroupedAndAlias(t *testing.T) {
	fa := newFilesTestApp(t, 1<<20)
	fa.upload(t, filePart("a.png", testPNG), filePart("b.mp4", testMP4), filePart("c.mp3", testMP3),
		filePart("d.pdf", testPDF), filePart("e.bin", []byte{0, 1, 2}), filePart("notes.txt", []byte("hi")))
	for _, path := range []string{"/api/files", "/api/api/files", "/api/files/"} {
		resp, body := fa.do(t, get(path))
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, body)
		}
		var answer struct {
			Images, Videos, Audio, Documents, Other []map[string]any
			Totals                                  map[string]int
		}
		if err := json.Unmarshal(body, &answer); err != nil {
			t.Fatal(err)
		}
		g := map[string][]map[string]any{"images": answer.Images, "videos": answer.Videos, "audio": answer.Audio,
			"documents": answer.Documents, "other": answer.Other}
		want := map[string]string{"images": "a.png", "videos": "b.mp4", "audio": "c.mp3", "documents": "notes.txt,d.pdf", "other": "e.bin"}
		if answer.Totals["documents"] != 2 || answer.Totals["images"] != 1 || len(answer.Totals) != 5 {
			t.Fatalf("%s: totals %v", path, answer.Totals)
		}
		// The spec's path keeps the spec's names; the canonical path shows
		// a file as everywhere else (files.Info).
		name, keys := "originalName", []string{"id", "originalName", "size", "mimetype", "type", "uploadedAt", "visibility"}
		if path == "/api/api/files" {
			name, keys = "original_name", []string{"id", "original_name", "size", "mime_type", "type", "uploaded_at"}
		}
		for group, names := range want {
			var got []string
			for _, it := range g[group] {
				got = append(got, it[name].(string))
				if len(it) != len(keys) {
					t.Fatalf("%s: item has other fields than %v: %v", path, keys, it)
				}
				for _, k := range keys {
					if _, ok := it[k]; !ok {
						t.Fatalf("%s: item lacks %s: %v", path, k, it)
					}
				}
			}
			if strings.Join(got, ",") != names {
				t.Fatalf("%s: %s = %v, want %s", path, group, got, names)
			}
		}
	}
	// An empty cloud still has every group, as empty lists.
	empty := newFilesTestApp(t, 1<<20)
	_, body := empty.do(t, get("/api/files"))
	if string(body) != `{"audio":[],"documents":[],"images":[],"other":[],"totals":{"audio":0,"documents":0,"images":0,"other":0,"videos":0},"videos":[]}` {
		t.Fatalf("empty list: %s", body)
	}
}

// The list pages per group (?type=&page=&limit=), newest first, with each
// group's total; bad parameters are a 400 naming the parameter.
func TestFilesListPaging(t *testing.T) {
	fa := newFilesTestApp(t, 1<<20)
	var ids []uint64
	for i := 0; i < 7; i++ {
		ids = append(ids, fa.upload(t, filePart("n"+strconv.Itoa(i)+".txt", []byte("note")))[0].ID)
	}
	fa.upload(t, filePart("pic.png", testPNG))
	type answer struct {
		Documents, Images []files.Info
		Totals            map[string]int
	}
	get := func(q string) (int, answer, []byte) {
		resp, body := fa.do(t, get("/api/files"+q))
		var a answer
		json.Unmarshal(body, &a)
		return resp.StatusCode, a, body
	}
	idsOf := func(items []files.Info) []uint64 {
		out := []uint64{}
		for _, it := range items {
			out = append(out, it.ID)
		}
		return out
	}
	code, a, body := get("?type=documents&page=2&limit=3")
	if code != 200 || fmt.Sprint(idsOf(a.Documents)) != fmt.Sprint([]uint64{ids[3], ids[2], ids[1]}) || len(a.Images) != 0 ||
		a.Totals["documents"] != 7 || a.Totals["images"] != 1 {
		t.Fatalf("page 2 of 3: %d %s", code, body)
	}
	if _, a, _ := get("?type=documents&page=3&limit=3"); fmt.Sprint(idsOf(a.Documents)) != fmt.Sprint([]uint64{ids[0]}) {
		t.Fatalf("last page: %v", idsOf(a.Documents))
	}
	if _, a, _ := get("?type=documents&page=9&limit=3"); len(a.Documents) != 0 || a.Totals["documents"] != 7 {
		t.Fatalf("past the end: %+v", a)
	}
	if _, a, _ := get("?limit=2"); len(a.Documents) != 2 || len(a.Images) != 1 {
		t.Fatalf("first page of each group: %+v", a)
	}
	// A limit above the largest page is capped, not refused.
	if code, a, body := get("?type=documents&limit=100000"); code != 200 || len(a.Documents) != 7 {
		t.Fatalf("limit over the max: %d %s", code, body)
	}
	for _, q := range []string{"?type=pictures", "?page=0", "?page=-1", "?limit=x", "?limit=0", "?page=1.5"} {
		if code, _, body := get(q); code != 400 {
			t.Errorf("%s: %d %s, want 400", q, code, body)
		}
	}
	// The plain list is cached until the list changes: a new upload shows.
	if _, a, _ := get(""); a.Totals["images"] != 1 {
		t.Fatalf("plain list: %+v", a.Totals)
	}
	fa.upload(t, filePart("pic2.png", testPNG))
	if _, a, _ := get(""); a.Totals["images"] != 2 || len(a.Images) != 2 {
		t.Fatalf("plain list after an upload: %+v", a.Totals)
	}
	// A deleted file leaves the list and the totals at once.
	fa.do(t, withToken(httptest.NewRequest("DELETE", fmt.Sprintf("/api/files/%d", ids[6]), nil), adminToken))
	if _, a, _ := get("?type=documents&limit=1"); a.Totals["documents"] != 6 || a.Documents[0].ID != ids[5] {
		t.Fatalf("after a delete: %+v", a)
	}
	if _, a, _ := get(""); a.Totals["documents"] != 6 || len(a.Documents) != 6 {
		t.Fatalf("plain list after a delete: %+v", a.Totals)
	}
}

func withToken(r *http.Request, tok string) *http.Request {
	r.Header.Set("Authorization", "Bearer "+tok)
	return r
}

func TestFileDetail(t *testing.T) {
	fa := newFilesTestApp(t, 1<<20)
	up := fa.upload(t, filePart("звіт.pdf", testPDF))[0]
	resp, body := fa.do(t, get("/api/files/"+strconv.FormatUint(up.ID, 10)))
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var d map[string]any
	json.Unmarshal(body, &d)
	if d["originalName"] != "звіт.pdf" || d["size"] != float64(len(testPDF)) || d["mimetype"] != "application/pdf" ||
		d["type"] != "document" || d["uploadedAt"] == "" || d["sha256"] != up.SHA256 || d["id"] != float64(up.ID) {
		t.Fatalf("detail %s", body)
	}
	resp, body = fa.do(t, get("/api/files/999"))
	if resp.StatusCode != 404 {
		t.Fatalf("missing id: %d %s", resp.StatusCode, body)
	}
}

func TestFileDownloadByteEqual(t *testing.T) {
	forEachBackend(t, func(t *testing.T, newApp func(func(*config.Config)) *filesTestApp) {
		fa := newApp(func(c *config.Config) { c.Files.MaxUploadBytes = 8 << 20 })
		data := randomBytes(3<<20 + 17)
		up := fa.upload(t, filePart("big.bin", data))[0]
		for _, path := range []string{"/api/files/%d/download", "/api/api/files/%d/download", "/api/files/stream/%d"} {
			resp, body := fa.do(t, get(fmt.Sprintf(path, up.ID)))
			if resp.StatusCode != 200 || !bytes.Equal(body, data) {
				t.Fatalf("%s: %d, %d bytes", path, resp.StatusCode, len(body))
			}
			if resp.Header.Get("Content-Length") != strconv.Itoa(len(data)) || resp.Header.Get("Accept-Ranges") != "bytes" {
				t.Fatalf("%s: headers %v", path, resp.Header)
			}
			if resp.Header.Get("Content-Disposition") != `attachment; filename="big.bin"; filename*=UTF-8''big.bin` {
				t.Fatalf("%s: disposition %q", path, resp.Header.Get("Content-Disposition"))
			}
			assertUserFileHeaders(t, resp)
		}
		// Over a real connection too: its socket is where the bytes are
		// handed over by sendfile (local) or splice (S3), after the header.
		base := fa.listen(t)
		for _, c := range []struct {
			rng      string
			status   int
			from, to int
		}{{"", 200, 0, len(data)}, {"bytes=1000-", 206, 1000, len(data)}, {"bytes=5-104", 206, 5, 105}} {
			req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/api/files/%d/download", base, up.ID), nil)
			if c.rng != "" {
				req.Header.Set("Range", c.rng)
			}
			resp, body := overTCP(t, req)
			if resp.StatusCode != c.status || !bytes.Equal(body, data[c.from:c.to]) {
				t.Fatalf("over TCP, Range %q: %d, %d bytes", c.rng, resp.StatusCode, len(body))
			}
		}
		// HEAD announces the length and sends no body.
		req := httptest.NewRequest(http.MethodHead, fmt.Sprintf("/api/files/%d/download", up.ID), nil)
		resp, body := fa.do(t, req)
		if resp.StatusCode != 200 || len(body) != 0 || resp.Header.Get("Content-Length") != strconv.Itoa(len(data)) {
			t.Fatalf("HEAD: %d %d %v", resp.StatusCode, len(body), resp.Header)
		}
		// Neither HEAD nor abandoned downloads leak open files.
		before := countEntries(t, "/proc/self/fd")
		for i := 0; i < 50; i++ {
			fa.do(t, httptest.NewRequest(http.MethodHead, fmt.Sprintf("/api/files/%d/download", up.ID), nil))
			fa.do(t, get(fmt.Sprintf("/api/files/stream/%d", up.ID), "Range", "bytes=0-9"))
		}
		if after := countEntries(t, "/proc/self/fd"); after > before+5 {
			t.Fatalf("open files grew from %d to %d", before, after)
		}
		// A second request with the ETag is a 304.
		resp, _ = fa.do(t, get(fmt.Sprintf("/api/files/%d/download", up.ID), "If-None-Match", `"`+up.SHA256+`"`))
		if resp.StatusCode != http.StatusNotModified {
			t.Fatalf("If-None-Match: %d", resp.StatusCode)
		}
	})
}

func assertUserFileHeaders(t *testing.T, resp *http.Response) {
	t.Helper()
	if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("nosniff missing: %v", resp.Header)
	}
	if got := resp.Header.Get("Content-Security-Policy"); got != userFileCSP {
		t.Fatalf("CSP %q", got)
	}
}

func TestFileRange(t *testing.T) {
	forEachBackend(t, func(t *testing.T, newApp func(func(*config.Config)) *filesTestApp) {
		fa := newApp(nil)
		data := randomBytes(1000)
		up := fa.upload(t, filePart("clip.mp4", append(append([]byte{}, testMP4...), data...)))[0]
		full := append(append([]byte{}, testMP4...), data...)
		size := len(full)
		etag := `"` + up.SHA256 + `"`
		cases := []struct {
			name, rng, ifRange string
			status             int
			from, to           int // expected body = full[from:to]
			contentRange       string
		}{
			{"first 100 bytes", "bytes=0-99", "", 206, 0, 100, fmt.Sprintf("bytes 0-99/%d", size)},
			{"open-ended from 0 (video players)", "bytes=0-", "", 206, 0, size, fmt.Sprintf("bytes 0-%d/%d", size-1, size)},
			{"open-ended from the middle", "bytes=500-", "", 206, 500, size, fmt.Sprintf("bytes 500-%d/%d", size-1, size)},
			{"last byte", fmt.Sprintf("bytes=%d-%d", size-1, size-1), "", 206, size - 1, size, fmt.Sprintf("bytes %d-%d/%d", size-1, size-1, size)},
			{"end past the size clamps", "bytes=10-999999", "", 206, 10, size, fmt.Sprintf("bytes 10-%d/%d", size-1, size)},
			{"suffix", "bytes=-10", "", 206, size - 10, size, fmt.Sprintf("bytes %d-%d/%d", size-10, size-1, size)},
			{"suffix longer than the file", "bytes=-999999", "", 206, 0, size, fmt.Sprintf("bytes 0-%d/%d", size-1, size)},
			{"start at the size", fmt.Sprintf("bytes=%d-", size), "", 416, 0, 0, fmt.Sprintf("bytes */%d", size)},
			{"start past the size", "bytes=999999-1000000", "", 416, 0, 0, fmt.Sprintf("bytes */%d", size)},
			{"end before start", "bytes=50-10", "", 416, 0, 0, fmt.Sprintf("bytes */%d", size)},
			{"zero suffix", "bytes=-0", "", 416, 0, 0, fmt.Sprintf("bytes */%d", size)},
			{"garbage numbers", "bytes=a-b", "", 416, 0, 0, fmt.Sprintf("bytes */%d", size)},
			{"several ranges are served whole", "bytes=0-9,20-29", "", 200, 0, size, ""},
			{"unknown unit is ignored", "items=0-9", "", 200, 0, size, ""},
			{"If-Range matching", "bytes=0-9", etag, 206, 0, 10, fmt.Sprintf("bytes 0-9/%d", size)},
			{"If-Range stale", "bytes=0-9", `"other"`, 200, 0, size, ""},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				hdr := []string{"Range", c.rng}
				if c.ifRange != "" {
					hdr = append(hdr, "If-Range", c.ifRange)
				}
				for _, path := range []string{"/api/files/%d/download", "/api/files/stream/%d"} {
					resp, body := fa.do(t, get(fmt.Sprintf(path, up.ID), hdr...))
					if resp.StatusCode != c.status {
						t.Fatalf("%s: status %d, want %d (%s)", path, resp.StatusCode, c.status, body)
					}
					if got := resp.Header.Get("Content-Range"); got != c.contentRange {
						t.Fatalf("%s: Content-Range %q, want %q", path, got, c.contentRange)
					}
					assertUserFileHeaders(t, resp)
					if c.status == 416 {
						continue
					}
					if !bytes.Equal(body, full[c.from:c.to]) {
						t.Fatalf("%s: body is %d bytes, want bytes %d..%d", path, len(body), c.from, c.to)
					}
					if resp.Header.Get("Content-Length") != strconv.Itoa(c.to-c.from) {
						t.Fatalf("%s: Content-Length %q", path, resp.Header.Get("Content-Length"))
					}
				}
			})
		}
		// An empty file has no satisfiable range.
		empty := fa.upload(t, filePart("empty.txt", nil))[0]
		resp, _ := fa.do(t, get(fmt.Sprintf("/api/files/%d/download", empty.ID), "Range", "bytes=0-"))
		if resp.StatusCode != 416 || resp.Header.Get("Content-Range") != "bytes */0" {
			t.Fatalf("empty file range: %d %q", resp.StatusCode, resp.Header.Get("Content-Range"))
		}
		resp, body := fa.do(t, get(fmt.Sprintf("/api/files/%d/download", empty.ID)))
		if resp.StatusCode != 200 || len(body) != 0 || resp.Header.Get("Content-Length") != "0" {
			t.Fatalf("empty file: %d %d %q", resp.StatusCode, len(body), resp.Header.Get("Content-Length"))
		}
	})
}

// Who deletes a file: its uploader and admins; another user is refused, a
// guest must sign in, and a deleted file is gone from every path.
func TestFileDeleteRoles(t *testing.T) {
	forEachBackend(t, func(t *testing.T, newApp func(func(*config.Config)) *filesTestApp) {
		fa := newApp(nil)
		del := func(p, token string) int {
			req := httptest.NewRequest(http.MethodDelete, p, nil)
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			resp, _ := fa.do(t, req)
			return resp.StatusCode
		}
		for _, deleter := range []struct{ who, token string }{{"the uploader", userToken}, {"an admin", adminToken}} {
			t.Run(deleter.who, func(t *testing.T) {
				up := fa.upload(t, filePart("a.png", testPNG))[0]
				path := fmt.Sprintf("/api/files/%d", up.ID)
				for _, c := range []struct {
					who, token string
					want       int
				}{{"anonymous", "", 401}, {"bad token", "nope", 401}, {"another user", otherToken, 403}} {
					if got := del(path, c.token); got != c.want {
						t.Fatalf("%s: %d, want %d", c.who, got, c.want)
					}
				}
				if resp, _ := fa.do(t, get(path)); resp.StatusCode != 200 {
					t.Fatal("file gone after refused deletes")
				}
				if got := del(path, deleter.token); got != 204 {
					t.Fatalf("%s: %d", deleter.who, got)
				}
				if resp, _ := fa.do(t, get(path)); resp.StatusCode != 404 {
					t.Fatalf("record still there: %d", resp.StatusCode)
				}
				if resp, _ := fa.do(t, get(path+"/download")); resp.StatusCode != 404 {
					t.Fatalf("download after delete: %d", resp.StatusCode)
				}
				fa.assertNothingKept(t)
				if got := del(path, deleter.token); got != 404 {
					t.Fatalf("second delete: %d", got)
				}
				if got := del(fmt.Sprintf("/api/api/files/%d", up.ID), adminToken); got != 404 {
					t.Fatalf("alias delete of a gone file: %d", got)
				}
			})
		}
	})
}

// A file's uploader and admins rename it; the new name is what lists,
// details and downloads carry. A name is refused, never altered.
func TestFileRename(t *testing.T) {
	fa := newFilesTestApp(t, 1<<20)
	up := fa.upload(t, filePart("a.png", testPNG))[0]
	path := fmt.Sprintf("/api/files/%d", up.ID)
	patch := func(token, body string) (*http.Response, []byte) {
		req := httptest.NewRequest(http.MethodPatch, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		return fa.do(t, req)
	}
	cases := []struct {
		name, token, body string
		want              int
		wantName          string
	}{
		{"a guest", "", `{"name":"b.png"}`, 401, "a.png"},
		{"another user", otherToken, `{"name":"b.png"}`, 403, "a.png"},
		{"the uploader", userToken, `{"name":"holiday photo.png"}`, 200, "holiday photo.png"},
		{"an admin", adminToken, `{"name":"Фото.png"}`, 200, "Фото.png"},
		{"with the visibility too", userToken, `{"name":"p.png","visibility":"private"}`, 200, "p.png"},
		{"empty", userToken, `{"name":"  "}`, 400, "p.png"},
		{"a path", userToken, `{"name":"../../etc/passwd"}`, 400, "p.png"},
		{"a control character", userToken, `{"name":"a\u0000b.png"}`, 400, "p.png"},
		{"a bidi override", userToken, `{"name":"gpj.\u202eexe"}`, 400, "p.png"},
		{"too long", userToken, `{"name":"` + strings.Repeat("a", 256) + `"}`, 400, "p.png"},
		{"nothing to change", userToken, `{}`, 400, "p.png"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, body := patch(c.token, c.body)
			if resp.StatusCode != c.want {
				t.Fatalf("status %d (%s), want %d", resp.StatusCode, body, c.want)
			}
			resp, _ = fa.do(t, withToken(get(path+"/download"), adminToken))
			if _, params, _ := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); params["filename"] != c.wantName {
				t.Fatalf("downloads as %q, want %q", params["filename"], c.wantName)
			}
		})
	}
}

func TestUploadRefusals(t *testing.T) {
	fa := newFilesTestApp(t, 1<<20)
	body := multipartBody(filePart("a.png", testPNG))
	cases := []struct {
		name   string
		req    func() *http.Request
		status int
	}{
		{"anonymous", func() *http.Request { return uploadRequest("/api/files/upload", "", body) }, 401},
		{"no files", func() *http.Request {
			return uploadRequest("/api/files/upload", userToken, multipartBody(part{`name="note"`, []byte("x")}))
		}, 400},
		{"empty form", func() *http.Request { return uploadRequest("/api/files/upload", userToken, multipartBody()) }, 400},
		{"not multipart", func() *http.Request {
			r := uploadRequest("/api/files/upload", userToken, []byte(`{"files":[]}`))
			r.Header.Set("Content-Type", "application/json")
			return r
		}, 400},
		{"no boundary", func() *http.Request {
			r := uploadRequest("/api/files/upload", userToken, body)
			r.Header.Set("Content-Type", "multipart/form-data")
			return r
		}, 400},
		{"malformed body", func() *http.Request {
			return uploadRequest("/api/files/upload", userToken, []byte("--"+testBoundary+"\r\nno headers end"))
		}, 400},
		{"truncated body", func() *http.Request {
			return uploadRequest("/api/files/upload", userToken, body[:len(body)-len(testBoundary)-10])
		}, 400},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, b := fa.do(t, c.req())
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d (%s)", resp.StatusCode, c.status, b)
			}
			var e APIError
			if json.Unmarshal(b, &e) != nil || e.Status != c.status {
				t.Fatalf("not the error shape: %s", b)
			}
			fa.assertNothingKept(t)
		})
	}
}

func TestUploadOverLimit(t *testing.T) {
	forEachBackend(t, func(t *testing.T, newApp func(func(*config.Config)) *filesTestApp) {
		const limit = 64 << 10
		fa := newApp(func(c *config.Config) { c.Files.MaxUploadBytes = limit })
		over := multipartBody(filePart("a.png", testPNG), filePart("big.bin", randomBytes(limit)))
		t.Run("announced length", func(t *testing.T) {
			resp, b := fa.do(t, uploadRequest("/api/files/upload", userToken, over))
			if resp.StatusCode != 413 {
				t.Fatalf("status %d (%s)", resp.StatusCode, b)
			}
			fa.assertNothingKept(t)
		})
		t.Run("chunked, counted while streaming", func(t *testing.T) {
			base := fa.listen(t)
			req, _ := http.NewRequest(http.MethodPost, base+"/api/files/upload", io.MultiReader(bytes.NewReader(over)))
			req.ContentLength = -1 // chunked: nothing announced
			req.Header.Set("Content-Type", "multipart/form-data; boundary="+testBoundary)
			req.Header.Set("Authorization", "Bearer "+userToken)
			resp, b := overTCP(t, req)
			if resp.StatusCode != 413 {
				t.Fatalf("status %d (%s)", resp.StatusCode, b)
			}
			fa.assertNothingKept(t)
		})
		t.Run("just under the limit is kept", func(t *testing.T) {
			ok := multipartBody(filePart("fits.bin", randomBytes(limit-1000)))
			resp, b := fa.do(t, uploadRequest("/api/files/upload", userToken, ok))
			if resp.StatusCode != 201 {
				t.Fatalf("status %d (%s)", resp.StatusCode, b)
			}
		})
	})
}

// TestUploadClientDisconnect cuts the connection in the middle of a
// streamed upload, once the bytes have reached the backend (a temp file in
// the uploads directory; an open multipart upload with a part in S3), and
// checks that neither bytes nor a record remain and the server goes on.
func TestUploadClientDisconnect(t *testing.T) {
	cases := []struct {
		backend  string
		mib      int
		inFlight func(fa *filesTestApp) int // what a write in progress leaves in the backend
	}{
		{storage.Local, 8, func(fa *filesTestApp) int { return countEntries(t, fa.uploadsDir) }},
		{storage.S3, storage.PartSize>>20 + 2, func(fa *filesTestApp) int { return miniotest.Incomplete(t, *fa.s3) }},
	}
	for _, tc := range cases {
		t.Run(tc.backend, func(t *testing.T) {
			fa := newFilesTestAppWithConfig(t, func(c *config.Config) { c.Storage.Backend, c.Files.MaxUploadBytes = tc.backend, 1<<30 })
			base := fa.listen(t)
			conn := dialApp(t, base)
			head := "--" + testBoundary + "\r\nContent-Disposition: form-data; name=\"files\"; filename=\"big.bin\"\r\n\r\n"
			fmt.Fprintf(conn, "POST /api/files/upload HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer %s\r\n"+
				"Content-Type: multipart/form-data; boundary=%s\r\nContent-Length: %d\r\n\r\n%s",
				userToken, testBoundary, 100<<20, head)
			chunk := randomBytes(1 << 20)
			for i := 0; i < tc.mib; i++ {
				if _, err := conn.Write(chunk); err != nil {
					t.Fatal(err)
				}
			}
			waitFor(t, "the write in the backend", func() bool { return tc.inFlight(fa) == 1 })
			conn.Close()
			waitFor(t, "the write to be undone", func() bool { return tc.inFlight(fa) == 0 })
			fa.assertNothingKept(t)

			resp, body := fa.do(t, uploadRequest("/api/files/upload", userToken, multipartBody(filePart("ok.png", testPNG))))
			if resp.StatusCode != 201 {
				t.Fatalf("upload after a cut: %d %s", resp.StatusCode, body)
			}
		})
	}
}

func countEntries(t *testing.T, dir string) int {
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}

// waitFor polls a condition with a deadline: the condition is what the test
// waits for, not a guessed duration.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestUploadHostileNames(t *testing.T) {
	fa := newFilesTestApp(t, 1<<20)
	long := strings.Repeat("x", 296) + ".txt"
	cases := []struct {
		name        string
		disposition string
		wantName    string
		wantHeader  string // expected Content-Disposition of the download
	}{
		{"dot-dot slash", `name="files"; filename="../../tmp/p"`, "p", `attachment; filename="p"; filename*=UTF-8''p`},
		{"dot-dot backslash", `name="files"; filename="..\..\p"`, "p", `attachment; filename="p"; filename*=UTF-8''p`},
		{"absolute unix path", `name="files"; filename="/etc/passwd"`, "passwd", `attachment; filename="passwd"; filename*=UTF-8''passwd`},
		{"absolute windows path", `name="files"; filename="C:\Windows\win.ini"`, "win.ini", `attachment; filename="win.ini"; filename*=UTF-8''win.ini`},
		{"NUL byte", "name=\"files\"; filename*=UTF-8''a%00b.txt", "ab.txt", `attachment; filename="ab.txt"; filename*=UTF-8''ab.txt`},
		// A raw NUL in a part header is refused by the multipart parser.
		{"raw NUL byte", "name=\"files\"; filename=\"a\x00b.txt\"", "", ""},
		{"300 characters", `name="files"; filename="` + long + `"`, strings.Repeat("x", 251) + ".txt",
			`attachment; filename="` + strings.Repeat("x", 251) + `.txt"; filename*=UTF-8''` + strings.Repeat("x", 251) + ".txt"},
		{"CRLF header injection", "name=\"files\"; filename*=UTF-8''a%0D%0ASet-Cookie%3A%20x%3D1%22.txt", "aSet-Cookie: x=1\".txt",
			`attachment; filename="aSet-Cookie: x=1.txt"; filename*=UTF-8''aSet-Cookie%3A%20x%3D1%22.txt`},
		// The same name written raw into the part header ends the header line:
		// the part no longer parses as a file, so nothing is stored.
		{"raw CRLF in the part header", "name=\"files\"; filename=\"a\r\nSet-Cookie: x=1\".txt\"", "", ""},
		// What browsers send for that name: CR, LF and quote percent-escaped.
		{"CRLF as browsers escape it", `name="files"; filename="a%0D%0ASet-Cookie: x=1%22.txt"`, "a%0D%0ASet-Cookie: x=1%22.txt",
			`attachment; filename="a_0D_0ASet-Cookie: x=1_22.txt"; filename*=UTF-8''a%250D%250ASet-Cookie%3A%20x%3D1%2522.txt`},
		{"non-ASCII", "name=\"files\"; filename*=UTF-8''%D0%B7%D0%B2%D1%96%D1%82%20%E2%84%961.pdf", "звіт №1.pdf",
			`attachment; filename="____ _1.pdf"; filename*=UTF-8''%D0%B7%D0%B2%D1%96%D1%82%20%E2%84%961.pdf`},
		{"quotes and backslash", `name="files"; filename="a\"b.txt"`, `a"b.txt`, `attachment; filename="ab.txt"; filename*=UTF-8''a%22b.txt`},
		{"percent", `name="files"; filename="100%.txt"`, `100%.txt`, `attachment; filename="100_.txt"; filename*=UTF-8''100%25.txt`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.wantName == "" {
				resp, b := fa.do(t, uploadRequest("/api/files/upload", userToken, multipartBody(part{c.disposition, []byte("content")})))
				if resp.StatusCode != 400 {
					t.Fatalf("status %d (%s), want 400", resp.StatusCode, b)
				}
				return
			}
			up := fa.upload(t, part{disposition: c.disposition, data: []byte("content")})[0]
			if up.OriginalName != c.wantName {
				t.Fatalf("original name %q, want %q", up.OriginalName, c.wantName)
			}
			// Raw response bytes: exactly one Content-Disposition, no injected header.
			raw := rawGet(t, fa.listen(t), fmt.Sprintf("/api/files/%d/download", up.ID))
			if n := strings.Count(strings.ToLower(raw), "\r\ncontent-disposition:"); n != 1 {
				t.Fatalf("%d Content-Disposition headers in\n%s", n, raw)
			}
			if strings.Contains(strings.ToLower(raw), "\r\nset-cookie:") {
				t.Fatalf("header injected:\n%s", raw)
			}
			resp, _ := fa.do(t, get(fmt.Sprintf("/api/files/%d/download", up.ID)))
			cd := resp.Header.Get("Content-Disposition")
			if cd != c.wantHeader {
				t.Fatalf("Content-Disposition\n got %s\nwant %s", cd, c.wantHeader)
			}
			if _, params, err := mime.ParseMediaType(cd); err != nil || params["filename"] != c.wantName {
				t.Fatalf("header does not parse back to the name: %v %q", err, params["filename"])
			}
		})
	}
	// Whatever the names, the uploads directory holds only generated names.
	es, _ := os.ReadDir(fa.uploadsDir)
	for _, e := range es {
		if len(e.Name()) != 32 || strings.Trim(e.Name(), "0123456789abcdef") != "" {
			t.Fatalf("unexpected name in uploads/: %q", e.Name())
		}
	}
	if _, err := os.Stat("/tmp/p"); err == nil {
		if b, _ := os.ReadFile("/tmp/p"); string(b) == "content" {
			t.Fatal("an upload escaped to /tmp/p")
		}
	}
}

// rawGet returns the response head exactly as sent on the wire.
func rawGet(t *testing.T, base, path string) string {
	t.Helper()
	conn := dialApp(t, base)
	defer conn.Close()
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n", path)
	var head strings.Builder
	br := bufio.NewReader(conn)
	for {
		line, err := br.ReadString('\n')
		head.WriteString(line)
		if err != nil || line == "\r\n" {
			break
		}
	}
	return head.String()
}

func TestStreamInlineOnlyForAllowList(t *testing.T) {
	fa := newFilesTestApp(t, 1<<20)
	ups := fa.upload(t,
		filePart("a.png", testPNG),
		filePart("b.mp4", testMP4),
		filePart("c.mp3", testMP3),
		filePart("d.pdf", testPDF),
		filePart("evil.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)"><rect/></svg>`)),
		filePart("page.html", []byte(`<!doctype html><html><body><script>alert(1)</script></body></html>`)),
		filePart("fake.png", []byte(`<html><script>alert(1)</script></html>`)),
		filePart("notes.txt", []byte("plain text")),
	)
	cases := []struct {
		name, wantDisposition, wantType string
	}{
		{"a.png", "inline", "image/png"},
		{"b.mp4", "inline", "video/mp4"},
		{"c.mp3", "inline", "audio/mpeg"},
		{"d.pdf", "inline", "application/pdf"},
		{"evil.svg", "attachment", "application/octet-stream"},
		{"page.html", "attachment", "application/octet-stream"},
		{"fake.png", "attachment", "application/octet-stream"},
		{"notes.txt", "attachment", "text/plain; charset=utf-8"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			id := ups[i].ID
			resp, _ := fa.do(t, get(fmt.Sprintf("/api/files/stream/%d", id)))
			if resp.StatusCode != 200 {
				t.Fatalf("status %d", resp.StatusCode)
			}
			cd := resp.Header.Get("Content-Disposition")
			if !strings.HasPrefix(cd, c.wantDisposition+";") {
				t.Fatalf("stream disposition %q, want %s", cd, c.wantDisposition)
			}
			if ct := resp.Header.Get("Content-Type"); ct != c.wantType {
				t.Fatalf("stream type %q, want %q", ct, c.wantType)
			}
			assertUserFileHeaders(t, resp)
			// The download route is always an attachment.
			resp, _ = fa.do(t, get(fmt.Sprintf("/api/files/%d/download", id)))
			if !strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment;") {
				t.Fatalf("download disposition %q", resp.Header.Get("Content-Disposition"))
			}
			assertUserFileHeaders(t, resp)
		})
	}
}

func TestPlantedSymlinkNeverFollowedOut(t *testing.T) {
	fa := newFilesTestApp(t, 1<<20)
	up := fa.upload(t, filePart("a.txt", []byte("public")))[0]
	secret := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(secret, []byte("SECRET"), 0o600) // same length as "public"
	f, _ := fa.svc.Get(up.ID)
	stored := filepath.Join(fa.uploadsDir, f.StoredName)
	os.Remove(stored)
	if err := os.Symlink(secret, stored); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/api/files/%d/download", "/api/files/stream/%d"} {
		resp, body := fa.do(t, get(fmt.Sprintf(p, up.ID)))
		if resp.StatusCode != 404 || bytes.Contains(body, []byte("SECRET")) {
			t.Fatalf("%s: %d %q", p, resp.StatusCode, body)
		}
	}
	// An admin delete removes the link, never what it points to.
	req := httptest.NewRequest(http.MethodDelete, fmt.Sprintf("/api/files/%d", up.ID), nil)
	req.Header.Set("Authorization", "Bearer "+adminToken)
	if resp, _ := fa.do(t, req); resp.StatusCode != 204 {
		t.Fatalf("delete: %d", resp.StatusCode)
	}
	if b, err := os.ReadFile(secret); err != nil || string(b) != "SECRET" {
		t.Fatalf("target touched: %q %v", b, err)
	}
	fa.assertNothingKept(t)
}

func TestContentDisposition(t *testing.T) {
	cases := []struct{ kind, name, want string }{
		{"inline", "a.png", `inline; filename="a.png"; filename*=UTF-8''a.png`},
		{"attachment", "", `attachment; filename="download"; filename*=UTF-8''`},
		{"attachment", "a\r\nb\x00\"c\\.txt", `attachment; filename="abc.txt"; filename*=UTF-8''ab%22c%5C.txt`},
		{"attachment", "my file (1).tar.gz", `attachment; filename="my file (1).tar.gz"; filename*=UTF-8''my%20file%20%281%29.tar.gz`},
	}
	for _, c := range cases {
		if got := contentDisposition(c.kind, c.name); got != c.want {
			t.Errorf("contentDisposition(%q)\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// TestRefusedUploadAnswerReachesSender plays a browser: it sends the whole
// body before reading the answer. A refused upload (over the limit, or no
// valid token) must still reach it as a JSON 413/401, not as a reset
// connection that the page would report as "Network error occurred" (and
// that would keep it from refreshing an expired token and trying again).
func TestRefusedUploadAnswerReachesSender(t *testing.T) {
	const limit = 1 << 20
	fa := newFilesTestApp(t, limit)
	base := fa.listen(t)
	over := multipartBody(filePart("big.bin", randomBytes(8<<20)))
	under := multipartBody(filePart("small.bin", randomBytes(4<<10)))
	cases := []struct {
		name    string
		token   string
		body    []byte
		chunked bool
		status  int
	}{
		{"over the limit, announced", userToken, over, false, 413},
		{"over the limit, chunked", userToken, over, true, 413},
		{"anonymous", "", over, false, 401},
		{"expired token", "expired", under, false, 401},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for i := 0; i < 5; i++ {
				status, body := sendWholeThenRead(t, base, c.token, c.body, c.chunked)
				if status != c.status {
					t.Fatalf("try %d: status %d, want %d (%s)", i, status, c.status, body)
				}
				var e APIError
				if json.Unmarshal([]byte(body), &e) != nil || e.Status != c.status {
					t.Fatalf("try %d: not the error shape: %q", i, body)
				}
			}
			fa.assertNothingKept(t)
		})
	}
}

// sendWholeThenRead posts an upload over a raw connection, writing every
// byte of the body before reading the answer, and returns the status and
// body of the answer.
func sendWholeThenRead(t *testing.T, base, token string, body []byte, chunked bool) (int, string) {
	t.Helper()
	conn := dialApp(t, base)
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	var head strings.Builder
	head.WriteString("POST /api/files/upload HTTP/1.1\r\nHost: test\r\n")
	head.WriteString("Content-Type: multipart/form-data; boundary=" + testBoundary + "\r\n")
	if token != "" {
		head.WriteString("Authorization: Bearer " + token + "\r\n")
	}
	if chunked {
		head.WriteString("Transfer-Encoding: chunked\r\n\r\n")
	} else {
		head.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n")
	}
	if _, err := io.WriteString(conn, head.String()); err != nil {
		t.Fatalf("write head: %v", err)
	}
	for off := 0; off < len(body); off += 64 << 10 {
		chunk := body[off:min(off+64<<10, len(body))]
		var err error
		if chunked {
			_, err = fmt.Fprintf(conn, "%x\r\n%s\r\n", len(chunk), chunk)
		} else {
			_, err = conn.Write(chunk)
		}
		if err != nil {
			t.Fatalf("write body at %d: %v", off, err)
		}
	}
	if chunked {
		if _, err := io.WriteString(conn, "0\r\n\r\n"); err != nil {
			t.Fatalf("write last chunk: %v", err)
		}
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("read answer: %v", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read answer body: %v", err)
	}
	return resp.StatusCode, string(b)
}

// TestRefusedUploadDrainIsBounded: a refused body that keeps coming is not
// read for ever; the connection is closed once the drain time is up.
func TestRefusedUploadDrainIsBounded(t *testing.T) {
	fa := newFilesTestAppWithConfig(t, func(c *config.Config) {
		c.Files.MaxUploadBytes = 1 << 20
		c.Files.RefusedUploadDrain = 200 * time.Millisecond
	})
	base := fa.listen(t)
	conn := dialApp(t, base)
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/files/upload HTTP/1.1\r\nHost: test\r\nContent-Type: multipart/form-data; boundary=%s\r\n"+
		"Content-Length: %d\r\n\r\n", testBoundary, 1<<40)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		// A client that never stops sending.
		chunk := make([]byte, 1024)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := conn.Write(chunk); err != nil {
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err == nil {
		// The answer may arrive before the reset; the connection must end after it.
		if resp.StatusCode != 401 {
			t.Fatalf("status %d", resp.StatusCode)
		}
		_, err = io.Copy(io.Discard, conn)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("the server kept reading a refused body past the drain time")
	}
	fa.assertNothingKept(t)
}

// TestFileHead: HEAD on every file route answers like GET without a body.
// Fiber only adds automatic HEAD routes after all others, behind the /api
// catch-all, so they are registered explicitly.
func TestFileHead(t *testing.T) {
	forEachBackend(t, func(t *testing.T, newApp func(func(*config.Config)) *filesTestApp) {
		testFileHead(t, newApp(nil))
	})
}

func testFileHead(t *testing.T, fa *filesTestApp) {
	data := append(append([]byte{}, testMP4...), randomBytes(5000)...)
	up := fa.upload(t, filePart("clip.mp4", data))[0]
	size := strconv.Itoa(len(data))
	cases := []struct {
		path, rng    string
		status       int
		length       string
		contentRange string
		disposition  string
	}{
		{"/api/files/%d/download", "", 200, size, "", "attachment"},
		{"/api/api/files/%d/download", "", 200, size, "", "attachment"},
		{"/api/files/stream/%d", "", 200, size, "", "inline"},
		{"/api/api/files/stream/%d", "", 200, size, "", "inline"},
		{"/api/files/stream/%d", "bytes=0-", 206, size, "bytes 0-" + strconv.Itoa(len(data)-1) + "/" + size, "inline"},
		{"/api/files/%d/download", "bytes=100-199", 206, "100", "bytes 100-199/" + size, "attachment"},
		{"/api/files/%d/download", "bytes=" + size + "-", 416, "", "bytes */" + size, ""},
	}
	for _, c := range cases {
		path := fmt.Sprintf(c.path, up.ID)
		t.Run(path+" "+c.rng, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodHead, path, nil)
			if c.rng != "" {
				req.Header.Set("Range", c.rng)
			}
			resp, body := fa.do(t, req)
			if resp.StatusCode != c.status || len(body) != 0 {
				t.Fatalf("status %d with %d body bytes, want %d and none", resp.StatusCode, len(body), c.status)
			}
			if c.length != "" && resp.Header.Get("Content-Length") != c.length {
				t.Fatalf("Content-Length %q, want %s", resp.Header.Get("Content-Length"), c.length)
			}
			if resp.Header.Get("Content-Range") != c.contentRange {
				t.Fatalf("Content-Range %q, want %q", resp.Header.Get("Content-Range"), c.contentRange)
			}
			if c.disposition != "" && !strings.HasPrefix(resp.Header.Get("Content-Disposition"), c.disposition+";") {
				t.Fatalf("Content-Disposition %q", resp.Header.Get("Content-Disposition"))
			}
			assertUserFileHeaders(t, resp)
		})
	}
	for path, want := range map[string]int{
		"/api/files":                        200,
		"/api/api/files":                    200,
		fmt.Sprintf("/api/files/%d", up.ID): 200,
		"/api/files/999":                    404,
		"/api/files/999/download":           404,
		"/api/files/stream/abc":             400,
	} {
		resp, body := fa.do(t, httptest.NewRequest(http.MethodHead, path, nil))
		if resp.StatusCode != want || len(body) != 0 {
			t.Fatalf("HEAD %s: %d with %d body bytes, want %d", path, resp.StatusCode, len(body), want)
		}
	}
}

// JSON answers over a kilobyte are compressed for clients that accept it;
// small ones, clients without Accept-Encoding and file bytes are not.
func TestJSONCompression(t *testing.T) {
	fa := newFilesTestApp(t, 1<<20)
	for i := 0; i < 20; i++ {
		fa.upload(t, filePart(fmt.Sprintf("note-%02d.txt", i), []byte("some text")))
	}
	up := fa.upload(t, filePart("big.txt", bytes.Repeat([]byte("a"), 4096)))[0]
	for _, tc := range []struct {
		name, path, accept, want string
	}{
		{"big list, gzip", "/api/files", "gzip", "gzip"},
		{"big list, brotli", "/api/files", "br, gzip", "br"},
		{"big list, no Accept-Encoding", "/api/files", "", ""},
		{"small answer", fmt.Sprintf("/api/files/%d", up.ID), "gzip", ""},
		{"file bytes", fmt.Sprintf("/api/files/%d/download", up.ID), "gzip", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := get(tc.path)
			if tc.accept != "" {
				req.Header.Set("Accept-Encoding", tc.accept)
			}
			resp, body := fa.do(t, req)
			if got := resp.Header.Get("Content-Encoding"); resp.StatusCode != 200 || got != tc.want {
				t.Fatalf("%d Content-Encoding %q, want %q", resp.StatusCode, got, tc.want)
			}
			if tc.want == "gzip" {
				zr, err := gzip.NewReader(bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				plain, _ := io.ReadAll(zr)
				if !json.Valid(plain) || !bytes.Contains(plain, []byte("note-19.txt")) {
					t.Fatalf("decompressed %q", plain[:min(len(plain), 80)])
				}
			}
			// A big JSON answer depends on Accept-Encoding whether or not this
			// client got it compressed; a cache is told so once.
			if strings.HasPrefix(tc.name, "big list") {
				if n := strings.Count(strings.Join(resp.Header.Values("Vary"), ","), "Accept-Encoding"); n != 1 {
					t.Fatalf("Vary names Accept-Encoding %d times: %q", n, resp.Header.Values("Vary"))
				}
			}
		})
	}
}

// A signed-in account sees which files are its own (mine) and can list
// only those (?mine=true); a guest's list marks none and may not ask.
func TestMyFiles(t *testing.T) {
	fa := newFilesTestApp(t, 1<<20)
	fa.upload(t, filePart("mine.png", testPNG))
	req := uploadRequest("/api/files/upload", adminToken, multipartBody(filePart("admins.txt", []byte("a"))))
	if resp, body := fa.do(t, req); resp.StatusCode != 201 {
		t.Fatalf("admin upload: %d %s", resp.StatusCode, body)
	}
	type list struct {
		Images, Documents []files.Info
		Totals            map[string]int
	}
	read := func(path, token string) (int, list) {
		r := get(path)
		if token != "" {
			r = withToken(r, token)
		}
		resp, body := fa.do(t, r)
		var l list
		json.Unmarshal(body, &l)
		return resp.StatusCode, l
	}
	cases := []struct {
		name, path, token string
		status            int
		images, docs      int
		// imageMine and docMine: whether the listed image and document are
		// marked as the caller's.
		imageMine, docMine bool
	}{
		{"a guest", "/api/files", "", 200, 1, 1, false, false},
		{"the uploader, everything", "/api/files", userToken, 200, 1, 1, true, false},
		{"the uploader, own files", "/api/files?mine=true", userToken, 200, 1, 0, true, false},
		{"the admin, own files", "/api/files?mine=true", adminToken, 200, 0, 1, false, true},
		{"a guest asking for own files", "/api/files?mine=true", "", 401, 0, 0, false, false},
		{"a bad value", "/api/files?mine=yes", userToken, 400, 0, 0, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, l := read(c.path, c.token)
			if status != c.status {
				t.Fatalf("status %d, want %d", status, c.status)
			}
			if status != 200 {
				return
			}
			if len(l.Images) != c.images || len(l.Documents) != c.docs || l.Totals["images"] != c.images {
				t.Fatalf("%d images, %d documents, totals %v", len(l.Images), len(l.Documents), l.Totals)
			}
			if c.images > 0 && l.Images[0].Mine != c.imageMine {
				t.Fatalf("mine = %v on %s", l.Images[0].Mine, l.Images[0].OriginalName)
			}
			if c.docs > 0 && l.Documents[0].Mine != c.docMine {
				t.Fatalf("mine = %v on %s", l.Documents[0].Mine, l.Documents[0].OriginalName)
			}
		})
	}
}
