package webtls_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/webtls"
)

// BenchmarkHandshakeFirstByte is a new connection's handshake and the
// first byte of its answer over TLS (HTTP/1.1 and HTTP/2 by ALPN) beside
// plain HTTP, on loopback, against the same Fiber app: what serving https
// itself costs a visitor's first request. It reports each path's time and
// their ratio (make bench).
func BenchmarkHandshakeFirstByte(b *testing.B) {
	dir := b.TempDir()
	certPath, keyPath := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	leaf := selfSigned(b, certPath, keyPath, 7)
	mgr, err := webtls.New(webtls.Options{Server: config.Server{TLS: "files", TLSFiles: config.TLSFiles{Cert: certPath, Key: keyPath}}})
	if err != nil {
		b.Fatal(err)
	}
	app := fiber.New()
	app.Get("/", func(c fiber.Ctx) error { return c.SendString("ok") })
	plain, _ := net.Listen("tcp", "127.0.0.1:0")
	raw, _ := net.Listen("tcp", "127.0.0.1:0")
	ln := webtls.NewListener(raw, mgr.TLSConfig())
	go app.Server().Serve(plain)
	go app.Server().Serve(ln)
	go app.Server().Serve(ln.Backend())
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		ln.Shutdown(ctx)
		app.ShutdownWithContext(ctx)
	})
	roots := x509.NewCertPool()
	roots.AddCert(leaf)
	req := []byte("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
	firstByte := func(c net.Conn) {
		if _, err := c.Write(req); err != nil {
			b.Fatal(err)
		}
		if _, err := bufio.NewReader(c).ReadByte(); err != nil {
			b.Fatal(err)
		}
		c.Close()
	}
	dialPlain := func() {
		c, err := net.Dial("tcp", plain.Addr().String())
		if err != nil {
			b.Fatal(err)
		}
		firstByte(c)
	}
	dialTLS := func(proto string) func() {
		return func() {
			c, err := tls.Dial("tcp", raw.Addr().String(), &tls.Config{RootCAs: roots, ServerName: "localhost", NextProtos: []string{proto}})
			if err != nil {
				b.Fatal(err)
			}
			if proto == "h2" {
				// The client preface and an empty SETTINGS frame; the
				// server's SETTINGS is the first byte back.
				c.Write([]byte("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00"))
				if _, err := bufio.NewReader(c).ReadByte(); err != nil {
					b.Fatal(err)
				}
				c.Close()
				return
			}
			firstByte(c)
		}
	}
	var plainNs, tlsNs, h2Ns time.Duration
	for b.Loop() {
		for _, step := range []struct {
			run func()
			sum *time.Duration
		}{{dialPlain, &plainNs}, {dialTLS("http/1.1"), &tlsNs}, {dialTLS("h2"), &h2Ns}} {
			start := time.Now()
			step.run()
			*step.sum += time.Since(start)
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(plainNs.Nanoseconds())/n, "plain-ns/conn")
	b.ReportMetric(float64(tlsNs.Nanoseconds())/n, "tls-ns/conn")
	b.ReportMetric(float64(h2Ns.Nanoseconds())/n, "h2-ns/conn")
	b.ReportMetric(float64(tlsNs)/float64(plainNs), "tls/plain")

}
