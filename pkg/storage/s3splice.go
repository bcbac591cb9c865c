package storage

import (
	"bufio"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/minio/minio-go/v7"
)

// Copier is a reader that sends n bytes from its read position to w faster
// than a loop of Reads would. The HTTP layer uses it for response bodies.
type Copier interface {
	CopyTo(w io.Writer, n int64) (int64, error)
}

// CopyTo sends n bytes from the reader's position to w.
//
// When the store speaks plain HTTP (an S3 service on the same host or
// network, where copying is most of what a download costs), the GET has a
// connection of devhub's own: once the answer's header is read, the socket
// is handed to w's ReadFrom, which on Linux splices it into the client's
// socket without the bytes passing through user space. Measured with MinIO
// on the same two cores (make bench), devhub spent about a quarter less CPU
// per GiB downloaded (docs/files.md, "S3 backend"). Over TLS the minio-go
// body is copied with large reads.
func (r *s3Reader) CopyTo(w io.Writer, n int64) (int64, error) {
	n = min(n, r.size-r.off)
	if n <= 0 {
		return 0, nil
	}
	if !r.s.plainHTTP {
		bp := copyBufPool.Get().(*[]byte)
		defer copyBufPool.Put(bp)
		return io.CopyBuffer(w, onlyReader{io.LimitReader(r, n)}, *bp)
	}
	if err := r.at(); err != nil {
		return 0, err
	}
	m, err := r.body.(*rawBody).copyTo(w, n)
	r.off += m
	r.pos += m
	return m, err
}

// copyBufPool holds the buffers minio-go bodies are copied with: large
// reads, because every read costs a round of the client's machinery.
var copyBufPool = sync.Pool{New: func() any { b := make([]byte, 512<<10); return &b }}

// onlyReader hides every method but Read, so io.CopyBuffer uses the given
// buffer instead of a WriterTo that might allocate its own.
type onlyReader struct{ io.Reader }

// spliceGet GETs the object from off to its end on a new connection and
// returns the body and the object's size. The request is presigned by
// minio-go (signing needs no round trip) and written and answered by
// net/http's own Request.Write and ReadResponse; only the connection is
// devhub's, so the body's bytes can be read from the socket itself.
func (s *S3Store) spliceGet(ctx context.Context, key string, off int64) (*rawBody, int64, error) {
	u, err := s.c.Presign(ctx, http.MethodGet, s.bucket, key, 15*time.Minute, nil)
	if err != nil {
		return nil, 0, fmt.Errorf("storage: s3 presign: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, 0, err
	}
	req.Close = true
	if off > 0 {
		req.Header.Set("Range", "bytes="+strconv.FormatInt(off, 10)+"-")
	}
	// minio-go's own transport's dial limits: a store that is down fails a
	// download in 30 s on this path too, not after the system's SYN retries.
	d := net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", dialAddr(req.URL))
	if err != nil {
		return nil, 0, fmt.Errorf("storage: s3: %w", err)
	}
	b := &rawBody{conn: conn, stop: context.AfterFunc(ctx, func() { conn.Close() })}
	// The answer's header must come within minio-go's own limit; the body
	// then flows as fast as the client takes it.
	conn.SetDeadline(time.Now().Add(time.Minute))
	if err := req.Write(conn); err != nil {
		b.Close()
		return nil, 0, fmt.Errorf("storage: s3 GET: %w", err)
	}
	b.br = bufio.NewReaderSize(conn, 64<<10)
	resp, err := http.ReadResponse(b.br, req)
	if err != nil {
		b.Close()
		return nil, 0, fmt.Errorf("storage: s3 GET: %w", err)
	}
	conn.SetDeadline(time.Time{})
	size, err := s.answerSize(resp, off)
	if err != nil {
		b.Close()
		return nil, 0, err
	}
	b.left = resp.ContentLength
	return b, size, nil
}

// dialAddr is the host and port to dial for a plain-HTTP URL. minio-go
// leaves port 80 out of the URLs it makes (a browser would drop it and the
// signature would then not match), and a dial needs it.
func dialAddr(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// answerSize checks a GET's answer and returns the object's size, or the
// store's error (ErrNotFound for a missing key).
func (s *S3Store) answerSize(resp *http.Response, off int64) (int64, error) {
	switch resp.StatusCode {
	case http.StatusOK:
		if off == 0 && resp.ContentLength >= 0 {
			return resp.ContentLength, nil
		}
	case http.StatusPartialContent:
		_, total, ok := strings.Cut(resp.Header.Get("Content-Range"), "/")
		size, err := strconv.ParseInt(total, 10, 64)
		if ok && err == nil && resp.ContentLength == size-off {
			return size, nil
		}
	default:
		var er minio.ErrorResponse
		xml.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&er)
		if er.Code == "" {
			er.Code, er.Message = resp.Status, "no error document"
		}
		return 0, s.notFound(er)
	}
	return 0, fmt.Errorf("storage: s3 GET from %d: unexpected answer %s, Content-Length %d, Content-Range %q",
		off, resp.Status, resp.ContentLength, resp.Header.Get("Content-Range"))
}

// rawBody is a GET's body on a connection of its own: left bytes, the
// first of them perhaps already buffered in br with the header.
type rawBody struct {
	conn net.Conn
	br   *bufio.Reader
	left int64
	stop func() bool
}

func (b *rawBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.br.Read(p)
	b.left -= int64(n)
	if err == io.EOF && b.left > 0 {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// copyTo sends n bytes: what came with the header, then the socket itself
// through w's ReadFrom (bufio.Writer passes it on to the client's TCP
// connection once its buffer is flushed, and TCPConn.ReadFrom splices
// from a LimitedReader over a TCPConn).
func (b *rawBody) copyTo(w io.Writer, n int64) (int64, error) {
	n = min(n, b.left)
	var done int64
	if k := min(int64(b.br.Buffered()), n); k > 0 {
		head, _ := b.br.Peek(int(k))
		m, err := w.Write(head)
		b.br.Discard(m)
		done += int64(m)
		b.left -= int64(m)
		if err != nil {
			return done, err
		}
	}
	if done == n {
		return done, nil
	}
	if fl, ok := w.(interface{ Flush() error }); ok {
		if err := fl.Flush(); err != nil {
			return done, err
		}
	}
	m, err := io.Copy(w, &io.LimitedReader{R: b.conn, N: n - done})
	done += m
	b.left -= m
	if err == nil && done < n {
		err = io.ErrUnexpectedEOF
	}
	return done, err
}

func (b *rawBody) Close() error {
	b.stop()
	return b.conn.Close()
}
