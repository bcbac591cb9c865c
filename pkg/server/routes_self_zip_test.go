package server

import (
	"archive/zip"
	"bytes"
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/config"
	"github.com/gofiber/fiber/v3"
)

// zipEntries reads a zip answer into name → content.
func zipEntries(t *testing.T, body string) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(strings.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	out := map[string]string{}
	for _, f := range zr.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		out[f.Name] = string(b)
	}
	return out
}

func names(m map[string]string) string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, "|")
}

// Several files download as one zip: only files the caller may read, the
// entries named by the files' names (made unique), within the caps on
// count and bytes; any refusal comes before a byte of zip.
func TestFilesZip(t *testing.T) {
	fa := newFilesTestAppWithOptions(t, func(c *config.Config) {
		c.Files.ZipMaxFiles = 3
		c.Files.ZipMaxBytes = 60
	}, nil)
	sa := &sharesTestApp{filesTestApp: fa}
	a := sa.uploadFile(t, "notes.txt", []byte("first notes"), false)
	b := sa.uploadFile(t, "notes.txt", []byte("second"), false)
	img := sa.uploadFile(t, "pic.png", testPNG, false)
	priv := sa.uploadFile(t, "secret.txt", []byte("mine"), true)
	big := sa.uploadFile(t, "big.txt", bytes.Repeat([]byte("x"), 50), false)
	ids := func(fs ...uint64) string {
		parts := make([]string, len(fs))
		for i, id := range fs {
			parts[i] = fmt.Sprint(id)
		}
		return "/api/files/zip?ids=" + strings.Join(parts, ",")
	}
	isZip := func(want string) func(t *testing.T, resp *http.Response, body string) {
		return func(t *testing.T, resp *http.Response, body string) {
			if got := names(zipEntries(t, body)); got != want {
				t.Fatalf("entries %q, want %q", got, want)
			}
		}
	}
	runScenarios(t, sameApp(fa.testApp), []apiScenario{
		{Name: "a guest, public files, a repeated name numbered", URL: ids(a.ID, b.ID, img.ID), NoHead: true,
			ExpectedStatus: 200, ExpectedHeaders: map[string]string{"Content-Type": "application/zip",
				"Content-Disposition": `attachment; filename="files.zip"`},
			AfterTest: func(t *testing.T, resp *http.Response, body string) {
				e := zipEntries(t, body)
				if e["notes.txt"] != "first notes" || e["notes (2).txt"] != "second" || e["pic.png"] != string(testPNG) {
					t.Fatalf("entries %v", names(e))
				}
			}},
		{Name: "a repeated id counts once", URL: ids(a.ID, a.ID), NoHead: true, ExpectedStatus: 200, AfterTest: isZip("notes.txt")},
		{Name: "the uploader gets a private file", URL: ids(a.ID, priv.ID), Token: userToken, NoHead: true,
			ExpectedStatus: 200, AfterTest: isZip("notes.txt|secret.txt")},
		{Name: "an admin gets a private file", URL: ids(priv.ID), Token: adminToken, NoHead: true, ExpectedStatus: 200, AfterTest: isZip("secret.txt")},
		{Name: "another user: the whole request is not found", URL: ids(a.ID, priv.ID), Token: otherToken, NoHead: true,
			ExpectedStatus: 404, NotExpectedContent: []string{"notes"}},
		{Name: "a guest: not found", URL: ids(priv.ID), NoHead: true, ExpectedStatus: 404},
		{Name: "an unknown id", URL: ids(a.ID, 999), NoHead: true, ExpectedStatus: 404},
		{Name: "over the count", URL: ids(a.ID, b.ID, img.ID, priv.ID), Token: userToken, NoHead: true, ExpectedStatus: 413},
		{Name: "over the bytes", URL: ids(a.ID, big.ID), NoHead: true, ExpectedStatus: 413},
		{Name: "no ids", URL: "/api/files/zip", NoHead: true, ExpectedStatus: 400},
		{Name: "a bad id", URL: "/api/files/zip?ids=1,x", NoHead: true, ExpectedStatus: 400},
		{Name: "a zero id", URL: "/api/files/zip?ids=0", NoHead: true, ExpectedStatus: 400},
		{Name: "the spec's path too", URL: "/api/api/files/zip?ids=" + fmt.Sprint(a.ID), NoHead: true, ExpectedStatus: 200, AfterTest: isZip("notes.txt")},
	})
}

// Zips in progress are capped: while one guest's zip is still streaming to
// a client that stopped reading, a second from the same network is a 429
// with Retry-After (the first unharmed); once that client goes, its place
// is given back and the next zip is served.
func TestFilesZipInProgressCap(t *testing.T) {
	fa := newFilesTestAppWithOptions(t, func(c *config.Config) {
		c.Files.ZipMaxConcurrentPerClient = 1
		c.Files.ZipMaxBytes = 64 << 20
	}, nil)
	sa := &sharesTestApp{filesTestApp: fa}
	// Random bytes do not deflate: 24 MiB fill the loopback socket's
	// buffers, so the first zip stays in progress while its client waits.
	var ids []string
	for i := range 24 {
		data := make([]byte, 1<<20-1024)
		rand.Read(data)
		ids = append(ids, fmt.Sprint(sa.uploadFile(t, fmt.Sprintf("r%d.bin", i), data, false).ID))
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go fa.app.Listener(ln, fiber.ListenConfig{DisableStartupMessage: true})
	t.Cleanup(func() { fa.app.Shutdown() })
	url := "http://" + ln.Addr().String() + "/api/files/zip?ids=" + strings.Join(ids, ",")

	first, err := http.Get(url)
	if err != nil || first.StatusCode != 200 {
		t.Fatalf("first zip: %v %v", first, err)
	}
	second, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(second.Body)
	second.Body.Close()
	if second.StatusCode != 429 || second.Header.Get("Retry-After") == "" || !strings.Contains(string(body), "zip") {
		t.Fatalf("second zip while the first streams: %d %v %s", second.StatusCode, second.Header, body)
	}
	first.Body.Close() // the client leaves mid-stream

	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 200 {
			if n < 24<<20-24<<10 {
				t.Fatalf("the zip after the place was given back has %d bytes", n)
			}
			return
		}
		if resp.StatusCode != 429 || time.Now().After(deadline) {
			t.Fatalf("after the first client left: %d", resp.StatusCode)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
