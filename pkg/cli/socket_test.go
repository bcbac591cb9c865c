package cli

import (
	"encoding/gob"
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
