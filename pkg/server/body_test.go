package server

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/config"
)

// smuggled is a request hidden in a body. Parsed as a request, it would be
// answered with the API's JSON 404: an answer the tests never expect.
const smuggled = "GET /api/smuggled HTTP/1.1\r\nHost: x\r\n\r\n"

// pipelined follows every request (but a short one) on the same
// connection, as a proxy that reuses connections (or a pipelining client)
// sends the next one. It asks to
// close, so the server ends the connection after answering it.
const pipelined = "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"

// wireCase is a request written raw on a connection, its body framed by
// Content-Length or chunked, followed by the pipelined request.
type wireCase struct {
	name    string
	method  string
	path    string
	headers []string // "Name: value"
	body    []byte
	chunked bool
	// announce is the Content-Length sent (default len(body)); more than
	// the body sends makes a short body, and the client then stops sending.
	announce int
	// want is the first answer's status; 0 accepts any 4xx.
	want int
}

// answers sends the case on a new connection and reads every answer until
// the server closes it.
func (wc wireCase) answers(t *testing.T, base string) []*http.Response {
	t.Helper()
	conn := dialApp(t, base)
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	var raw bytes.Buffer
	fmt.Fprintf(&raw, "%s %s HTTP/1.1\r\nHost: test\r\n", wc.method, wc.path)
	for _, h := range wc.headers {
		raw.WriteString(h + "\r\n")
	}
	short := false
	if wc.chunked {
		raw.WriteString("Transfer-Encoding: chunked\r\n\r\n")
		if len(wc.body) > 0 {
			fmt.Fprintf(&raw, "%x\r\n%s\r\n", len(wc.body), wc.body)
		}
		raw.WriteString("0\r\n\r\n")
	} else {
		n := len(wc.body)
		if wc.announce > 0 {
			n = wc.announce
			short = n > len(wc.body)
		}
		fmt.Fprintf(&raw, "Content-Length: %d\r\n\r\n", n)
		raw.Write(wc.body)
	}
	if !short {
		// After a short body, every byte sent is body: nothing to pipeline.
		raw.WriteString(pipelined)
	}
	// The server may answer and close before it has read everything: the
	// answer must still be readable, so the write runs beside the reading.
	go func() {
		conn.Write(raw.Bytes())
		if short {
			conn.(*net.TCPConn).CloseWrite()
		}
	}()
	var out []*http.Response
	br := bufio.NewReader(conn)
	for {
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatalf("the server neither answered nor closed the connection (%d answers so far)", len(out))
			}
			return out
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		out = append(out, resp)
	}
}

// check: exactly one answer to the request, then at most the pipelined
// request's own; never an answer parsed from the body.
func (wc wireCase) check(t *testing.T, base string) {
	t.Helper()
	out := wc.answers(t, base)
	if len(out) == 0 {
		t.Fatal("no answer")
	}
	first := out[0]
	if wc.want != 0 && first.StatusCode != wc.want || wc.want == 0 && (first.StatusCode < 400 || first.StatusCode > 499) {
		b, _ := io.ReadAll(first.Body)
		t.Fatalf("status %d (%s), want %d", first.StatusCode, b, wc.want)
	}
	if first.StatusCode >= 400 && !first.Close && len(out) == 1 {
		t.Fatal("the connection was closed without Connection: close on the answer")
	}
	for i, r := range out[1:] {
		b, _ := io.ReadAll(r.Body)
		if i > 0 || r.StatusCode != 200 || string(b) != "ok" {
			t.Fatalf("answer %d: %d %q — a request was parsed from the body", i+2, r.StatusCode, b)
		}
	}
	if wc.announce > len(wc.body) && len(out) != 1 {
		t.Fatalf("%d answers to a short body, whose following bytes are body, not a request", len(out))
	}
}

// overlong is a body that carries more than its route takes, with a
// request hidden past what the route reads.
func overlong(n int) []byte {
	return append(bytes.Repeat([]byte("x"), n), smuggled...)
}

// A body is never parsed as requests, whatever route it goes to and however
// the route stops reading it: too long (announced or chunked), short (the
// client stops before its announced length), or refused before or during
// its reading.
func TestBodyNeverBecomesARequest(t *testing.T) {
	const limit = 4 << 10
	fa := newFilesTestAppWithConfig(t, func(c *config.Config) {
		c.Files.MaxUploadBytes = limit
		c.Files.RefusedUploadDrain = 5 * time.Second
	})
	base := fa.listen(t)
	auth := "Authorization: Bearer " + userToken
	multipart := "Content-Type: multipart/form-data; boundary=" + testBoundary
	tusHead := []string{auth, "Tus-Resumable: 1.0.0", "Content-Type: application/offset+octet-stream", "Upload-Offset: 0"}
	tusPost := []string{auth, "Tus-Resumable: 1.0.0", "Upload-Length: 10", "Content-Type: application/offset+octet-stream"}
	bigPart := multipartBody(filePart("big.bin", overlong(2*limit)))
	hugePart := multipartBody(filePart("huge.bin", overlong(256<<10)))

	cases := []struct {
		wc wireCase
		// tus: the case's path is a new upload of this length.
		tus int
	}{
		{wc: wireCase{name: "multipart over the limit, announced", method: "POST", path: "/api/files/upload",
			headers: []string{auth, multipart}, body: bigPart, want: 413}},
		{wc: wireCase{name: "multipart far over the limit, announced", method: "POST", path: "/api/files/upload",
			headers: []string{auth, multipart}, body: hugePart, want: 413}},
		{wc: wireCase{name: "multipart over the limit, chunked", method: "POST", path: "/api/files/upload",
			headers: []string{auth, multipart}, body: bigPart, chunked: true, want: 413}},
		{wc: wireCase{name: "multipart far over the limit, chunked", method: "POST", path: "/api/files/upload",
			headers: []string{auth, multipart}, body: hugePart, chunked: true, want: 413}},
		{wc: wireCase{name: "multipart short", method: "POST", path: "/api/files/upload",
			headers: []string{auth, multipart}, body: multipartBody(filePart("a.bin", []byte("abc"))), announce: 3000, want: 400}},
		{wc: wireCase{name: "multipart with an epilogue", method: "POST", path: "/api/files/upload",
			headers: []string{auth, multipart}, body: append(multipartBody(filePart("e.bin", []byte("abc"))), smuggled...), want: 201}},
		{wc: wireCase{name: "multipart refused before reading (no token)", method: "POST", path: "/api/files/upload",
			headers: []string{multipart}, body: bigPart, want: 401}},
		{tus: 10, wc: wireCase{name: "tus PATCH over its length, chunked", method: "PATCH",
			headers: tusHead, body: []byte("0123456789" + smuggled), chunked: true, want: 413}},
		{tus: 10, wc: wireCase{name: "tus PATCH over its length, announced", method: "PATCH",
			headers: tusHead, body: []byte("0123456789" + smuggled), want: 413}},
		{tus: 10, wc: wireCase{name: "tus PATCH short", method: "PATCH",
			headers: tusHead, body: []byte("01234"), announce: 10}},
		{tus: 10, wc: wireCase{name: "tus PATCH far over its length, chunked", method: "PATCH",
			headers: tusHead, body: overlong(256 << 10), chunked: true, want: 413}},
		{tus: 10, wc: wireCase{name: "tus PATCH of another's upload", method: "PATCH",
			headers: append([]string{"Authorization: Bearer " + adminToken}, tusHead[1:]...), body: overlong(10), want: 404}},
		{wc: wireCase{name: "tus POST with a body over its length, announced", method: "POST", path: "/api/files/tus/",
			headers: tusPost, body: overlong(10), want: 413}},
		{wc: wireCase{name: "tus POST with a body over its length, chunked", method: "POST", path: "/api/files/tus/",
			headers: tusPost, body: overlong(10), chunked: true, want: 413}},
		{wc: wireCase{name: "tus POST with a body that fits, chunked", method: "POST", path: "/api/files/tus/",
			headers: tusPost, body: []byte("0123456789"), chunked: true, want: 201}},
		{wc: wireCase{name: "tus POST refused before reading (over the limit)", method: "POST", path: "/api/files/tus/",
			headers: []string{auth, "Tus-Resumable: 1.0.0", "Upload-Length: 99999", "Content-Type: application/offset+octet-stream"},
			body:    overlong(10), chunked: true, want: 413}},
		{wc: wireCase{name: "a GET with a body", method: "GET", path: "/api/files", body: []byte(smuggled), want: 200}},
	}
	for _, c := range cases {
		t.Run(c.wc.name, func(t *testing.T) {
			if c.tus > 0 {
				c.wc.path = fa.tusCreate(t, userToken, c.tus, "t.bin")
			}
			c.wc.check(t, base)
		})
	}
}

// The same on the games' raw-body routes: save states, ROMs and covers.
func TestGameBodiesNeverBecomeRequests(t *testing.T) {
	f := newGamesFixture(t, func(o *Options) { o.Config.Files.RefusedUploadDrain = 5 * time.Second })
	base := f.ta.listen(t)
	state := fmt.Sprintf("/api/games/%d/states/auto", f.nesID)
	user := []string{"Authorization: Bearer " + userToken, "X-Emulator-Core: fceumm", "Content-Type: application/octet-stream"}
	admin := []string{"Authorization: Bearer " + adminToken, "Content-Type: application/octet-stream"}
	cover := fmt.Sprintf("/api/games/%d/cover?file=c.png", f.nesID)
	cases := []wireCase{
		{name: "state over the limit, announced", method: "PUT", path: state, headers: user, body: overlong(80 << 10), want: 413},
		{name: "state over the limit, chunked", method: "PUT", path: state, headers: user, body: overlong(80 << 10), chunked: true, want: 413},
		{name: "state short", method: "PUT", path: state, headers: user, body: []byte("st"), announce: 4000},
		{name: "state refused before reading (no core)", method: "PUT", path: state, headers: user[:1], body: overlong(100), want: 400},
		{name: "ROM over the limit, announced", method: "POST", path: "/api/games/roms?file=Big.nes", headers: admin, body: overlong(2000), want: 413},
		{name: "ROM over the limit, chunked", method: "POST", path: "/api/games/roms?file=Big.nes", headers: admin, body: overlong(2000), chunked: true, want: 413},
		{name: "ROM short", method: "POST", path: "/api/games/roms?file=Short.nes", headers: admin, body: []byte("NES\x1a"), announce: 500, want: 400},
		{name: "ROM refused before reading (not an admin)", method: "POST", path: "/api/games/roms?file=U.nes", headers: user[:1], body: overlong(500), want: 403},
		{name: "cover over the limit, chunked", method: "PUT", path: cover, headers: admin, body: overlong(maxCoverBytes + 10), chunked: true, want: 413},
		{name: "cover short", method: "PUT", path: cover, headers: admin, body: testPNG[:20], announce: len(testPNG), want: 400},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.check(t, base) })
	}
}

// A handler that fails while it reads a body (a disk that fills up mid-write)
// answers once; the rest of the body is dropped (small) or the connection
// closed after the answer (large), never parsed. A JSON body is read whole
// (within server.body_limit) before its handler: what follows it on the
// connection is the next request, and what its framing holds is never one.
func TestBodyFailingMidReadAndJSON(t *testing.T) {
	ta := newTestAppWithRoutes(t, func(o *Options) { o.Config.Files.RefusedUploadDrain = 5 * time.Second }, func(app *fiber.App) {
		app.Post("/test/fails-mid-write", func(c fiber.Ctx) error {
			io.CopyN(io.Discard, requestBody(c), 1000)
			return NewError(fiber.StatusInsufficientStorage, "storage full")
		})
		app.Post("/api/test/json", func(c fiber.Ctx) error {
			var v map[string]string
			if err := bindJSON(c, &v); err != nil {
				return err
			}
			return c.JSON(v)
		})
	})
	base := ta.listen(t)
	fail := func(c wireCase) wireCase {
		c.method, c.path, c.want = "POST", "/test/fails-mid-write", 507
		return c
	}
	json := []string{"Content-Type: application/json"}
	for _, c := range []wireCase{
		fail(wireCase{name: "failing mid-write, small, announced", body: overlong(4000)}),
		fail(wireCase{name: "failing mid-write, small, chunked", body: overlong(4000), chunked: true}),
		fail(wireCase{name: "failing mid-write, large, announced", body: overlong(1 << 20)}),
		fail(wireCase{name: "failing mid-write, large, chunked", body: overlong(1 << 20), chunked: true}),
		{name: "JSON with a request in its framing, announced", method: "POST", path: "/api/test/json", headers: json,
			body: []byte(`{"a":"b"}` + smuggled), want: 400},
		{name: "JSON with a request in its framing, chunked", method: "POST", path: "/api/test/json", headers: json,
			body: []byte(`{"a":"b"}` + smuggled), chunked: true, want: 400},
		{name: "JSON over the body limit, announced", method: "POST", path: "/api/test/json", headers: json,
			body: overlong(2 << 20), want: 413},
		{name: "JSON over the body limit, chunked", method: "POST", path: "/api/test/json", headers: json,
			body: overlong(2 << 20), chunked: true, want: 413},
		{name: "JSON short", method: "POST", path: "/api/test/json", headers: json, body: []byte(`{"a":`), announce: 40, want: 400},
		{name: "JSON that fits", method: "POST", path: "/api/test/json", headers: json, body: []byte(`{"a":"b"}`), want: 200},
	} {
		t.Run(c.name, func(t *testing.T) { c.check(t, base) })
	}
}

// An upload announced over its limit is answered before its body is sent:
// the client learns at once, and nothing of the body is kept. (fasthttp reads
// the first 8 KiB of any body before a handler runs; the test sends those.)
func TestAnnouncedOverLimitAnsweredAtOnce(t *testing.T) {
	fa := newFilesTestAppWithConfig(t, func(c *config.Config) { c.Files.MaxUploadBytes = 1 << 20 })
	base := fa.listen(t)
	f := newGamesFixture(t)
	gbase := f.ta.listen(t)
	tusPath := fa.tusCreate(t, userToken, 100, "t.bin")
	cases := []struct {
		name, base, head string
	}{
		{"multipart", base, "POST /api/files/upload HTTP/1.1\r\nAuthorization: Bearer " + userToken +
			"\r\nContent-Type: multipart/form-data; boundary=" + testBoundary},
		{"tus creation", base, "POST /api/files/tus/ HTTP/1.1\r\nAuthorization: Bearer " + userToken +
			"\r\nTus-Resumable: 1.0.0\r\nUpload-Length: " + strconv.Itoa(2<<20)},
		{"tus PATCH", base, "PATCH " + tusPath + " HTTP/1.1\r\nAuthorization: Bearer " + userToken +
			"\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\nContent-Type: application/offset+octet-stream"},
		{"save state", gbase, fmt.Sprintf("PUT /api/games/%d/states/1 HTTP/1.1\r\nAuthorization: Bearer %s\r\nX-Emulator-Core: fceumm", f.nesID, userToken)},
		{"ROM", gbase, "POST /api/games/roms?file=A.nes HTTP/1.1\r\nAuthorization: Bearer " + adminToken},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", strings.TrimPrefix(c.base, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			conn.SetDeadline(time.Now().Add(10 * time.Second))
			fmt.Fprintf(conn, "%s\r\nHost: test\r\nContent-Length: %d\r\n\r\n%s", c.head, 200<<20, bytes.Repeat([]byte("x"), 8<<10))
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("no answer before the body: %v", err)
			}
			resp.Body.Close()
			if resp.StatusCode != 413 || !resp.Close {
				t.Fatalf("status %d, Connection: close %v; want 413 and close", resp.StatusCode, resp.Close)
			}
		})
	}
}
