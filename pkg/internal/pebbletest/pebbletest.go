// Package pebbletest runs Pebble, the ACME test CA (Debian package
// pebble), on loopback for tests that obtain real certificates.
package pebbletest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// CA is a running Pebble.
type CA struct {
	// Directory is the ACME directory URL.
	Directory string
	// ListenerRoots is a PEM file of the CA that signed Pebble's own https
	// listener: what an ACME client must trust to talk to it.
	ListenerRoots string

	cmd      *exec.Cmd
	mgmt     string
	listener *x509.CertPool
}

// Options are the ports Pebble validates challenges on (the server under
// test's plain-HTTP and https ports) and the lifetime of what it issues.
type Options struct {
	HTTPPort, TLSPort int
	Validity          time.Duration
}

// FreePort returns a port on 127.0.0.1 that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// Start runs Pebble until the test ends. Without the pebble binary the
// test fails under CI=true (make test installs it) and is skipped
// elsewhere.
func Start(t testing.TB, o Options) *CA {
	t.Helper()
	bin, err := exec.LookPath("pebble")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("pebble is not installed (make test installs it: apt-get install pebble)")
		}
		t.Skip("pebble is not installed; `make test` installs it")
	}
	dir := t.TempDir()
	caPEM, certPEM, keyPEM := listenerCert(t)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ca := &CA{ListenerRoots: write("ca.pem", caPEM), listener: x509.NewCertPool()}
	ca.listener.AppendCertsFromPEM(caPEM)
	listen, mgmt := FreePort(t), FreePort(t)
	validity := o.Validity
	if validity == 0 {
		validity = 90 * 24 * time.Hour
	}
	conf := map[string]any{"pebble": map[string]any{
		"listenAddress":                  "127.0.0.1:" + strconv.Itoa(listen),
		"managementListenAddress":        "127.0.0.1:" + strconv.Itoa(mgmt),
		"certificate":                    write("cert.pem", certPEM),
		"privateKey":                     write("key.pem", keyPEM),
		"httpPort":                       o.HTTPPort,
		"tlsPort":                        o.TLSPort,
		"ocspResponderURL":               "",
		"externalAccountBindingRequired": false,
		"certificateValidityPeriod":      uint64(validity / time.Second),
	}}
	b, _ := json.Marshal(conf)
	cmd := exec.Command(bin, "-config", write("pebble.json", b))
	cmd.Env = append(os.Environ(), "PEBBLE_VA_NOSLEEP=1", "PEBBLE_WFE_NONCEREJECT=0")
	logf, _ := os.Create(filepath.Join(dir, "pebble.log"))
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ca.cmd = cmd
	ca.Directory = fmt.Sprintf("https://127.0.0.1:%d/dir", listen)
	ca.mgmt = fmt.Sprintf("https://127.0.0.1:%d", mgmt)
	t.Cleanup(func() {
		ca.Stop()
		logf.Close()
		if t.Failed() {
			b, _ := os.ReadFile(logf.Name())
			t.Logf("pebble log:\n%s", b)
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := ca.client().Get(ca.Directory)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return ca
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("pebble did not answer at %s: %v", ca.Directory, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (ca *CA) client() *http.Client {
	return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.listener}}}
}

// Stop ends Pebble: the CA is unreachable from then on.
func (ca *CA) Stop() {
	if ca.cmd != nil && ca.cmd.Process != nil {
		ca.cmd.Process.Kill()
		ca.cmd.Wait()
		ca.cmd = nil
	}
}

// IssuingRoots is the root Pebble signs certificates with (new at every
// start), as a pool and PEM.
func (ca *CA) IssuingRoots(t testing.TB) (*x509.CertPool, []byte) {
	t.Helper()
	resp, err := ca.client().Get(ca.mgmt + "/roots/0")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		t.Fatalf("pebble's root is no PEM: %q", b)
	}
	return pool, b
}

// listenerCert makes a throwaway CA and a certificate it signs for
// 127.0.0.1 and localhost, for Pebble's own listener.
func listenerCert(t testing.TB) (caPEM, certPEM, keyPEM []byte) {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "pebble listener test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "localhost"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, KeyUsage: x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(key)
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb})
}
