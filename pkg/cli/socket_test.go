package cli

import (
	"bytes"
	"encoding/gob"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// Stdin travels on demand: a command reading stdin gets the caller's bytes.
func TestOwnerSocketForwardsStdin(t *testing.T) {
	ti := newTestInstance(t)
	runningServer(t)
	body := strings.Repeat("Line of the article body.\n", 5000) // several stdin frames
	_, stderr, code := ti.run(body, "article", "create", "--name", "Piped", "--excerpt", "e", "--category", "c", "--file", "-")
	if code != 0 {
		t.Fatalf("create through the socket: %s", stderr)
	}
	out, stderr, code := ti.run("", "article", "list", "--json")
	if code != 0 || !strings.Contains(out, "Piped") {
		t.Fatalf("list: %d %s %s", code, out, stderr)
	}
}

// A caller that hangs up mid-command (Ctrl-C) ends the command in the
// server: it neither hangs the server's shutdown nor half-creates anything.
func TestOwnerSocketCallerHangsUp(t *testing.T) {
	ti := newTestInstance(t)
	cfg, svc, sock := runningServer(t)
	path := cfg.SocketPath()

	conn, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	enc, dec := gob.NewEncoder(conn), gob.NewDecoder(conn)
	var f frame
	if err := dec.Decode(&f); err != nil || f.Kind != frameHello {
		t.Fatalf("hello: %v %v", f.Kind, err)
	}
	args := []string{"article", "create", "--name", "Half", "--excerpt", "e", "--category", "c", "--file", "-"}
	if err := enc.Encode(frame{Kind: frameRequest, Args: args, Cwd: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	if err := dec.Decode(&f); err != nil || f.Kind != frameStdinRequest {
		t.Fatalf("want a stdin request, got %v %v", f.Kind, err)
	}
	enc.Encode(frame{Kind: frameStdin, Data: []byte("# partial body")})
	if err := dec.Decode(&f); err != nil || f.Kind != frameStdinRequest {
		t.Fatalf("want a second stdin request, got %v %v", f.Kind, err)
	}
	conn.Close() // the caller is gone before EOF

	closed := make(chan struct{})
	go func() { sock.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("the server still runs the abandoned command")
	}
	svc.Close() // the server is gone; the CLI now opens the store itself
	out, stderr, code := ti.run("", "article", "list", "--json")
	if code != 0 {
		t.Fatalf("list after the server stopped: %s", stderr)
	}
	if strings.Contains(out, "Half") {
		t.Fatalf("an abandoned create left an article: %s", out)
	}
}

// A frame that announces more than maxFrameBytes is refused from its length
// prefix, before anything is allocated for it; frames within the cap pass.
func TestFrameLimitReader(t *testing.T) {
	var ok bytes.Buffer
	enc := gob.NewEncoder(&ok)
	for _, f := range []frame{{Kind: frameRequest, Args: []string{"user", "list"}}, {Kind: frameStdin, Data: bytes.Repeat([]byte("x"), 64<<10)}} {
		if err := enc.Encode(f); err != nil {
			t.Fatal(err)
		}
	}
	dec := gob.NewDecoder(newFrameLimitReader(&ok, maxFrameBytes))
	for i := 0; i < 2; i++ {
		var f frame
		if err := dec.Decode(&f); err != nil {
			t.Fatalf("frame %d within the cap: %v", i, err)
		}
	}
	for name, prefix := range map[string][]byte{
		"200 MB":          {0xFC, 0x0B, 0xEB, 0xC2, 0x00}, // 4 bytes: 200_000_000
		"cap plus one":    {0xFD, 0x10, 0x00, 0x01},       // 3 bytes: 1 MiB + 1
		"9-byte count":    {0xF7, 1, 2, 3, 4, 5, 6, 7, 8, 9},
		"zero-byte count": {0x80},
	} {
		r := newFrameLimitReader(bytes.NewReader(append(prefix, make([]byte, 64)...)), maxFrameBytes)
		if _, err := r.Read(make([]byte, 4096)); !errors.Is(err, errFrameTooBig) {
			t.Errorf("%s: %v, want errFrameTooBig", name, err)
		}
	}
}

// The server drops a connection that announces an oversized frame, and one
// that sends no request at all, instead of holding memory or a goroutine.
func TestOwnerSocketRefusesOversizedFrame(t *testing.T) {
	newTestInstance(t)
	cfg, _, _ := runningServer(t)
	conn, err := net.Dial("unix", cfg.SocketPath())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var hello frame
	if err := gob.NewDecoder(conn).Decode(&hello); err != nil || hello.Kind != frameHello {
		t.Fatalf("hello: %v", err)
	}
	// A gob message announcing 200 MB, then nothing.
	conn.Write([]byte{0xFC, 0x0B, 0xEB, 0xC2, 0x00})
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := conn.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Fatalf("the server kept the connection: %v", err)
	}
}

// FuzzFrameReader: whatever a client writes on the owner socket, decoding
// frames through the size cap ends in a frame or an error — never a panic
// and never a frame over the cap.
func FuzzFrameReader(f *testing.F) {
	var ok bytes.Buffer
	gob.NewEncoder(&ok).Encode(frame{Kind: frameRequest, Args: []string{"user", "list", "--json"}, Cwd: "/tmp"})
	f.Add(ok.Bytes())
	f.Add([]byte{0xFC, 0x0B, 0xEB, 0xC2, 0x00})
	f.Add([]byte{0x80})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		dec := gob.NewDecoder(newFrameLimitReader(bytes.NewReader(data), maxFrameBytes))
		for i := 0; i < 4; i++ {
			var fr frame
			if err := dec.Decode(&fr); err != nil {
				return
			}
			if len(fr.Data) > maxFrameBytes {
				t.Fatalf("a %d-byte frame passed the cap", len(fr.Data))
			}
		}
	})
}
