package storage_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/storage"
)

// tcpSink is a loopback TCP connection whose far end collects what is
// written to w: the way an HTTP response reaches a client, so CopyTo's
// splice from the store's socket into this one runs as in serving.
func tcpSink(t *testing.T) (w *bufio.Writer, received func() []byte) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	// Accepted here, before the listener closes: a connection still
	// waiting in the backlog when it does is reset.
	c, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(c)
		c.Close()
		got <- b
	}()
	t.Cleanup(func() { conn.Close() })
	w = bufio.NewWriter(conn)
	w.WriteString("HTTP/1.1 200 OK\r\n\r\n") // something buffered, as fasthttp's header is
	return w, func() []byte {
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		conn.Close()
		return bytes.TrimPrefix(<-got, []byte("HTTP/1.1 200 OK\r\n\r\n"))
	}
}

// TestS3CopyTo: the bytes CopyTo sends are the object's, from wherever the
// reader stands, for large copies (a GET of their own, spliced when the
// destination is a socket) and small ones (minio-go's body), and reading
// goes on correctly after a copy.
func TestS3CopyTo(t *testing.T) {
	data := random(9<<20 + 7)
	t.Run("own connection", func(t *testing.T) { testCopyTo(t, newS3(t), data) })
	t.Run("minio-go's connections", func(t *testing.T) { testCopyTo(t, storage.PooledGets(newS3(t)), data) })
}

func testCopyTo(t *testing.T, st *storage.S3Store, data []byte) {
	size := int64(len(data))
	put(t, st, keyA, data)
	cases := []struct {
		name   string
		off, n int64
		socket bool // to a TCP connection, else to a bytes.Buffer
		want   int64
	}{
		{"whole object to a socket", 0, size, true, size},
		{"whole object to a buffer", 0, size, false, size},
		{"a range to the end", 1<<20 + 3, size - (1<<20 + 3), true, size - (1<<20 + 3)},
		{"a large middle range", 100, 5 << 20, true, 5 << 20},
		{"a small range", 10, 1000, true, 1000},
		{"more than is left", size - 4<<20 - 1, 8 << 20, true, 4<<20 + 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, _, err := st.Open(context.Background(), keyA)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if _, err := r.Seek(tc.off, io.SeekStart); err != nil {
				t.Fatal(err)
			}
			var got []byte
			var n int64
			if tc.socket {
				w, received := tcpSink(t)
				n, err = r.(storage.Copier).CopyTo(w, tc.n)
				got = received()
			} else {
				var buf bytes.Buffer
				n, err = r.(storage.Copier).CopyTo(&buf, tc.n)
				got = buf.Bytes()
			}
			if err != nil || n != tc.want || !bytes.Equal(got, data[tc.off:tc.off+tc.want]) {
				t.Fatalf("CopyTo sent %d bytes (%d received), want %d; err %v; bytes equal: %v",
					n, len(got), tc.want, err, bytes.Equal(got, data[tc.off:tc.off+min(tc.want, int64(len(got)))]))
			}
			// Reading goes on where the copy stopped.
			next := make([]byte, 3)
			k, err := io.ReadFull(r, next)
			if end := tc.off + tc.want; end == size {
				if k != 0 || err != io.EOF {
					t.Fatalf("read at the end: %d, %v", k, err)
				}
			} else if err != nil || !bytes.Equal(next, data[end:end+3]) {
				t.Fatalf("read after the copy: %v", err)
			}
		})
	}

	t.Run("object gone before the copy", func(t *testing.T) {
		put(t, st, keyB, data)
		r, _, err := st.Open(context.Background(), keyB)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		// Read to the end first: MinIO holds an object's lock while a GET of it is unfinished.
		if _, err := io.ReadAll(r); err != nil {
			t.Fatal(err)
		}
		if err := st.Delete(context.Background(), keyB); err != nil {
			t.Fatal(err)
		}
		r.Seek(1, io.SeekStart)
		if n, err := r.(storage.Copier).CopyTo(io.Discard, size); n != 0 || !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("CopyTo of a deleted object: %d bytes, %v", n, err)
		}
	})

	t.Run("cancelled request", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		r, _, err := st.Open(ctx, keyA)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		cancel()
		r.Seek(1, io.SeekStart)
		if n, err := r.(storage.Copier).CopyTo(io.Discard, size); n != 0 || !errors.Is(err, context.Canceled) {
			t.Fatalf("CopyTo after the request was cancelled: %d bytes, %v", n, err)
		}
	})
}

// TestS3CopyCutShort: when the store's answer ends before its
// Content-Length, CopyTo says so (a client must not get a short file as
// if it were whole).
func TestS3CopyCutShort(t *testing.T) {
	const size = 6 << 20
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead { // the bucket exists
			return
		}
		w.Header().Set("Last-Modified", "Mon, 23 Nov 2026 12:00:00 GMT")
		w.Header().Set("ETag", `"e"`)
		off := 0
		if rg := r.Header.Get("Range"); rg != "" {
			off, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(rg, "bytes="), "-"))
			w.Header().Set("Content-Range", "bytes "+strconv.Itoa(off)+"-"+strconv.Itoa(size-1)+"/"+strconv.Itoa(size))
			w.Header().Set("Content-Length", strconv.Itoa(size-off))
			w.WriteHeader(http.StatusPartialContent)
		} else {
			w.Header().Set("Content-Length", strconv.Itoa(size))
		}
		w.Write(make([]byte, (size-off)/2)) // then the handler returns: the connection closes
	}))
	defer srv.Close()
	cfg := storage.S3Config{Endpoint: srv.URL, Bucket: "bucket", Region: "us-east-1", PathStyle: true, AccessKey: "k", SecretKey: "s"}
	own, err := storage.NewS3(context.Background(), cfg, validKey)
	if err != nil {
		t.Fatal(err)
	}
	pooled, err := storage.NewS3(context.Background(), cfg, validKey)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		st     storage.Store
		socket bool
	}{
		{"own connection to a socket", own, true},
		{"own connection to a buffer", own, false},
		{"minio-go's connection", storage.PooledGets(pooled), true},
	}
	for _, tc := range cases {
		st, socket := tc.st, tc.socket
		r, got, err := st.Open(context.Background(), keyA)
		if err != nil || got != size {
			t.Fatalf("Open: size %d, %v", got, err)
		}
		r.Seek(1, io.SeekStart)
		var w io.Writer = io.Discard
		if socket {
			w, _ = tcpSink(t)
		}
		if n, err := r.(storage.Copier).CopyTo(w, size-1); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("%s: a cut-off answer copied %d bytes with %v", tc.name, n, err)
		}
		r.Close()
	}
}

// TestDialAddr: a spliced GET dials the presigned URL's host at its port,
// and at 80 when the URL leaves it out (minio-go drops ":80" from the URLs
// of an endpoint such as http://minio.lan).
func TestDialAddr(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"http://127.0.0.1:9000/bucket/key?X-Amz-Signature=x", "127.0.0.1:9000"},
		{"http://minio.lan/bucket/key", "minio.lan:80"},
		{"http://bucket.minio.lan/key", "bucket.minio.lan:80"},
		{"http://[::1]/bucket/key", "[::1]:80"},
		{"http://[::1]:9000/bucket/key", "[::1]:9000"},
	} {
		u, err := url.Parse(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := storage.DialAddr(u); got != tc.want {
			t.Errorf("DialAddr(%s) = %q, want %q", tc.url, got, tc.want)
		}
	}
}
