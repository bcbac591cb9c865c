package server

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/profile"
)

// TestOneCachingPath: every kind of stored bytes the server answers with —
// a built asset, an SPA page, an emulator core, a ROM, a user file, the
// profile and its avatar — goes through sendContent, so each answers the
// same conditional, HEAD, encoding and range requests the same way.
func TestOneCachingPath(t *testing.T) {
	js := "var fceumm = 1; // " + strings.Repeat("core ", 50)
	roms := newRomsFixture(t, func(o *Options) {
		o.Cores = fstest.MapFS{
			"fceumm/fceumm_libretro.js":    {Data: []byte(js)},
			"fceumm/fceumm_libretro.js.gz": {Data: gz(t, js)},
			"fceumm/fceumm_libretro.js.br": {Data: br(js)},
			"fceumm/fceumm_libretro.wasm":  {Data: []byte("\x00asm")},
		}
		o.Services.Profile = &profile.Loaded{
			Profile: profile.Profile{Name: profile.Text{"en": "Ann"}, Headline: profile.Text{"en": "Dev"}, Bio: profile.Text{"en": "Hi"}, Avatar: "a.png",
				DevTools: profile.DevTools{Intro: profile.Text{"en": "i"}, Philosophy: profile.Text{"en": "p"}, Groups: []profile.Group{}}},
			Avatar:     []byte("\x89PNG\r\n\x1a\n-picture"),
			AvatarType: "image/png",
		}
	})
	files := newFilesTestApp(t, 1<<20)
	up := files.upload(t, filePart("notes.txt", []byte("hello, range")))[0]

	sources := []struct {
		name         string
		ta           *testApp
		path         string
		lastModified bool // has Last-Modified, so If-Modified-Since applies
		variants     bool // has precompressed br/gzip variants
		ranges       bool // answers Range
	}{
		{"site asset", roms.ta, "/assets/index-abc123.js", false, true, false},
		{"SPA page", roms.ta, "/", false, false, false},
		{"emulator core", roms.ta, "/cores/fceumm/fceumm_libretro.js", false, true, false},
		{"ROM", roms.ta, "/romserv/nes/Super_Game.nes", true, false, true},
		{"ROM cover", roms.ta, "/romserv/nes/images/Super_Game.png", true, false, true},
		{"user file", files.testApp, fmt.Sprintf("/api/files/%d/download", up.ID), true, false, true},
		{"user file stream", files.testApp, fmt.Sprintf("/api/files/stream/%d", up.ID), true, false, true},
		{"profile", roms.ta, "/api/profile", false, false, false},
		{"avatar", roms.ta, "/api/profile/avatar", false, false, false},
	}
	for _, src := range sources {
		t.Run(src.name, func(t *testing.T) {
			do := func(method string, hdr ...string) (*http.Response, []byte) {
				t.Helper()
				req := httptest.NewRequest(method, src.path, nil)
				for i := 0; i+1 < len(hdr); i += 2 {
					req.Header.Set(hdr[i], hdr[i+1])
				}
				return src.ta.do(t, req)
			}
			expect := func(what string, want int, resp *http.Response, body []byte) {
				t.Helper()
				if resp.StatusCode != want {
					t.Fatalf("%s: %d, want %d (%.80q)", what, resp.StatusCode, want, body)
				}
				if want == http.StatusNotModified && len(body) != 0 {
					t.Fatalf("%s: 304 with %d body bytes", what, len(body))
				}
			}
			resp, full := do("GET")
			expect("plain GET", 200, resp, full)
			etag, lastMod := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
			if etag == "" || (lastMod != "") != src.lastModified {
				t.Fatalf("validators: ETag %q, Last-Modified %q", etag, lastMod)
			}
			for _, inm := range []string{etag, "W/" + etag, `"other", ` + etag, "*"} {
				resp, body := do("GET", "If-None-Match", inm)
				expect("If-None-Match "+inm, 304, resp, body)
				if resp.Header.Get("ETag") != etag {
					t.Fatalf("304 without the ETag: %v", resp.Header)
				}
			}
			resp, body := do("GET", "If-None-Match", `"other"`)
			expect("a stale If-None-Match", 200, resp, body)
			resp, body = do("HEAD")
			expect("HEAD", 200, resp, body)
			if len(body) != 0 || resp.Header.Get("Content-Length") != strconv.Itoa(len(full)) || resp.Header.Get("ETag") != etag {
				t.Fatalf("HEAD: %d body bytes, headers %v; GET had %d bytes", len(body), resp.Header, len(full))
			}
			if src.lastModified {
				resp, body = do("GET", "If-Modified-Since", lastMod)
				expect("If-Modified-Since", 304, resp, body)
				// If-None-Match decides when both are sent (RFC 9110 §13.2.2).
				resp, body = do("GET", "If-None-Match", `"other"`, "If-Modified-Since", lastMod)
				expect("a stale If-None-Match with a fresh If-Modified-Since", 200, resp, body)
			}
			if src.variants {
				resp, body = do("GET", "Accept-Encoding", "gzip, deflate, br")
				expect("br", 200, resp, body)
				brTag := resp.Header.Get("ETag")
				if resp.Header.Get("Content-Encoding") != "br" || brTag == etag || !strings.Contains(resp.Header.Get("Vary"), "Accept-Encoding") {
					t.Fatalf("br variant: %v", resp.Header)
				}
				resp, body = do("GET", "Accept-Encoding", "br", "If-None-Match", brTag)
				expect("revalidating the br variant", 304, resp, body)
				resp, body = do("GET", "Accept-Encoding", "br", "If-None-Match", etag)
				expect("the identity ETag for the br variant", 200, resp, body)
			} else if resp.Header.Get("Content-Encoding") != "" {
				t.Fatalf("encoded without variants: %v", resp.Header)
			}
			resp, body = do("GET", "Range", "bytes=1-2")
			if !src.ranges {
				expect("Range where ranges are off", 200, resp, body)
				return
			}
			expect("Range", 206, resp, body)
			if string(body) != string(full[1:3]) || resp.Header.Get("Content-Range") != fmt.Sprintf("bytes 1-2/%d", len(full)) ||
				resp.Header.Get("Accept-Ranges") != "bytes" {
				t.Fatalf("range: %q %v", body, resp.Header)
			}
			for _, ifRange := range []string{etag, lastMod} {
				resp, body = do("GET", "Range", "bytes=1-2", "If-Range", ifRange)
				expect("If-Range "+ifRange, 206, resp, body)
			}
			resp, body = do("GET", "Range", "bytes=1-2", "If-Range", `"other"`)
			expect("a stale If-Range", 200, resp, body)
			resp, body = do("GET", "Range", fmt.Sprintf("bytes=%d-", len(full)))
			expect("an unsatisfiable range", 416, resp, body)
			if resp.Header.Get("Content-Range") != fmt.Sprintf("bytes */%d", len(full)) {
				t.Fatalf("416: %v", resp.Header)
			}
		})
	}
}

// closeCounter is a payload file that counts its closes.
type closeCounter struct {
	*strings.Reader
	closed int
}

func (c *closeCounter) Close() error { c.closed++; return nil }

// TestSendContentBeforeBytes: the hook runs only when the answer is the
// bytes (a share link counts a download there), and when it refuses, the
// answer is its error alone: no 206, none of the headers that described
// the bytes, the file closed.
func TestSendContentBeforeBytes(t *testing.T) {
	const body = "hello, range"
	modified := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name      string
		method    string
		hdr       []string
		refuse    bool
		wantCalls int
		wantCode  int
	}{
		{"GET", http.MethodGet, nil, false, 1, http.StatusOK},
		{"HEAD", http.MethodHead, nil, false, 1, http.StatusOK},
		{"range", http.MethodGet, []string{"Range", "bytes=7-"}, false, 1, http.StatusPartialContent},
		{"fresh copy: 304", http.MethodGet, []string{"If-None-Match", `"v1"`}, false, 0, http.StatusNotModified},
		{"range past the end: 416", http.MethodGet, []string{"Range", "bytes=500-"}, false, 0, http.StatusRequestedRangeNotSatisfiable},
		{"refused GET", http.MethodGet, nil, true, 1, http.StatusGone},
		{"refused range", http.MethodGet, []string{"Range", "bytes=7-"}, true, 1, http.StatusGone},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			file := &closeCounter{Reader: strings.NewReader(body)}
			app := fiber.New(fiber.Config{ErrorHandler: func(c fiber.Ctx, err error) error {
				var e *APIError
				if !errors.As(err, &e) {
					t.Errorf("error %v, want an APIError", err)
					return err
				}
				return c.Status(e.Status).JSON(e)
			}})
			app.Get("/f", func(c fiber.Ctx) error {
				return sendContent(c, &content{
					contentType: "text/plain", etag: `"v1"`, lastModified: modified, ranges: true,
					identity: payload{size: int64(len(body)), file: file},
					beforeBytes: func() error {
						calls++
						if tc.refuse {
							return NewError(http.StatusGone, "gone")
						}
						return nil
					},
				})
			})
			req := httptest.NewRequest(tc.method, "/f", nil)
			for i := 0; i+1 < len(tc.hdr); i += 2 {
				req.Header.Set(tc.hdr[i], tc.hdr[i+1])
			}
			resp, err := app.Test(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.wantCode || calls != tc.wantCalls {
				t.Fatalf("status %d, hook ran %d times; want %d, %d", resp.StatusCode, calls, tc.wantCode, tc.wantCalls)
			}
			if !tc.refuse {
				return
			}
			for _, k := range []string{"ETag", "Last-Modified", "Accept-Ranges", "Content-Range", "Content-Encoding"} {
				if v := resp.Header.Get(k); v != "" {
					t.Errorf("%s: %q on the refusal", k, v)
				}
			}
			if file.closed != 1 {
				t.Errorf("file closed %d times", file.closed)
			}
		})
	}
}
