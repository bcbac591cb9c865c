package server

import (
	"bytes"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
)

// A connection of the server's listener keeps the TCP connection's
// ReadFrom reachable (a file copied into it goes out with sendfile), and
// the bytes arrive whole, also for a part of a file.
func TestLingerConnPassesReadFromThrough(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := LingerListener(raw)
	defer ln.Close()
	client, err := net.Dial("tcp", raw.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	conn, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	rf, ok := conn.(io.ReaderFrom)
	if !ok {
		t.Fatal("the listener's connection hides ReadFrom")
	}
	if _, ok := conn.(*lingerConn).Conn.(io.ReaderFrom); !ok {
		t.Fatal("the wrapped connection is not a TCP connection with ReadFrom")
	}

	data := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := make(chan []byte, 1)
	go func() { b, _ := io.ReadAll(client); got <- b }()
	if _, err := f.Seek(3, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	n, err := rf.ReadFrom(&io.LimitedReader{R: f, N: int64(len(data) - 10)})
	if err != nil || n != int64(len(data)-10) {
		t.Fatalf("ReadFrom: %d %v", n, err)
	}
	conn.Close()
	if b := <-got; !bytes.Equal(b, data[3:len(data)-7]) {
		t.Fatalf("received %d bytes, not the file's part", len(b))
	}
}
