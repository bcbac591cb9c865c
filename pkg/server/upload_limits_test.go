package server

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/config"
)

// One request with a flood of parts used to create a file and a record per
// part. Past files.max_parts_per_request the whole request is a 400 and
// nothing is kept; exactly at the cap it is accepted.
func TestUploadPartsCap(t *testing.T) {
	fa := newFilesTestAppWith(t, 1<<20, func(f *config.Files) { f.MaxPartsPerRequest = 10 })
	many := func(n int) []part {
		ps := make([]part, n)
		for i := range ps {
			ps[i] = filePart("e"+strconv.Itoa(i)+".txt", nil)
		}
		return ps
	}
	resp, body := fa.do(t, uploadRequest("/api/files/upload", userToken, multipartBody(many(11)...)))
	if resp.StatusCode != 400 || !strings.Contains(apiErr(t, body).Message, "too many parts") {
		t.Fatalf("11 parts: %d %s", resp.StatusCode, body)
	}
	fa.assertNothingKept(t)
	// Other fields count too: they cost parsing just the same.
	ps := append(many(5), make([]part, 6)...)
	for i := 5; i < 11; i++ {
		ps[i] = part{disposition: `name="note"`, data: []byte("x")}
	}
	if resp, body := fa.do(t, uploadRequest("/api/files/upload", userToken, multipartBody(ps...))); resp.StatusCode != 400 {
		t.Fatalf("5 files + 6 fields: %d %s", resp.StatusCode, body)
	}
	fa.assertNothingKept(t)
	if got := fa.upload(t, many(10)...); len(got) != 10 {
		t.Fatalf("10 parts stored %d files", len(got))
	}
}

// A part whose headers are malformed (a raw CR/LF in the file name cuts its
// Content-Disposition) used to be skipped and the others stored with a 201.
// Now the request is a 400 and nothing is kept.
func TestUploadMalformedPartRefusesAll(t *testing.T) {
	fa := newFilesTestApp(t, 1<<20)
	for name, bad := range map[string]string{
		"raw CRLF in filename": "name=\"files\"; filename=\"a\r\nX-Evil: 1\".txt\"",
		"unterminated quote":   `name="files"; filename="a.txt`,
		"not form-data":        "", // replaced below
		"garbage parameters":   `name="files"; ;;; =`,
	} {
		t.Run(name, func(t *testing.T) {
			body := multipartBody(filePart("good1.png", testPNG), part{disposition: bad, data: []byte("x")}, filePart("good2.png", testPNG))
			if name == "not form-data" {
				body = bytes.Replace(body, []byte("Content-Disposition: form-data; \r\n"), []byte("Content-Disposition: attachment; filename=\"x\"\r\n"), 1)
			}
			resp, raw := fa.do(t, uploadRequest("/api/files/upload", userToken, body))
			if resp.StatusCode != 400 {
				t.Fatalf("status %d %s, want 400", resp.StatusCode, raw)
			}
			apiErr(t, raw)
			fa.assertNothingKept(t)
		})
	}
}

func TestUploadStartRate(t *testing.T) {
	fa := newFilesTestAppWith(t, 1<<20, func(f *config.Files) { f.UploadsPerMinute = 2 })
	fa.upload(t, filePart("1.png", testPNG))
	fa.upload(t, filePart("2.png", testPNG))
	resp, body := fa.do(t, uploadRequest("/api/files/upload", userToken, multipartBody(filePart("3.png", testPNG))))
	ra, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	if resp.StatusCode != 429 || ra < 1 || ra > 60 {
		t.Fatalf("3rd upload in a minute: %d Retry-After=%q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	apiErr(t, body)
	// The same network is spent for another user too.
	resp, _ = fa.do(t, uploadRequest("/api/files/upload", adminToken, multipartBody(filePart("4.png", testPNG))))
	if resp.StatusCode != 429 {
		t.Fatalf("another user from the same network: %d", resp.StatusCode)
	}
}

// stalledUpload opens an upload on a real connection, sends its start and
// leaves it hanging; it waits until the server has begun writing it.
func stalledUpload(t *testing.T, fa *filesTestApp, base, token string) net.Conn {
	t.Helper()
	conn := dialApp(t, base)
	t.Cleanup(func() { conn.Close() })
	head := "--" + testBoundary + "\r\nContent-Disposition: form-data; name=\"files\"; filename=\"slow.bin\"\r\n\r\n"
	fmt.Fprintf(conn, "POST /api/files/upload HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: multipart/form-data; boundary=%s\r\nContent-Length: %d\r\n\r\n%s",
		token, testBoundary, 10<<20, head)
	conn.Write(bytes.Repeat([]byte("x"), 256<<10))
	return conn
}

// Uploads in progress are capped per user and on the whole server; past a
// cap a new upload is a 429 with Retry-After, and a place frees up when an
// upload ends.
func TestUploadConcurrencyCaps(t *testing.T) {
	fa := newFilesTestAppWith(t, 1<<30, func(f *config.Files) {
		f.MaxConcurrentUploadsPerUser = 1
		f.MaxConcurrentUploads = 2
		f.UploadsPerMinute = 100
	})
	base := fa.listen(t)
	post := func(token string) *http.Response {
		req, _ := http.NewRequest("POST", base+"/api/files/upload", bytes.NewReader(multipartBody(filePart("q.png", testPNG))))
		req.Header.Set("Content-Type", "multipart/form-data; boundary="+testBoundary)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, _ := overTCP(t, req)
		return resp
	}
	first := stalledUpload(t, fa, base, userToken)
	waitFor(t, "the first upload's temp file", func() bool { return countEntries(t, fa.uploadsDir) == 1 })
	if resp := post(userToken); resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a second upload of the same user: %d", resp.StatusCode)
	}
	stalledUpload(t, fa, base, adminToken)
	waitFor(t, "the second upload's temp file", func() bool { return countEntries(t, fa.uploadsDir) == 2 })
	if resp := post(adminToken); resp.StatusCode != 429 {
		t.Fatalf("a third upload on a server capped at two: %d", resp.StatusCode)
	}
	first.Close()
	waitFor(t, "the first upload to end", func() bool { return countEntries(t, fa.uploadsDir) == 1 })
	var resp *http.Response
	waitFor(t, "a place to free up", func() bool { resp = post(userToken); return resp.StatusCode == 201 })
}

// slowSource hands out n bytes per read and advances a fake clock by step.
type slowSource struct {
	n    int
	step time.Duration
	now  *time.Time
	left int
}

func (s *slowSource) Read(p []byte) (int, error) {
	if s.left <= 0 {
		return 0, io.EOF
	}
	*s.now = s.now.Add(s.step)
	n := min(s.n, len(p), s.left)
	s.left -= n
	return n, nil
}

func TestMinRateReader(t *testing.T) {
	for _, tc := range []struct {
		name     string
		perRead  int
		step     time.Duration
		wantSlow bool
	}{
		{"fast", 64 << 10, 10 * time.Millisecond, false},
		{"just above the minimum", 1100, time.Second, false},
		{"trickle under the minimum", 900, time.Second, true},
		{"one byte every 10 s", 1, 10 * time.Second, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := time.Unix(0, 0)
			src := &slowSource{n: tc.perRead, step: tc.step, now: &now, left: 200 << 10}
			m := newMinRateReader(src, nil, 1024)
			m.now = func() time.Time { return now }
			m.windowStart = now
			_, err := io.Copy(io.Discard, m)
			if got := errors.Is(err, errUploadTooSlow); got != tc.wantSlow {
				t.Fatalf("too slow: %v (err %v), want %v", got, err, tc.wantSlow)
			}
		})
	}
}

// A client that sends a little and then nothing is ended once a window
// passes without a byte (the read deadline), not held for ever.
func TestMinRateReaderEndsAStall(t *testing.T) {
	server, client := net.Pipe()
	defer client.Close()
	go client.Write([]byte("a little"))
	m := newMinRateReader(server, server, 1024)
	m.window = 200 * time.Millisecond
	m.pushDeadline(time.Now())
	_, err := io.Copy(io.Discard, m)
	if !errors.Is(err, errUploadTooSlow) {
		t.Fatalf("stalled upload: %v, want errUploadTooSlow", err)
	}
}

// A full disk: the upload that cannot be written is a 507 in the JSON
// shape, keeps no record and no partial file, and the server goes on
// serving (a small upload that fits still works once space is back).
// Needs a size-limited filesystem: a 2 MiB tmpfs, which root may mount.
func TestUploadDiskFull(t *testing.T) {
	dir := t.TempDir()
	if err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", dir).Run(); err != nil {
		t.Skipf("cannot mount a size-limited tmpfs here (%v); the 507 path needs one", err)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	fa := newFilesTestAppInDir(t, filepath.Join(dir, "uploads"), 64<<20)
	resp, body := fa.do(t, uploadRequest("/api/files/upload", userToken,
		multipartBody(filePart("small.png", testPNG), filePart("big.bin", randomBytes(3<<20)))))
	if resp.StatusCode != http.StatusInsufficientStorage {
		t.Fatalf("upload past a full disk: %d %s", resp.StatusCode, body)
	}
	if e := apiErr(t, body); !strings.Contains(e.Message, "storage") {
		t.Fatalf("message %q", e.Message)
	}
	fa.assertNothingKept(t)
	if got := fa.upload(t, filePart("fits.png", testPNG)); len(got) != 1 {
		t.Fatal("the server stopped storing uploads after a full disk")
	}
}
