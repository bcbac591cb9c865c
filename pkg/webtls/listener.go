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
	"golang.org/x/net/http2"
)

// handshakeTimeout bounds a client's TLS handshake.
const handshakeTimeout = 10 * time.Second

// Listener is the https listener. fasthttp (under Fiber) speaks only
// HTTP/1.1, so the TLS handshake happens here, in a goroutine per
// connection (a slow client never holds up the next one), and the
// protocol the client chose by ALPN decides who serves it:
//
//   - http/1.1 (or none): returned by Accept, to fasthttp directly;
//   - h2: served by golang.org/x/net/http2, whose requests are passed,
//     streaming both ways, to the same fasthttp server over an in-memory
//     connection that carries the client's address (so rate limits, logs
//     and client IPs are the same as on HTTP/1.1);
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
	h2    *http2.Server
	h2srv *http.Server
	h2wg  sync.WaitGroup
}

// NewListener serves TLS with cfg on raw. Backend returns the listener
// through which HTTP/2 requests reach the HTTP/1.1 server: the caller
// serves it with the same fasthttp server as the Listener itself.
func NewListener(raw net.Listener, cfg *tls.Config) *Listener {
	l := &Listener{raw: raw, cfg: cfg, conns: make(chan net.Conn), done: make(chan struct{}),
		inmem: fasthttputil.NewInmemoryListener()}
	l.h2srv = &http.Server{ReadHeaderTimeout: handshakeTimeout}
	l.h2 = &http2.Server{}
	_ = http2.ConfigureServer(l.h2srv, l.h2)
	go l.acceptLoop()
	return l
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
				if delay = min(max(2*delay, 5*time.Millisecond), time.Second); true {
					time.Sleep(delay)
				}
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
	switch tc.ConnectionState().NegotiatedProtocol {
	case "acme-tls/1":
		tc.Close()
	case "h2":
		l.serveH2(tc)
	default:
		select {
		case l.conns <- tc:
		case <-l.done:
			tc.Close()
		}
	}
}

func (l *Listener) serveH2(tc *tls.Conn) {
	select {
	case <-l.done:
		tc.Close()
		return
	default:
	}
	l.h2wg.Add(1)
	defer l.h2wg.Done()
	client := tc.RemoteAddr()
	// One transport per client connection: its in-memory connections
	// carry this client's address.
	tr := &http.Transport{
		DialContext: func(context.Context, string, string) (net.Conn, error) {
			return l.inmem.DialWithLocalAddr(client)
		},
		DisableCompression:  true,
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     time.Minute,
	}
	defer tr.CloseIdleConnections()
	target := &url.URL{Scheme: "http", Host: "devhub.internal"}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			r.Out.Host = r.In.Host
		},
		Transport:     tr,
		FlushInterval: -1,
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, _ error) {
			w.WriteHeader(http.StatusBadGateway)
		},
	}
	l.h2.ServeConn(tc, &http2.ServeConnOpts{BaseConfig: l.h2srv, Handler: proxy})
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
	_ = l.h2srv.Shutdown(ctx)
	done := make(chan struct{})
	go func() { l.h2wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
