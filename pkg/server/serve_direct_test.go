package server

import (
	"bytes"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/storage"
)

func serveDirectOn(c *config.Config) {
	c.Storage.Backend = storage.S3
	c.Storage.S3.ServeDirect = true
}

// fetchPresigned follows a redirect's Location to the object store (a real
// MinIO) and returns its answer.
func fetchPresigned(t *testing.T, loc string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	u, err := url.Parse(loc)
	if err != nil || u.Query().Get("X-Amz-Signature") == "" {
		t.Fatalf("Location %q is not a presigned URL", loc)
	}
	req, _ := http.NewRequest(http.MethodGet, loc, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return overTCP(t, req)
}

// checkRedirect asserts a 307 to a presigned URL valid for presignExpiry
// that nothing caches, and that the store answers it with want as an
// attachment named name.
func checkRedirect(t *testing.T, step string, resp *http.Response, body []byte, want []byte, name string) {
	t.Helper()
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusTemporaryRedirect || loc == "" || len(body) != 0 {
		t.Fatalf("%s: %d Location %q, want a 307 (%d body bytes)", step, resp.StatusCode, loc, len(body))
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "private, no-store" {
		t.Fatalf("%s: Cache-Control %q", step, cc)
	}
	u, _ := url.Parse(loc)
	if got := u.Query().Get("X-Amz-Expires"); got != strconv.Itoa(int(presignExpiry/time.Second)) {
		t.Fatalf("%s: X-Amz-Expires %q", step, got)
	}
	sresp, sbody := fetchPresigned(t, loc)
	if sresp.StatusCode != http.StatusOK || !bytes.Equal(sbody, want) {
		t.Fatalf("%s: the store answered %d with %d bytes, want %d", step, sresp.StatusCode, len(sbody), len(want))
	}
	disp, params, err := mime.ParseMediaType(sresp.Header.Get("Content-Disposition"))
	if err != nil || disp != "attachment" || params["filename"] != name {
		t.Fatalf("%s: the store's Content-Disposition %q", step, sresp.Header.Get("Content-Disposition"))
	}
	if ct := sresp.Header.Get("Content-Type"); ct == "" {
		t.Fatalf("%s: no Content-Type from the store", step)
	}
	// Range goes to the store with the redirect, and it serves the range.
	if len(want) > 10 {
		rresp, rbody := fetchPresigned(t, loc, "Range", "bytes=3-9")
		if rresp.StatusCode != http.StatusPartialContent || !bytes.Equal(rbody, want[3:10]) {
			t.Fatalf("%s: range at the store: %d %q", step, rresp.StatusCode, rbody)
		}
	}
}

// File routes: a file on S3 downloads through a redirect once the same
// visibility checks pass; refused requests, HEAD and inline previews are
// answered by devhub as before.
func TestServeDirectFiles(t *testing.T) {
	const metricsToken = "metrics-token-0123456789"
	fa := newFilesTestAppWithConfig(t, func(c *config.Config) {
		serveDirectOn(c)
		c.Metrics.Enabled, c.Metrics.Token = true, metricsToken
	})
	data := randomBytes(200 << 10)
	pub := fa.upload(t, filePart("notes 1.bin", data))[0]
	img := fa.upload(t, filePart("a.png", testPNG))[0]
	priv := fa.upload(t, filePart("secret.bin", data[:5000]))[0]
	if resp, body := fa.do(t, jsonRequest(http.MethodPatch, "/api/files/"+itoa(priv.ID), userToken, `{"visibility":"private"}`)); resp.StatusCode != 200 {
		t.Fatalf("make private: %d %s", resp.StatusCode, body)
	}
	dl := func(id uint64) string { return "/api/files/" + itoa(id) + "/download" }
	stream := func(id uint64) string { return "/api/files/stream/" + itoa(id) }

	resp, body := fa.do(t, get(dl(pub.ID)))
	checkRedirect(t, "public file", resp, body, data, "notes 1.bin")
	resp, body = fa.do(t, get(dl(pub.ID), "Sec-Fetch-Mode", "navigate"))
	checkRedirect(t, "a browser's navigation", resp, body, data, "notes 1.bin")
	resp, body = fa.do(t, get("/api/api/files/"+itoa(pub.ID)+"/download"))
	checkRedirect(t, "the alias", resp, body, data, "notes 1.bin")
	resp, body = fa.do(t, get(stream(pub.ID)))
	checkRedirect(t, "a type shown as an attachment on the stream route", resp, body, data, "notes 1.bin")
	resp, body = fa.do(t, withToken(get(dl(priv.ID)), userToken))
	checkRedirect(t, "the owner's private file", resp, body, data[:5000], "secret.bin")
	resp, body = fa.do(t, withToken(get(dl(priv.ID)), adminToken))
	checkRedirect(t, "an admin, a private file", resp, body, data[:5000], "secret.bin")

	for _, tc := range []struct {
		name string
		req  *http.Request
		want int
		body []byte
	}{
		{"guest, private file", get(dl(priv.ID)), 404, nil},
		{"another user, private file", withToken(get(dl(priv.ID)), otherToken), 404, nil},
		{"no such file", get(dl(priv.ID + 100)), 404, nil},
		{"fresh copy", get(dl(pub.ID), "If-None-Match", `"`+pub.SHA256+`"`), 304, nil},
		{"range past the end", get(dl(pub.ID), "Range", "bytes=999999999-"), 416, nil},
		{"HEAD", httptest.NewRequest(http.MethodHead, dl(pub.ID), nil), 200, nil},
		{"the page's fetch", get(dl(pub.ID), "Sec-Fetch-Mode", "cors"), 200, data},
		{"inline preview", get(stream(img.ID)), 200, testPNG},
		{"inline preview, range", get(stream(img.ID), "Range", "bytes=0-9"), 206, testPNG[:10]},
	} {
		resp, body := fa.do(t, tc.req)
		if resp.StatusCode != tc.want || resp.Header.Get("Location") != "" {
			t.Fatalf("%s: %d Location %q, want %d without one", tc.name, resp.StatusCode, resp.Header.Get("Location"), tc.want)
		}
		if tc.body != nil && !bytes.Equal(body, tc.body) {
			t.Fatalf("%s: body differs", tc.name)
		}
	}
	// The metrics: six downloads went to the store (their bytes never
	// passed here), and the bytes devhub sent are the page's fetch, the
	// preview and its range; HEAD, 304, 416 and refusals sent none.
	_, m := fa.do(t, withToken(get("/metrics"), metricsToken))
	for _, want := range []string{"devhub_download_redirects_total 6\n",
		"devhub_download_bytes_total " + itoa(uint64(len(data)+len(testPNG)+10)) + "\n"} {
		if !strings.Contains(string(m), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if resp, _ := fa.do(t, get(stream(img.ID))); resp.Header.Get("Content-Security-Policy") != userFileCSP ||
		resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatal("an inline preview lost its sandbox headers")
	}
}

// With local storage the option changes nothing: the bytes come from devhub.
func TestServeDirectLocalIgnored(t *testing.T) {
	fa := newFilesTestAppWithConfig(t, func(c *config.Config) { c.Storage.S3.ServeDirect = true })
	data := randomBytes(3000)
	f := fa.upload(t, filePart("x.bin", data))[0]
	resp, body := fa.do(t, get("/api/files/"+itoa(f.ID)+"/download"))
	if resp.StatusCode != 200 || !bytes.Equal(body, data) || resp.Header.Get("Location") != "" {
		t.Fatalf("local file: %d, %d bytes, Location %q", resp.StatusCode, len(body), resp.Header.Get("Location"))
	}
}

// Share links: the redirect counts exactly as the bytes did — once per
// visit, never for HEAD, a bot, a 304 or a 416 — the link's maximum holds,
// and a locked or used-up link never redirects.
func TestServeDirectShares(t *testing.T) {
	sa := newSharesTestAppWithConfig(t, serveDirectOn)
	data := randomBytes(100 << 10)
	f := sa.uploadFile(t, "data.bin", data, true)
	sh := sa.createShare(t, f.ID, userToken, `{"maxDownloads":2}`)
	locked := sa.createShare(t, f.ID, userToken, `{"password":"correct horse"}`)
	if resp, _ := sa.shareGet(t, http.MethodGet, locked.Token); resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("Location") != "" {
		t.Fatalf("locked link: %d Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	var visit string
	steps := []struct {
		name     string
		method   string
		hdr      func() []string
		want     int
		counted  int
		redirect bool
	}{
		{"HEAD", http.MethodHead, nil, 200, 0, false},
		{"bot", http.MethodGet, func() []string { return []string{"User-Agent", "TelegramBot (like TwitterBot)"} }, 403, 0, false},
		{"range past the end", http.MethodGet, func() []string { return []string{"Range", "bytes=999999-"} }, 416, 0, false},
		{"fresh copy", http.MethodGet, func() []string { return []string{"If-None-Match", `"` + f.SHA256 + `"`} }, 304, 0, false},
		{"first visit", http.MethodGet, nil, 307, 1, true},
		{"the same visit resumes", http.MethodGet, func() []string { return []string{"Cookie", visit, "Range", "bytes=10-"} }, 307, 1, true},
		{"a second visit", http.MethodGet, func() []string { return []string{"Range", "bytes=10-"} }, 307, 2, true},
		{"used up", http.MethodGet, nil, 410, 2, false},
	}
	for _, st := range steps {
		var hdr []string
		if st.hdr != nil {
			hdr = st.hdr()
		}
		resp, body := sa.shareGet(t, st.method, sh.Token, hdr...)
		if st.redirect {
			checkRedirect(t, st.name, resp, body, data, "data.bin")
		} else if resp.StatusCode != st.want || resp.Header.Get("Location") != "" {
			t.Fatalf("%s: %d Location %q, want %d", st.name, resp.StatusCode, resp.Header.Get("Location"), st.want)
		}
		if st.name == "first visit" {
			if visit = cookieHeader(resp, shareCountedCookie); visit == "" {
				t.Fatal("the counted visit's cookie was not set with the redirect")
			}
		}
		if got, _ := sa.shares.Get(sh.Token); got.Downloads != st.counted {
			t.Fatalf("%s: %d downloads counted, want %d", st.name, got.Downloads, st.counted)
		}
	}
	img := sa.uploadFile(t, "p.png", testPNG, false)
	ish := sa.createShare(t, img.ID, userToken, `{}`)
	req := httptest.NewRequest(http.MethodGet, "/s/"+ish.Token+"/download?inline=1", nil)
	if resp, body := sa.do(t, req); resp.StatusCode != 200 || !bytes.Equal(body, testPNG) || resp.Header.Get("Location") != "" {
		t.Fatalf("inline share preview: %d Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
}

// The presigned URL stops working once presignExpiry has passed.
func TestServeDirectExpires(t *testing.T) {
	old := presignExpiry
	presignExpiry = 2 * time.Second
	t.Cleanup(func() { presignExpiry = old })
	fa := newFilesTestAppWithConfig(t, serveDirectOn)
	data := randomBytes(1000)
	f := fa.upload(t, filePart("x.bin", data))[0]
	resp, body := fa.do(t, get("/api/files/"+itoa(f.ID)+"/download"))
	checkRedirect(t, "download", resp, body, data, "x.bin")
	time.Sleep(3 * time.Second)
	if sresp, _ := fetchPresigned(t, resp.Header.Get("Location")); sresp.StatusCode != http.StatusForbidden {
		t.Fatalf("after expiry the store answered %d, want 403", sresp.StatusCode)
	}
}

// Release files: counted once per visitor and day, never for HEAD, a bot,
// a 304 or a 416, whether the answer is the bytes or the redirect.
func TestServeDirectDownloads(t *testing.T) {
	da := newDownloadsTestAppWith(t, storage.S3, serveDirectOn)
	data := randomBytes(50 << 10)
	f := da.releaseOneFile(t, data)
	// A 307 sends the client to the bucket; every other answer comes from
	// devhub itself, without a Location.
	da.countSteps(t, f, []countStep{
		{"HEAD", http.MethodHead, nil, 0, 200, 0},
		{"bot", http.MethodGet, []string{"User-Agent", "TelegramBot (like TwitterBot)"}, 0, 307, 0},
		{"304", http.MethodGet, []string{"If-None-Match", `"` + f.SHA256 + `"`}, 0, 304, 0},
		{"416", http.MethodGet, []string{"Range", "bytes=999999-"}, 0, 416, 0},
		{"first", http.MethodGet, nil, 0, 307, 1},
		{"same visitor", http.MethodGet, []string{"Range", "bytes=10-"}, 0, 307, 0},
		{"a signed-in visitor", http.MethodGet, []string{"Authorization", "Bearer " + userToken}, 25 * time.Hour, 307, 1},
		{"the next day", http.MethodGet, nil, 0, 307, 1},
	}, func(st countStep, resp *http.Response, body []byte) {
		if st.want == http.StatusTemporaryRedirect {
			checkRedirect(t, st.name, resp, body, data, "t.exe")
		} else if resp.StatusCode != st.want || resp.Header.Get("Location") != "" {
			t.Fatalf("%s: %d Location %q, want %d", st.name, resp.StatusCode, resp.Header.Get("Location"), st.want)
		}
	})
	if resp, _ := da.do(t, get("/api/downloads/tool/files/nope")); resp.StatusCode != 404 || resp.Header.Get("Location") != "" {
		t.Fatalf("unknown file: %d Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
}
