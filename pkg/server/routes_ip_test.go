package server

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/geoip"
	"github.com/devhub/devhub/pkg/geoip/geoiptest"
)

// ipTestDB knows three public networks, and — to prove they are never
// consulted — the private and loopback ranges.
func ipTestDB(t *testing.T) *geoip.DB {
	t.Helper()
	db, err := geoip.Open(geoiptest.Write(t, map[string]geoiptest.Record{
		"81.0.0.0/8":  {"country_code": "UA"},
		"5.0.0.0/8":   {"country_code": "DE"},
		"2a02::/16":   {"country_code": "PL"},
		"10.0.0.0/8":  {"country_code": "XX"},
		"127.0.0.0/8": {"country_code": "XX"},
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func newIPTestApp(t *testing.T, db *geoip.DB, trusted ...string) *testApp {
	return newTestApp(t, func(o *Options) {
		o.Config.Server.TrustedProxies = trusted
		o.Services = &Services{GeoIP: db}
	})
}

func getIP(t *testing.T, ta *testApp, xff string) geoip.Result {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/api/ip", nil)
	if xff != "" {
		req.Header.Set("X-Forwarded-For", xff)
	}
	resp, body := ta.do(t, req)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d (%s)", resp.StatusCode, body)
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "private, no-store" {
		t.Fatalf("Cache-Control %q: a per-client answer must not be cached", cc)
	}
	var r geoip.Result
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("body %s: %v", body, err)
	}
	return r
}

// app.Test's peer is always 0.0.0.0; the table varies which proxies are
// trusted and what X-Forwarded-For says.
func TestIPEndpointForwardedFor(t *testing.T) {
	db := ipTestDB(t)
	tests := []struct {
		name        string
		trusted     []string
		xff         string
		wantIP      string
		wantCountry string
		wantCode    string
	}{
		{"no header, no proxies: the peer", nil, "", "0.0.0.0", "Unknown", ""},
		{"forged header from an untrusted peer is ignored", nil, "81.1.2.3", "0.0.0.0", "Unknown", ""},
		{"forged chain from an untrusted peer is ignored", nil, "81.1.2.3, 5.5.5.5", "0.0.0.0", "Unknown", ""},
		{"peer trusted but not listed: header still ignored", []string{"192.0.2.1"}, "81.1.2.3", "0.0.0.0", "Unknown", ""},
		{"trusted proxy: the client it names", []string{"0.0.0.0"}, "81.1.2.3", "81.1.2.3", "Ukraine", "UA"},
		{"trusted proxy: right-most untrusted hop, forged left part ignored", []string{"0.0.0.0", "10.0.0.0/8"},
			"81.9.9.9, 5.6.7.8, 10.0.0.7", "5.6.7.8", "Germany", "DE"},
		{"trusted proxy chain of trusted hops only: the peer", []string{"0.0.0.0", "10.0.0.0/8"}, "10.0.0.8, 10.0.0.7", "0.0.0.0", "Unknown", ""},
		{"trusted proxy, malformed hop: stop trusting", []string{"0.0.0.0"}, "81.1.2.3, not-an-ip", "0.0.0.0", "Unknown", ""},
		{"trusted proxy, IPv6 client", []string{"0.0.0.0"}, "2a02:a000::1", "2a02:a000::1", "Poland", "PL"},
		{"trusted proxy, private client: Unknown without lookup", []string{"0.0.0.0"}, "10.1.2.3", "10.1.2.3", "Unknown", ""},
		{"trusted proxy, loopback client", []string{"0.0.0.0"}, "127.0.0.1", "127.0.0.1", "Unknown", ""},
		{"trusted proxy, public client not in the DB", []string{"0.0.0.0"}, "9.9.9.9", "9.9.9.9", "Unknown", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := getIP(t, newIPTestApp(t, db, tc.trusted...), tc.xff)
			if r.IP != tc.wantIP || r.Country != tc.wantCountry || r.CountryCode != tc.wantCode {
				t.Fatalf("got ip=%s country=%s code=%s, want %s %s %s", r.IP, r.Country, r.CountryCode, tc.wantIP, tc.wantCountry, tc.wantCode)
			}
		})
	}
}

func TestIPEndpointWithoutDatabase(t *testing.T) {
	r := getIP(t, newIPTestApp(t, nil, "0.0.0.0"), "81.1.2.3")
	if r.IP != "81.1.2.3" || r.Country != "Unknown" || r.CountryCode != "" {
		t.Fatalf("got %+v", r)
	}
}

// Over real TCP connections from two loopback source addresses, so the peer
// is a genuine untrusted client rather than app.Test's placeholder.
func TestIPEndpointRealPeers(t *testing.T) {
	db := ipTestDB(t)
	client := func(src string) *http.Client {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 5 * time.Second}
		return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				return d.DialContext(ctx, network, addr)
			},
		}}
	}
	fetch := func(t *testing.T, base, src, xff string) geoip.Result {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, base+"/api/ip", nil)
		req.Header.Set("X-Forwarded-For", xff)
		resp, err := client(src).Do(req)
		if err != nil {
			t.Skipf("cannot connect from %s: %v", src, err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		var r geoip.Result
		if err := json.Unmarshal(body, &r); err != nil {
			t.Fatalf("body %s", body)
		}
		return r
	}
	tests := []struct {
		name    string
		trusted []string
		src     string
		wantIP  string
		wantCC  string
	}{
		{"untrusted peer forging the header", []string{"127.0.0.1"}, "127.0.0.2", "127.0.0.2", ""},
		{"trusted proxy peer", []string{"127.0.0.1"}, "127.0.0.1", "81.7.7.7", "UA"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := newIPTestApp(t, db, tc.trusted...).listen(t)
			r := fetch(t, base, tc.src, "81.7.7.7")
			if r.IP != tc.wantIP || r.CountryCode != tc.wantCC {
				t.Fatalf("from %s: got ip=%s code=%s, want %s %q", tc.src, r.IP, r.CountryCode, tc.wantIP, tc.wantCC)
			}
		})
	}
}
