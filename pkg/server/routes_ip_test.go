package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
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
		o.Services = &Services{GeoIP: &geoip.Set{Country: db}, ReverseDNS: noDNS}
	})
}

// noDNS is a resolver that knows no names (tests never ask the network).
func noDNS(context.Context, string) ([]string, error) { return nil, errors.New("no such host") }

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

// A proxy may add its own X-Forwarded-For line after the client's instead
// of extending it (HAProxy's option forwardfor): the lines are one list, and
// the client's forged first line must not be taken for its address.
func TestIPEndpointForwardedForLines(t *testing.T) {
	db := ipTestDB(t)
	tests := []struct {
		name    string
		trusted []string
		lines   []string
		wantIP  string
	}{
		{"proxy's line after the client's forged one", []string{"0.0.0.0"}, []string{"81.1.2.3", "5.6.7.8"}, "5.6.7.8"},
		{"forged chain in the first line", []string{"0.0.0.0"}, []string{"81.1.2.3, 2a02:a000::1", "5.6.7.8"}, "5.6.7.8"},
		{"two trusted proxies, one line each", []string{"0.0.0.0", "10.0.0.0/8"}, []string{"81.9.9.9", "5.6.7.8", "10.0.0.7"}, "5.6.7.8"},
		{"client's empty line first", []string{"0.0.0.0"}, []string{"", "5.6.7.8"}, "5.6.7.8"},
		{"untrusted peer: every line ignored", nil, []string{"81.1.2.3", "5.6.7.8"}, "0.0.0.0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ta := newIPTestApp(t, db, tc.trusted...)
			req := httptest.NewRequest(http.MethodGet, "/ip", nil)
			req.Header.Set("Accept", "*/*")
			for _, l := range tc.lines {
				req.Header.Add("X-Forwarded-For", l)
			}
			resp, body := ta.do(t, req)
			if resp.StatusCode != 200 || string(body) != tc.wantIP+"\n" {
				t.Fatalf("got %d %q, want %q", resp.StatusCode, body, tc.wantIP)
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

// The full record: country from the country database, the place from the
// city database, the network from the ASN database, the name from reverse
// DNS; what is not known is Unknown.
func TestIPRecordFromEveryDatabase(t *testing.T) {
	country := ipTestDB(t)
	city, err := geoip.Open(geoiptest.Write(t, map[string]geoiptest.Record{
		"81.0.0.0/8": {
			"country":      map[string]any{"iso_code": "UA", "names": map[string]any{"en": "Ukraine"}},
			"subdivisions": []any{map[string]any{"names": map[string]any{"en": "Kyiv City"}}},
			"city":         map[string]any{"names": map[string]any{"en": "Kyiv"}},
			"postal":       map[string]any{"code": "01001"},
			"location":     map[string]any{"latitude": 50.45, "longitude": 30.52, "time_zone": "Europe/Kyiv"},
		},
	}))
	if err != nil {
		t.Fatal(err)
	}
	asn, err := geoip.Open(geoiptest.Write(t, map[string]geoiptest.Record{
		"81.0.0.0/8": {"autonomous_system_number": uint32(15895), "autonomous_system_organization": "Kyivstar"},
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { city.Close(); asn.Close() })
	resolver := func(_ context.Context, addr string) ([]string, error) {
		if addr == "81.1.2.3" {
			return []string{"host-81-1-2-3.example.net."}, nil
		}
		return nil, errors.New("no such host")
	}
	ta := newTestApp(t, func(o *Options) {
		o.Services = &Services{GeoIP: &geoip.Set{Country: country, City: []*geoip.DB{city}, ASN: []*geoip.DB{asn}}, ReverseDNS: resolver}
	})
	lookup := func(q, accept string) (int, string, map[string]any) {
		req := httptest.NewRequest(http.MethodGet, "/api/ip"+q, nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, body := ta.do(t, req)
		var m map[string]any
		json.Unmarshal(body, &m)
		return resp.StatusCode, string(body), m
	}
	code, body, m := lookup("?ip=81.1.2.3", "")
	want := map[string]any{"ip": "81.1.2.3", "country": "Ukraine", "countryCode": "UA", "region": "Kyiv City", "city": "Kyiv",
		"postal": "01001", "latitude": 50.45, "longitude": 30.52, "timezone": "Europe/Kyiv", "org": "Kyivstar", "asn": float64(15895),
		"hostname": "host-81-1-2-3.example.net"}
	if code != 200 || len(m) != len(want) {
		t.Fatalf("%d %s", code, body)
	}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s = %v, want %v", k, m[k], v)
		}
	}
	// Only the country database knows 5.x: the rest is Unknown.
	_, _, m = lookup("?ip=5.6.7.8", "")
	if m["country"] != "Germany" || m["city"] != "Unknown" || m["org"] != "Unknown" || m["hostname"] != "Unknown" || m["asn"] != nil {
		t.Fatalf("partly known: %v", m)
	}
	// Private and reserved ranges are never looked up.
	for _, private := range []string{"10.1.2.3", "::1", "192.168.1.1", "100.64.0.1"} {
		_, _, m = lookup("?ip="+private, "")
		if m["country"] != "Unknown" || m["city"] != "Unknown" || m["hostname"] != "Unknown" {
			t.Errorf("%s: %v", private, m)
		}
	}
	// Bad addresses are a 400 in the error shape.
	for _, bad := range []string{"999.1.1.1", "example.com", "1.2.3", "fe80::1%25eth0", "%20"} {
		code, body, _ := lookup("?ip="+bad, "")
		if code != 400 {
			t.Errorf("?ip=%s: %d %s", bad, code, body)
		}
	}
	// Plain text for scripts.
	code, body, _ = lookup("?ip=81.1.2.3", "text/plain")
	if code != 200 || !strings.HasPrefix(body, "ip: 81.1.2.3\ncountry: Ukraine\ncountryCode: UA\n") || !strings.Contains(body, "asn: 15895\n") ||
		!strings.HasSuffix(body, "hostname: host-81-1-2-3.example.net\n") {
		t.Fatalf("text: %d %q", code, body)
	}
}

func TestIPLookupIsRateLimited(t *testing.T) {
	ta := newIPTestApp(t, ipTestDB(t))
	for i := 0; i < 30; i++ {
		if resp, body := ta.do(t, httptest.NewRequest(http.MethodGet, "/api/ip?ip=5.6.7.8", nil)); resp.StatusCode != 200 {
			t.Fatalf("lookup %d: %d %s", i+1, resp.StatusCode, body)
		}
	}
	resp, body := ta.do(t, httptest.NewRequest(http.MethodGet, "/api/ip?ip=5.6.7.8", nil))
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("31st lookup: %d %s", resp.StatusCode, body)
	}
	// The caller's own address is not limited.
	if resp, _ := ta.do(t, httptest.NewRequest(http.MethodGet, "/api/ip", nil)); resp.StatusCode != 200 {
		t.Fatalf("own address: %d", resp.StatusCode)
	}
}

// GET /ip: curl gets the address as text, a browser the IP report page.
func TestPlainIP(t *testing.T) {
	ta := newIPTestApp(t, ipTestDB(t), "0.0.0.0/32")
	req := httptest.NewRequest(http.MethodGet, "/ip", nil)
	req.Header.Set("Accept", "*/*")
	req.Header.Set("X-Forwarded-For", "81.9.9.9")
	resp, body := ta.do(t, req)
	if resp.StatusCode != 200 || string(body) != "81.9.9.9\n" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("curl: %d %q", resp.StatusCode, body)
	}
	req = httptest.NewRequest(http.MethodGet, "/ip", nil)
	req.Header.Set("Accept", "text/html,application/xhtml+xml")
	resp, _ = ta.do(t, req)
	if resp.StatusCode != 302 || resp.Header.Get("Location") != "/tools/ip" {
		t.Fatalf("browser: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
}

// The caller's own record carries the Accept-Language the server saw (the
// IP report compares it with navigator.languages); a ?ip= lookup of another
// address does not, since that header says nothing about that address.
func TestIPRecordAcceptLanguage(t *testing.T) {
	ta := newIPTestApp(t, ipTestDB(t), "0.0.0.0")
	tests := []struct {
		name, query, header string
		want                any // nil: the field is absent
	}{
		{"own record with a header", "", "uk-UA,uk;q=0.9,en;q=0.8", "uk-UA,uk;q=0.9,en;q=0.8"},
		{"own record without a header: empty string", "", "", ""},
		{"another address: absent", "?ip=81.1.2.3", "de", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, "/api/ip"+tc.query, nil)
			req.Header.Set("X-Forwarded-For", "5.6.7.8")
			if tc.header != "" {
				req.Header.Set("Accept-Language", tc.header)
			}
			resp, body := ta.do(t, req)
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil || resp.StatusCode != 200 {
				t.Fatalf("%d %s", resp.StatusCode, body)
			}
			got, present := m["acceptLanguage"]
			if tc.want == nil && present || tc.want != nil && got != tc.want {
				t.Fatalf("acceptLanguage = %v (present %v), want %v", got, present, tc.want)
			}
		})
	}
}
