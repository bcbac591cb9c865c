// Package webtls gives serve its own https: certificates from an ACME CA
// (certmagic: HTTP-01 and TLS-ALPN-01, kept under the data directory and
// renewed in the background) or from the owner's files (reloaded when they
// change on disk), the plain-HTTP handler of server.http_addr (the HTTP-01
// challenge, else a redirect to https), HTTP/2 beside fasthttp's HTTP/1.1,
// and the certificate's state for the readiness check.
package webtls

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/caddyserver/certmagic"
	"go.uber.org/zap"

	"github.com/devhub/devhub/pkg/config"
)

// MinValidity is how long the served certificate must still be valid for
// the server to be ready: a week leaves the owner time to act on a renewal
// that keeps failing.
const MinValidity = 7 * 24 * time.Hour

// Options configure a Manager.
type Options struct {
	Server config.Server
	// DataDir holds the ACME account and certificates (<DataDir>/acme).
	DataDir string
	Logger  *slog.Logger
	// RenewCheckInterval is how often certificates are checked for
	// renewal (certmagic's default, 10 minutes, when 0).
	RenewCheckInterval time.Duration
	// RenewalWindowRatio is the share of a certificate's lifetime left
	// when it is renewed (certmagic's default, a third, when 0).
	RenewalWindowRatio float64
	// DisableHTTPChallenge and DisableTLSALPNChallenge leave a challenge
	// type out (both are offered by default).
	DisableHTTPChallenge    bool
	DisableTLSALPNChallenge bool
}

// Manager serves the certificate of server.tls acme or files.
type Manager struct {
	log     *slog.Logger
	domains []string
	tlsCfg  *tls.Config

	// acme
	magic  *certmagic.Config
	issuer *certmagic.ACMEIssuer
	cache  *certmagic.Cache

	// files
	files *fileCert

	mu      sync.Mutex
	lastErr string // the last failure to obtain or renew, "" after a success
}

// New prepares the certificates of o.Server.TLS. In acme mode a
// certificate already in storage is loaded at once and served even when
// the CA cannot be reached; obtaining and renewing run in the background
// (Start), and their failures are logged and kept for Check.
func New(o Options) (*Manager, error) {
	m := &Manager{log: o.Logger, domains: o.Server.Domains}
	if m.log == nil {
		m.log = slog.New(slog.DiscardHandler)
	}
	switch o.Server.TLS {
	case "files":
		fc, err := loadFileCert(o.Server.TLSFiles.Cert, o.Server.TLSFiles.Key, m.log)
		if err != nil {
			return nil, err
		}
		m.files = fc
		m.tlsCfg = &tls.Config{GetCertificate: fc.get}
	case "acme":
		if err := m.setupACME(o); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("server.tls %q serves no certificate", o.Server.TLS)
	}
	m.tlsCfg.MinVersion = tls.VersionTLS12
	m.tlsCfg.NextProtos = []string{"h2", "http/1.1"}
	if m.magic != nil {
		m.tlsCfg.NextProtos = append(m.tlsCfg.NextProtos, "acme-tls/1")
	}
	return m, nil
}

func (m *Manager) setupACME(o Options) error {
	var roots *x509.CertPool
	if f := o.Server.ACME.CARoots; f != "" {
		pem, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("server.acme.ca_roots: %w", err)
		}
		roots = x509.NewCertPool()
		if !roots.AppendCertsFromPEM(pem) {
			return errors.New("server.acme.ca_roots holds no PEM certificate")
		}
	}
	dir := filepath.Join(o.DataDir, "acme")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create the ACME storage: %w", err)
	}
	httpHost, httpPort, err := splitPort(o.Server.HTTPAddr)
	if err != nil {
		return fmt.Errorf("server.http_addr: %w", err)
	}
	_, tlsPort, err := splitPort(o.Server.Addr)
	if err != nil {
		return fmt.Errorf("server.addr: %w", err)
	}
	var magic *certmagic.Config
	m.cache = certmagic.NewCache(certmagic.CacheOptions{
		GetConfigForCert:   func(certmagic.Certificate) (*certmagic.Config, error) { return magic, nil },
		RenewCheckInterval: o.RenewCheckInterval,
		Logger:             zap.NewNop(),
	})
	magic = certmagic.New(m.cache, certmagic.Config{
		Storage:            &certmagic.FileStorage{Path: dir},
		RenewalWindowRatio: o.RenewalWindowRatio,
		Logger:             zap.NewNop(),
		OnEvent:            m.onEvent,
		DisableARI:         true,
	})
	directory := o.Server.ACME.Directory
	if directory == "" {
		directory = certmagic.LetsEncryptProductionCA
	}
	// The challenges are answered by the server's own listeners (the
	// handler of HTTPHandler on server.http_addr, the TLS config on
	// server.addr); certmagic finds those ports taken and uses them.
	m.issuer = certmagic.NewACMEIssuer(magic, certmagic.ACMEIssuer{
		CA:             directory,
		Email:          o.Server.ACME.Email,
		Agreed:         true,
		TrustedRoots:   roots,
		ListenHost:     httpHost,
		AltHTTPPort:    httpPort,
		AltTLSALPNPort: tlsPort,

		DisableHTTPChallenge:    o.DisableHTTPChallenge,
		DisableTLSALPNChallenge: o.DisableTLSALPNChallenge,
		Logger:                  zap.NewNop(),
	})
	magic.Issuers = []certmagic.Issuer{m.issuer}
	m.magic = magic
	m.tlsCfg = magic.TLSConfig()
	return nil
}

func splitPort(addr string) (string, int, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	p, err := net.LookupPort("tcp", port)
	return host, p, err
}

func (m *Manager) onEvent(_ context.Context, event string, data map[string]any) error {
	switch event {
	case "cert_failed":
		err, _ := data["error"].(error)
		msg := "the CA did not issue the certificate"
		if r, _ := data["renewal"].(bool); r {
			msg = "the certificate's renewal failed; the current one keeps serving"
		}
		m.log.Error(msg, slog.Any("domain", data["identifier"]), slog.Any("err", err))
		m.setErr("the last attempt to obtain or renew the certificate failed")
	case "cert_obtained":
		m.log.Info("certificate obtained", slog.Any("domain", data["identifier"]), slog.Any("renewal", data["renewal"]))
		m.setErr("")
	}
	return nil
}

func (m *Manager) setErr(s string) {
	m.mu.Lock()
	m.lastErr = s
	m.mu.Unlock()
}

// Start loads the certificates kept in storage, then begins obtaining and
// renewing in the background and returns: a stored certificate is served
// from the first handshake on, with the CA down too (ManageAsync alone
// loads storage in a goroutine, so the first handshakes after a restart
// would fail). A stored certificate already due is renewed by the first
// maintenance pass. Only unreadable storage is an error.
func (m *Manager) Start(ctx context.Context) error {
	if m.magic == nil {
		return nil
	}
	for _, d := range m.domains {
		if _, err := m.magic.CacheManagedCertificate(ctx, d); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("load the stored certificate for %s: %w", d, err)
		}
	}
	return m.magic.ManageAsync(ctx, m.domains)
}

// Stop ends background renewal.
func (m *Manager) Stop() {
	if m.cache != nil {
		m.cache.Stop()
	}
}

// TLSConfig is the configuration of the https listener.
func (m *Manager) TLSConfig() *tls.Config { return m.tlsCfg }

// HTTPHandler answers server.http_addr: ACME's HTTP-01 challenge, and a
// permanent redirect to the same path over https for everything else.
// httpsPort is the https port a redirect names unless it is 443.
func (m *Manager) HTTPHandler(httpsPort string) http.Handler {
	redirect := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if !m.knownHost(host) {
			http.Error(w, "unknown host", http.StatusMisdirectedRequest)
			return
		}
		if httpsPort != "" && httpsPort != "443" {
			host = net.JoinHostPort(host, httpsPort)
		}
		w.Header().Set("Connection", "close")
		http.Redirect(w, r, "https://"+host+r.URL.RequestURI(), http.StatusPermanentRedirect)
	})
	if m.issuer == nil {
		return redirect
	}
	return m.issuer.HTTPChallengeHandler(redirect)
}

// knownHost reports whether host is one the site serves, so the redirect
// never sends a visitor to a host named by someone else's request. In
// files mode (no domains configured) any host is kept.
func (m *Manager) knownHost(host string) bool {
	if len(m.domains) == 0 {
		// The owner's certificate names the site: a redirect goes only to a
		// host it covers, never to whatever Host a client sent (a cache in
		// front would keep the redirect for everyone).
		if m.files != nil {
			leaf := m.files.leaf()
			return host != "" && leaf != nil && leaf.VerifyHostname(host) == nil
		}
		return host != ""
	}
	for _, d := range m.domains {
		if strings.EqualFold(d, host) {
			return true
		}
	}
	return false
}

// Check is the certificate's readiness: every domain's certificate (or the
// files' one) is valid for more than MinValidity from now, and the last
// attempt to obtain or renew did not fail. The error names no path.
func (m *Manager) Check(now time.Time) error {
	var leaves []*x509.Certificate
	if m.files != nil {
		m.files.reloadIfChanged()
		leaves = append(leaves, m.files.leaf())
	} else {
		// The certificate a handshake for the domain would get, from the
		// cache: no storage read, no request to the CA.
		a, b := net.Pipe()
		defer a.Close()
		defer b.Close()
		for _, d := range m.domains {
			c, err := m.magic.GetCertificate(&tls.ClientHelloInfo{ServerName: d, Conn: a})
			if err != nil || c == nil || len(c.Certificate) == 0 {
				return fmt.Errorf("no certificate for %s yet", d)
			}
			leaf := c.Leaf
			if leaf == nil {
				if leaf, err = x509.ParseCertificate(c.Certificate[0]); err != nil {
					return fmt.Errorf("the certificate for %s cannot be read", d)
				}
			}
			leaves = append(leaves, leaf)
		}
	}
	for _, l := range leaves {
		if l == nil {
			return errors.New("no certificate")
		}
		if l.NotAfter.Sub(now) <= MinValidity {
			return fmt.Errorf("the certificate expires in less than a week (%s)", l.NotAfter.UTC().Format(time.RFC3339))
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.lastErr != "" {
		return errors.New(m.lastErr)
	}
	return nil
}
