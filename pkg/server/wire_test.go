package server

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// The tests that need the real wire (body limits, streaming, connections
// kept or closed) talk to an app listening on a loopback port (base, from
// listen) instead of going through app.Test.

// overTCP sends req with a real client and returns the answer with its
// whole body read.
func overTCP(t testing.TB, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// dialApp opens a raw connection to the app at base, for requests written
// by hand; the caller closes it.
func dialApp(t *testing.T, base string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	return conn
}
