package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// What serving https implies: the https address, the public URL, the
// domains from the environment and the --domain short form; and every bad
// TLS setting refused before anything starts, in one line.
func TestTLSConfig(t *testing.T) {
	for _, tc := range []struct {
		name     string
		env      map[string]string
		domain   []string
		wantTLS  string
		wantAddr string
		wantURL  string
		wantDoms []string
	}{
		{name: "off by default", wantTLS: "off", wantAddr: ":8080", wantURL: ""},
		{name: "acme with domains from the environment", env: map[string]string{"DEVHUB_SERVER_TLS": "acme", "DEVHUB_SERVER_DOMAINS": "hub.example.org,www.example.org"},
			wantTLS: "acme", wantAddr: ":443", wantURL: "https://hub.example.org", wantDoms: []string{"hub.example.org", "www.example.org"}},
		{name: "--domain is the short form", domain: []string{"hub.example.org"},
			wantTLS: "acme", wantAddr: ":443", wantURL: "https://hub.example.org", wantDoms: []string{"hub.example.org"}},
		{name: "another https port is in the public URL", env: map[string]string{"DEVHUB_SERVER_ADDR": "127.0.0.1:8443"}, domain: []string{"hub.example.org"},
			wantTLS: "acme", wantAddr: "127.0.0.1:8443", wantURL: "https://hub.example.org:8443", wantDoms: []string{"hub.example.org"}},
		{name: "an explicit public URL stays", env: map[string]string{"DEVHUB_SERVER_PUBLIC_URL": "https://cdn.example.org"}, domain: []string{"hub.example.org"},
			wantTLS: "acme", wantAddr: ":443", wantURL: "https://cdn.example.org", wantDoms: []string{"hub.example.org"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			newTestInstance(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			flags := map[string]*pflag.Flag{}
			if tc.domain != nil {
				fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
				fs.StringSlice("domain", nil, "")
				if err := fs.Parse([]string{"--domain", strings.Join(tc.domain, ",")}); err != nil {
					t.Fatal(err)
				}
				flags["server.domains"] = fs.Lookup("domain")
			}
			cfg, err := loadConfig("", flags)
			if err != nil {
				t.Fatal(err)
			}
			s := cfg.Server
			if s.TLS != tc.wantTLS || s.Addr != tc.wantAddr || s.PublicURL != tc.wantURL || strings.Join(s.Domains, ",") != strings.Join(tc.wantDoms, ",") {
				t.Fatalf("got tls %q addr %q public_url %q domains %q", s.TLS, s.Addr, s.PublicURL, s.Domains)
			}
		})
	}
}

func TestTLSConfigRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"unknown mode", map[string]string{"DEVHUB_SERVER_TLS": "yes"}, "server.tls must be off, acme or files"},
		{"acme without domains", map[string]string{"DEVHUB_SERVER_TLS": "acme"}, "server.tls acme needs server.domains"},
		{"a URL as a domain", map[string]string{"DEVHUB_SERVER_TLS": "acme", "DEVHUB_SERVER_DOMAINS": "https://hub.example.org"}, "is not a domain name"},
		{"a plain-HTTP directory", map[string]string{"DEVHUB_SERVER_DOMAINS": "hub.example.org", "DEVHUB_SERVER_TLS": "acme",
			"DEVHUB_SERVER_ACME_DIRECTORY": "http://ca.example.org/dir"}, "server.acme.directory"},
		{"missing CA roots", map[string]string{"DEVHUB_SERVER_DOMAINS": "hub.example.org", "DEVHUB_SERVER_TLS": "acme",
			"DEVHUB_SERVER_ACME_CA_ROOTS": "/nonexistent/roots.pem"}, "server.acme.ca_roots: the file cannot be read"},
		{"files without the files", map[string]string{"DEVHUB_SERVER_TLS": "files"}, "server.tls_files.cert and server.tls_files.key"},
		{"bad http address", map[string]string{"DEVHUB_SERVER_TLS": "acme", "DEVHUB_SERVER_DOMAINS": "hub.example.org", "DEVHUB_SERVER_HTTP_ADDR": "eighty"}, "server.http_addr"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ti, stderr := serveRefused(t, tc.env, tc.want)
			if strings.Contains(stderr, "/nonexistent") {
				t.Fatalf("the answer names a path: %q", stderr)
			}
			if _, err := os.Stat(filepath.Join(ti.dataDir, "devhub.db")); err == nil {
				t.Fatal("a store was made for a refused configuration")
			}
		})
	}
}
