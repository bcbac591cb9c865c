package server

import (
	"bytes"
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/store"
)

// Request bodies and the connection they arrive on.
//
// The server streams request bodies (StreamRequestBody), and fasthttp parses
// the next request on a keep-alive connection from wherever the reading of
// the previous body stopped. A body left half read is therefore not just
// wasted bytes: whatever follows in it would be taken for the next request,
// and a body announced longer than what follows would swallow the next
// request (another user's, behind a proxy that reuses connections) as its
// bytes. So one rule holds for every route:
//
//   - A body is read only through requestBody, which records how far it
//     got: to its end, or to a read error. A handler that streams its body
//     reads it through uploadBody, which wraps it with the route's limit.
//   - guardBody runs around every request. When the answer is made before the
//     body was read to its end, the rest is read and dropped at once if it is
//     small (at most syncDrainBytes, arriving within syncDrainWait) and the
//     connection carries on; otherwise the answer is sent at once with
//     Connection: close, then whatever still arrives is read and dropped for
//     at most files.refused_upload_drain (LingerListener), and the connection
//     is closed. Its bytes are never parsed as a request. Answering before
//     draining matters for browsers: they send a whole upload before they
//     read the answer, and a connection closed with bytes unread is reset,
//     which the page would show as a network error instead of the 413 or 401.

// syncDrainBytes is how much of an unread body is read and dropped before the
// answer to keep the connection: a small rest (an epilogue after a multipart
// body's closing boundary, a short body a refusing handler never read) is
// cheaper to drop than a new connection is to open.
const syncDrainBytes = 64 << 10

// syncDrainWait bounds the wait for that small rest: a client that announced
// bytes it does not send gets its answer and a closed connection.
const syncDrainWait = time.Second

const bodyKey = "devhub.body"

// trackedBody is the request body stream as every handler reads it. It
// remembers whether the body ended or failed, and once it has ended it never
// touches the connection again: a chunked stream read after its last chunk
// would go on parsing the next request as a chunk size.
type trackedBody struct {
	r     io.Reader
	read  int64
	ended bool
	err   error
}

func (b *trackedBody) Read(p []byte) (int, error) {
	if b.ended {
		return 0, io.EOF
	}
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.r.Read(p)
	b.read += int64(n)
	switch {
	case errors.Is(err, io.EOF):
		b.ended = true
	case err != nil:
		b.err = err
	}
	return n, err
}

// requestBody is the request's body: the tracked stream when the server
// streams it, else the bytes already read (limitBody read them, or there
// were none).
func requestBody(c fiber.Ctx) io.Reader {
	if b, ok := c.Locals(bodyKey).(*trackedBody); ok {
		return b
	}
	req := c.Request()
	if !req.IsBodyStream() {
		return bytes.NewReader(req.Body())
	}
	b := &trackedBody{r: req.BodyStream()}
	c.Locals(bodyKey, b)
	return b
}

// uploadBody is the one way a route that streams its body
// (allowStreamingBody and its kin) reads it, held to the route's limit of
// limit bytes; what names the body in the one 413 (store.TooLarge):
//   - an announced length over the limit is refused before a byte is read;
//   - the stream keeps the minimum pace of an upload (paced);
//   - past the limit a read fails with the 413, and the body remembers it
//     (over) whatever a service above does with that error;
//   - a body that ends before its Content-Length fails with
//     io.ErrUnexpectedEOF: the client went away (a streamed body then
//     simply ends), and a cut-off ROM, cover or save state must never pass
//     for a whole one and replace a good one.
func (s *Server) uploadBody(c fiber.Ctx, what string, limit int64) (*limitedBody, error) {
	refusal := store.TooLarge(what, limit)
	announced := int64(c.Request().Header.ContentLength())
	if announced > limit {
		return nil, refusal
	}
	return &limitedBody{r: s.paced(c, requestBody(c)), left: limit, announced: announced, refusal: refusal}, nil
}

// limitedBody is a streamed body under its route's limit (uploadBody).
type limitedBody struct {
	r    io.Reader
	left int64
	// announced is the Content-Length (negative when chunked); read counts
	// what arrived against it.
	announced, read int64
	refusal         *store.Refusal
	over            bool
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.over {
		return 0, b.refusal
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.r.Read(p)
	if int64(n) > b.left {
		b.over = true
		return 0, b.refusal
	}
	b.left -= int64(n)
	b.read += int64(n)
	if errors.Is(err, io.EOF) && b.read < b.announced {
		return n, io.ErrUnexpectedEOF
	}
	return n, err
}

// tooLarge is the route's 413 when the body passed its limit or err is a
// service's own refusal of its size (a body read whole before a service
// saw it, or a service that checks its own limit on top), else nil.
func (b *limitedBody) tooLarge(err error) error {
	if b.over || store.KindOf(err) == store.KindTooLarge {
		return b.refusal
	}
	return nil
}

// guardBody applies the rule above after the handlers of a request ran.
func (s *Server) guardBody(c fiber.Ctx) error {
	err := c.Next()
	if !c.Request().IsBodyStream() {
		return err // no body, or read whole by limitBody
	}
	b, _ := requestBody(c).(*trackedBody)
	if b == nil || b.ended {
		return err
	}
	if b.err == nil && b.dropSmallRest(c.RequestCtx().Conn(), c.Request().Header.ContentLength()) {
		return err
	}
	s.closeAfterAnswer(c)
	return err
}

// dropSmallRest reads and drops what is left of the body when that is at
// most syncDrainBytes and arrives within syncDrainWait; it reports whether
// the body ended. announced is the Content-Length (negative when chunked).
func (b *trackedBody) dropSmallRest(conn net.Conn, announced int) bool {
	if announced >= 0 && int64(announced)-b.read > syncDrainBytes {
		return false
	}
	if conn != nil {
		conn.SetReadDeadline(time.Now().Add(syncDrainWait))
		defer conn.SetReadDeadline(time.Time{})
	}
	bp := drainBufPool.Get().(*[]byte)
	defer drainBufPool.Put(bp)
	io.CopyBuffer(io.Discard, io.LimitReader(onlyReader{b}, syncDrainBytes+1), *bp)
	return b.ended
}

// closeAfterAnswer marks the connection to close after this answer, and to
// read and drop what still arrives for files.refused_upload_drain before it
// really closes (lingerConn). On a connection that is not the server's own
// (app.Test's) it just closes.
func (s *Server) closeAfterAnswer(c fiber.Ctx) {
	rc := c.RequestCtx()
	rc.SetConnectionClose()
	if lc, ok := rc.Conn().(*lingerConn); ok {
		lc.lingerFor(s.cfg.Files.RefusedUploadDrain)
	}
}

// LingerListener is how the server must be listened on: its connections
// close as nginx's lingering_close does when a body was left unread. The
// answer is sent, the sending side shut (the client sees the end of the
// answer), and whatever the client still sends is read and dropped until it
// closes its side or the linger time is up; only then is the socket closed.
// Closing at once with bytes unread would make the kernel reset the
// connection, and a client still sending could lose the answer.
func LingerListener(ln net.Listener) net.Listener { return lingerListener{ln} }

type lingerListener struct{ net.Listener }

func (l lingerListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &lingerConn{Conn: c}, nil
}

type lingerConn struct {
	net.Conn
	linger atomic.Int64 // nanoseconds; 0: close at once
}

func (c *lingerConn) lingerFor(d time.Duration) { c.linger.Store(int64(d)) }

// ReadFrom hands a copy into the connection to the connection's own
// ReadFrom: for a file over TCP that is sendfile, the kernel sending the
// bytes without them passing through the process. Without it the wrapper
// hid the method and every download went through a 4 KiB buffer (a 1 GiB
// download at 0.3× nginx's speed).
func (c *lingerConn) ReadFrom(r io.Reader) (int64, error) {
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(c.Conn, r)
}

func (c *lingerConn) Close() error {
	if d := time.Duration(c.linger.Swap(0)); d > 0 {
		if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok && cw.CloseWrite() == nil {
			c.Conn.SetReadDeadline(time.Now().Add(d))
			bp := drainBufPool.Get().(*[]byte)
			io.CopyBuffer(io.Discard, onlyReader{c.Conn}, *bp)
			drainBufPool.Put(bp)
		}
	}
	return c.Conn.Close()
}

var drainBufPool = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// onlyReader hides every method but Read, so io.CopyBuffer uses the given
// buffer instead of a WriterTo that might allocate its own.
type onlyReader struct{ io.Reader }
