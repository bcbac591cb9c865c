package webtls_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/internal/pebbletest"
	"github.com/devhub/devhub/pkg/webtls"
)

// site is a running https site: the Listener and the plain-HTTP handler
// of a Manager, with a Fiber app answering its client's address and
// protocol.
type site struct {
	httpsPort, httpPort int
	mgr                 *webtls.Manager
}

func startSite(t *testing.T, o webtls.Options, httpsPort, httpPort int) *site {
	t.Helper()
	o.Server.Addr = "127.0.0.1:" + strconv.Itoa(httpsPort)
	o.Server.HTTPAddr = "127.0.0.1:" + strconv.Itoa(httpPort)
	mgr, err := webtls.New(o)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := net.Listen("tcp", o.Server.Addr)
	if err != nil {
		t.Fatal(err)
	}
	hl, err := net.Listen("tcp", o.Server.HTTPAddr)
	if err != nil {
		t.Fatal(err)
	}
	ln := webtls.NewListener(raw, mgr.TLSConfig())
	app := fiber.New()
	app.Get("/who", func(c fiber.Ctx) error { return c.SendString(c.IP() + " " + c.Get("X-Forwarded-For")) })
	app.Post("/echo", func(c fiber.Ctx) error { return c.Send(c.Body()) })
	backend := ln.Backend()
	go app.Listener(ln, fiber.ListenConfig{DisableStartupMessage: true, BeforeServeFunc: func(app *fiber.App) error {
		go app.Server().Serve(backend)
		return nil
	}})
	hs := &http.Server{Handler: mgr.HTTPHandler(strconv.Itoa(httpsPort))}
	go hs.Serve(hl)
	if err := mgr.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		hs.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		ln.Shutdown(ctx)
		app.ShutdownWithContext(ctx)
		mgr.Stop()
	})
	return &site{httpsPort: httpsPort, httpPort: httpPort, mgr: mgr}
}

// served is the certificate the site presents for localhost, verified
// against roots, and the protocol an HTTP/2-capable client got.
func (s *site) get(t *testing.T, roots *x509.CertPool, h2 bool) (*x509.Certificate, string, error) {
	t.Helper()
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, ServerName: "localhost"}, ForceAttemptHTTP2: h2}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	// To 127.0.0.1, where the site listens, with SNI localhost: "localhost"
	// also resolves to ::1, where another process's server may hold the
	// same port number (the tests of other packages run meanwhile).
	resp, err := c.Get(fmt.Sprintf("https://127.0.0.1:%d/who", s.httpsPort))
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.HasPrefix(string(b), "127.0.0.1 ") {
		return nil, "", fmt.Errorf("GET /who: %d %q", resp.StatusCode, b)
	}
	return resp.TLS.PeerCertificates[0], resp.Proto, nil
}

func waitCert(t *testing.T, s *site, roots *x509.CertPool, ok func(*x509.Certificate) bool) *x509.Certificate {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		cert, _, err := s.get(t, roots, false)
		if err == nil && ok(cert) {
			return cert
		}
		if time.Now().After(deadline) {
			t.Fatalf("the expected certificate was not served: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func acmeOptions(ca *pebbletest.CA, dataDir string) webtls.Options {
	return webtls.Options{DataDir: dataDir, Server: config.Server{TLS: "acme", Domains: []string{"localhost"},
		ACME: config.ACME{Directory: ca.Directory, CARoots: ca.ListenerRoots, Email: "owner@example.org"}}}
}

// Pebble really validates each challenge type over loopback; the issued
// certificate is served over HTTP/1.1 and HTTP/2, kept under the data
// directory as 0600 files, and the plain-HTTP port redirects to https.
func TestACMEIssuance(t *testing.T) {
	for _, tc := range []struct {
		name           string
		noHTTP, noALPN bool
	}{
		{name: "http-01", noALPN: true},
		{name: "tls-alpn-01", noHTTP: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			httpsPort, httpPort := pebbletest.FreePort(t), pebbletest.FreePort(t)
			ca := pebbletest.Start(t, pebbletest.Options{HTTPPort: httpPort, TLSPort: httpsPort})
			data := t.TempDir()
			o := acmeOptions(ca, data)
			o.DisableHTTPChallenge, o.DisableTLSALPNChallenge = tc.noHTTP, tc.noALPN
			s := startSite(t, o, httpsPort, httpPort)
			roots, _ := ca.IssuingRoots(t)
			cert := waitCert(t, s, roots, func(*x509.Certificate) bool { return true })
			if err := cert.VerifyHostname("localhost"); err != nil {
				t.Fatal(err)
			}
			if _, proto, err := s.get(t, roots, true); err != nil || proto != "HTTP/2.0" {
				t.Fatalf("HTTP/2 client got %q, %v", proto, err)
			}
			if err := s.mgr.Check(time.Now()); err != nil {
				t.Fatalf("ready: %v", err)
			}
			if err := s.mgr.Check(time.Now().Add(90*24*time.Hour - webtls.MinValidity)); err == nil {
				t.Fatal("a certificate with less than a week left counts as ready")
			}
			found := 0
			filepath.WalkDir(filepath.Join(data, "acme"), func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					found++
					if fi, _ := d.Info(); fi.Mode().Perm() != 0o600 && !strings.HasSuffix(p, ".lock") {
						t.Errorf("%s is %v, want 0600", p, fi.Mode().Perm())
					}
				}
				return nil
			})
			if found == 0 {
				t.Fatal("nothing kept under data_dir/acme")
			}
			noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			resp, err := noFollow.Get(fmt.Sprintf("http://localhost:%d/files?x=1", httpPort))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			want := fmt.Sprintf("https://localhost:%d/files?x=1", httpsPort)
			if resp.StatusCode != http.StatusPermanentRedirect || resp.Header.Get("Location") != want {
				t.Fatalf("http: %d %q, want 308 %q", resp.StatusCode, resp.Header.Get("Location"), want)
			}
			req, _ := http.NewRequest("GET", fmt.Sprintf("http://127.0.0.1:%d/", httpPort), nil)
			req.Host = "evil.example"
			if resp, err := noFollow.Do(req); err != nil || resp.StatusCode != http.StatusMisdirectedRequest {
				t.Fatalf("a foreign host is redirected: %v %v", resp, err)
			}
		})
	}
}

// A certificate in its renewal window is renewed in the background and the
// new one served without a restart.
func TestACMERenewal(t *testing.T) {
	httpsPort, httpPort := pebbletest.FreePort(t), pebbletest.FreePort(t)
	ca := pebbletest.Start(t, pebbletest.Options{HTTPPort: httpPort, TLSPort: httpsPort, Validity: time.Hour})
	o := acmeOptions(ca, t.TempDir())
	// Due a few seconds after issuance: renewed when less than 99.9% of
	// its hour is left.
	o.RenewCheckInterval = 200 * time.Millisecond
	o.RenewalWindowRatio = 0.999
	s := startSite(t, o, httpsPort, httpPort)
	roots, _ := ca.IssuingRoots(t)
	first := waitCert(t, s, roots, func(*x509.Certificate) bool { return true })
	renewed := waitCert(t, s, roots, func(c *x509.Certificate) bool { return c.SerialNumber.Cmp(first.SerialNumber) != 0 })
	if !renewed.NotAfter.After(first.NotAfter) && !renewed.NotAfter.Equal(first.NotAfter) {
		t.Fatalf("renewed certificate ends %v, before the first's %v", renewed.NotAfter, first.NotAfter)
	}
}

// With the CA down, a certificate kept from an earlier run serves from the
// first handshake on; a renewal that then fails is logged and makes the
// site not ready, while the certificate keeps serving.
func TestACMEStartWithCADown(t *testing.T) {
	httpsPort, httpPort := pebbletest.FreePort(t), pebbletest.FreePort(t)
	ca := pebbletest.Start(t, pebbletest.Options{HTTPPort: httpPort, TLSPort: httpsPort})
	data := t.TempDir()
	o := acmeOptions(ca, data)
	s := startSite(t, o, httpsPort, httpPort)
	roots, _ := ca.IssuingRoots(t)
	first := waitCert(t, s, roots, func(*x509.Certificate) bool { return true })
	ca.Stop()
	// A second server on other ports, on the same data directory, with
	// the CA gone.
	httpsPort2, httpPort2 := pebbletest.FreePort(t), pebbletest.FreePort(t)
	s2 := startSite(t, o, httpsPort2, httpPort2)
	got, _, err := s2.get(t, roots, false)
	if err != nil {
		t.Fatalf("the cached certificate is not served with the CA down: %v", err)
	}
	if got.SerialNumber.Cmp(first.SerialNumber) != 0 {
		t.Fatal("another certificate than the cached one was served")
	}
	if err := s2.mgr.Check(time.Now()); err != nil {
		t.Fatalf("ready with a valid cached certificate: %v", err)
	}

	// A third start on which the certificate is due for renewal: the
	// renewal fails (no CA), readiness says so, the certificate serves on.
	o.RenewCheckInterval, o.RenewalWindowRatio = 200*time.Millisecond, 0.9999999
	s3 := startSite(t, o, pebbletest.FreePort(t), pebbletest.FreePort(t))
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := s3.mgr.Check(time.Now())
		if err != nil && strings.Contains(err.Error(), "failed") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a failing renewal is not shown in readiness: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got, _, err := s3.get(t, roots, false); err != nil || got.SerialNumber.Cmp(first.SerialNumber) != 0 {
		t.Fatalf("the cached certificate stopped serving after a failed renewal: %v", err)
	}
}

// selfSigned writes a certificate for localhost and its key to dir.
func selfSigned(t testing.TB, certPath, keyPath string, serial int64) *x509.Certificate {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "localhost"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(30 * 24 * time.Hour),
		DNSNames: []string{"localhost"}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(key)
	// Written beside and renamed into place, as a deploy tool does.
	for p, b := range map[string][]byte{
		certPath: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		keyPath:  pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}),
	} {
		if err := os.WriteFile(p+".new", b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(p+".new", p); err != nil {
			t.Fatal(err)
		}
	}
	c, _ := x509.ParseCertificate(der)
	return c
}

// The owner's certificate is served, and a new one swapped in on disk is
// served without a restart; a broken file in between keeps the old one.
func TestFilesSwappedOnDisk(t *testing.T) {
	dir := t.TempDir()
	certPath, keyPath := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	first := selfSigned(t, certPath, keyPath, 1)
	s := startSite(t, webtls.Options{Server: config.Server{TLS: "files", TLSFiles: config.TLSFiles{Cert: certPath, Key: keyPath}}},
		pebbletest.FreePort(t), pebbletest.FreePort(t))
	pool := func(c *x509.Certificate) *x509.CertPool { p := x509.NewCertPool(); p.AddCert(c); return p }
	waitCert(t, s, pool(first), func(c *x509.Certificate) bool { return c.SerialNumber.Int64() == 1 })
	if _, proto, err := s.get(t, pool(first), true); err != nil || proto != "HTTP/2.0" {
		t.Fatalf("HTTP/2 client got %q, %v", proto, err)
	}
	if err := s.mgr.Check(time.Now()); err != nil {
		t.Fatalf("a 30-day certificate is not ready: %v", err)
	}
	if err := s.mgr.Check(time.Now().Add(25 * 24 * time.Hour)); err == nil || !strings.Contains(err.Error(), "less than a week") {
		t.Fatalf("a certificate 5 days from its end is ready: %v", err)
	}
	if err := os.WriteFile(certPath, []byte("-----BEGIN CERTIFICATE-----\nbroken"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Over more than one check period (the broken file is seen), every
	// handshake still gets the first certificate.
	for end := time.Now().Add(1500 * time.Millisecond); time.Now().Before(end); {
		if c, _, err := s.get(t, pool(first), false); err != nil || c.SerialNumber.Int64() != 1 {
			t.Fatalf("a broken file took the certificate down: %v", err)
		}
	}
	second := selfSigned(t, certPath, keyPath, 2)
	waitCert(t, s, pool(second), func(c *x509.Certificate) bool { return c.SerialNumber.Int64() == 2 })

	// Plain HTTP redirects to https only for a host the certificate names.
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for host, want := range map[string]int{"localhost": http.StatusPermanentRedirect, "evil.example": http.StatusMisdirectedRequest} {
		req, _ := http.NewRequest("GET", fmt.Sprintf("http://127.0.0.1:%d/x", s.httpPort), nil)
		req.Host = host
		resp, err := noFollow.Do(req)
		if err != nil || resp.StatusCode != want {
			t.Fatalf("http with Host %s: %v %v, want %d", host, resp, err, want)
		}
		resp.Body.Close()
	}
}

// A bad configuration is refused before anything listens.
func TestNewRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		srv  config.Server
		want string
	}{
		{"files missing", config.Server{TLS: "files", TLSFiles: config.TLSFiles{Cert: "/nonexistent/c.pem", Key: "/nonexistent/k.pem"}}, "cannot be read"},
		{"off", config.Server{TLS: "off"}, "serves no certificate"},
		{"ca roots not PEM", config.Server{TLS: "acme", Domains: []string{"localhost"}, HTTPAddr: ":80", Addr: ":443",
			ACME: config.ACME{CARoots: "webtls.go"}}, "no PEM"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := webtls.New(webtls.Options{Server: tc.srv, DataDir: t.TempDir()})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "/nonexistent") {
				t.Fatalf("the error names a path: %v", err)
			}
		})
	}
}
