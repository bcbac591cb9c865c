package webtls

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
	"time"

	"github.com/valyala/fasthttp/fasthttputil"
)

// handshakeTimeout bounds a client's TLS handshake.
const handshakeTimeout = 10 * time.Second

// Listener is the https listener. fasthttp (under Fiber) speaks only
// HTTP/1.1, so the TLS handshake happens here, in a goroutine per
// connection (a slow client never holds up the next one), and the
// protocol the client chose by ALPN decides who serves it:
//
//   - http/1.1 (or none): returned by Accept, to fasthttp directly;
//   - h2: served by net/http's own HTTP/2 server, whose requests are
//     passed, streaming both ways, to the same fasthttp server over
//     in-memory connections that carry the client's address (so rate
//     limits, logs and client IPs are the same as on HTTP/1.1);
//   - acme-tls/1: the TLS-ALPN-01 challenge, answered by the handshake
//     itself, then closed.
//
// Close stops accepting; Shutdown ends the HTTP/2 connections gracefully
// (GOAWAY, streams in flight finish).
type Listener struct {
	raw   net.Listener
	cfg   *tls.Config
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
	err   error

	inmem *fasthttputil.InmemoryListener
	h2ln  *chanListener
	h2srv *http.Server
	// transports holds each HTTP/2 client connection's transport to the
	// backend, whose in-memory connections carry that client's address.
	transports sync.Map // net.Conn → *http.Transport
}

type transportKey struct{}

// NewListener serves TLS with cfg on raw. Backend returns the listener
// through which HTTP/2 requests reach the HTTP/1.1 server: the caller
// serves it with the same fasthttp server as the Listener itself.
func NewListener(raw net.Listener, cfg *tls.Config) *Listener {
	l := &Listener{raw: raw, cfg: cfg, conns: make(chan net.Conn), done: make(chan struct{}),
		inmem: fasthttputil.NewInmemoryListener()}
	l.h2ln = &chanListener{conns: make(chan net.Conn), done: make(chan struct{}), addr: raw.Addr()}
	target := &url.URL{Scheme: "http", Host: "devhub.internal"}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			r.Out.Host = r.In.Host
		},
		Transport:     connTransport{},
		FlushInterval: -1,
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, _ error) {
			w.WriteHeader(http.StatusBadGateway)
		},
	}
	// TLSConfig stays nil: the connections arrive with their handshake
	// done and "h2" negotiated, which net/http serves as HTTP/2.
	l.h2srv = &http.Server{
		Handler:           proxy,
		ReadHeaderTimeout: handshakeTimeout,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			client := c.RemoteAddr()
			tr := &http.Transport{
				DialContext: func(context.Context, string, string) (net.Conn, error) {
					return l.inmem.DialWithLocalAddr(client)
				},
				DisableCompression:  true,
				MaxIdleConnsPerHost: 64,
				IdleConnTimeout:     time.Minute,
			}
			l.transports.Store(c, tr)
			return context.WithValue(ctx, transportKey{}, tr)
		},
		ConnState: func(c net.Conn, st http.ConnState) {
			if st == http.StateClosed || st == http.StateHijacked {
				if tr, ok := l.transports.LoadAndDelete(c); ok {
					tr.(*http.Transport).CloseIdleConnections()
				}
			}
		},
	}
	go l.h2srv.Serve(l.h2ln)
	go l.acceptLoop()
	return l
}

// connTransport sends a request through its client connection's transport.
type connTransport struct{}

func (connTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	tr, ok := r.Context().Value(transportKey{}).(*http.Transport)
	if !ok {
		return nil, errors.New("no backend transport for this connection")
	}
	return tr.RoundTrip(r)
}

// Backend is the in-memory listener HTTP/2 requests arrive on as HTTP/1.1.
func (l *Listener) Backend() net.Listener { return l.inmem }

func (l *Listener) acceptLoop() {
	var delay time.Duration
	for {
		c, err := l.raw.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				delay = min(max(2*delay, 5*time.Millisecond), time.Second)
				time.Sleep(delay)
				continue
			}
			l.closeWith(err)
			return
		}
		delay = 0
		go l.handshake(c)
	}
}

func (l *Listener) handshake(c net.Conn) {
	tc := tls.Server(c, l.cfg)
	ctx, cancel := context.WithTimeout(context.Background(), handshakeTimeout)
	err := tc.HandshakeContext(ctx)
	cancel()
	if err != nil {
		tc.Close()
		return
	}
	to := l.conns
	switch tc.ConnectionState().NegotiatedProtocol {
	case "acme-tls/1":
		tc.Close()
		return
	case "h2":
		to = l.h2ln.conns
	}
	select {
	case to <- tc:
	case <-l.done:
		tc.Close()
	}
}

// Accept returns the next HTTP/1.1 connection, its handshake done.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, l.err
	}
}

func (l *Listener) closeWith(err error) {
	l.once.Do(func() {
		l.err = err
		close(l.done)
	})
}

// Close stops accepting connections.
func (l *Listener) Close() error {
	l.closeWith(net.ErrClosed)
	return l.raw.Close()
}

// Addr is the https address.
func (l *Listener) Addr() net.Addr { return l.raw.Addr() }

// Shutdown asks every HTTP/2 client to go away once its streams in flight
// have finished, and waits for that until ctx ends.
func (l *Listener) Shutdown(ctx context.Context) error {
	l.Close()
	return l.h2srv.Shutdown(ctx)
}

// chanListener hands net/http the HTTP/2 connections.
type chanListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
	addr  net.Addr
}

func (c *chanListener) Accept() (net.Conn, error) {
	select {
	case conn := <-c.conns:
		return conn, nil
	case <-c.done:
		return nil, net.ErrClosed
	}
}

func (c *chanListener) Close() error {
	c.once.Do(func() { close(c.done) })
	return nil
}

func (c *chanListener) Addr() net.Addr { return c.addr }
