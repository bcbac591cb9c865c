package geoip_test

import (
	"encoding/json"
	"net/netip"
	"os"
	"path/filepath"
	"testing"

	"github.com/devhub/devhub/pkg/geoip"
	"github.com/devhub/devhub/pkg/geoip/geoiptest"
)

// testDB holds one record per layout pkg/geoip reads, plus records on
// private and loopback ranges that must never be returned.
func testDB(t *testing.T) *geoip.DB {
	t.Helper()
	path := geoiptest.Write(t, map[string]geoiptest.Record{
		// ip-location-db country layout (what the shipped database has).
		"81.0.0.0/8":  {"country_code": "UA"},
		"2a02::/16":   {"country_code": "UA"},
		"31.0.0.0/8":  {"country_code": "eu"}, // a code outside ISO 3166-1
		"10.0.0.0/8":  {"country_code": "XX"},
		"127.0.0.0/8": {"country_code": "XX"},
		"::1/128":     {"country_code": "XX"},
		// MaxMind / DB-IP city layout.
		"2.0.0.0/8": {
			"country":                        map[string]any{"iso_code": "FR", "names": map[string]any{"en": "France", "de": "Frankreich"}},
			"city":                           map[string]any{"names": map[string]any{"en": "Paris"}},
			"subdivisions":                   []any{map[string]any{"iso_code": "IDF", "names": map[string]any{"en": "Île-de-France"}}},
			"postal":                         map[string]any{"code": "75001"},
			"location":                       map[string]any{"latitude": 48.8566, "longitude": 2.3522, "time_zone": "Europe/Paris"},
			"autonomous_system_number":       uint32(3215),
			"autonomous_system_organization": "Orange",
		},
		// ip-location-db city layout.
		"5.0.0.0/8": {
			"country_code": "DE", "city": "Berlin", "state1": "Berlin", "postcode": "10115",
			"latitude": 52.52, "longitude": 13.405, "timezone": "Europe/Berlin",
		},
	})
	db, err := geoip.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func fp(f float64) *float64 { return &f }
func up(u uint) *uint       { return &u }

func TestLookup(t *testing.T) {
	db := testDB(t)
	tests := []struct {
		name string
		ip   string
		want geoip.Result
	}{
		{"country-only layout", "81.23.4.5", geoip.Result{IP: "81.23.4.5", Country: "Ukraine", CountryCode: "UA"}},
		{"country-only IPv6", "2a02:2378::1", geoip.Result{IP: "2a02:2378::1", Country: "Ukraine", CountryCode: "UA"}},
		{"IPv4-mapped IPv6 is looked up as IPv4", "::ffff:81.1.1.1", geoip.Result{IP: "81.1.1.1", Country: "Ukraine", CountryCode: "UA"}},
		{"code without a name keeps the code", "31.1.1.1", geoip.Result{IP: "31.1.1.1", Country: "EU", CountryCode: "EU"}},
		{"MaxMind layout, every field", "2.3.4.5", geoip.Result{
			IP: "2.3.4.5", Country: "France", CountryCode: "FR", Region: "Île-de-France", City: "Paris", Postal: "75001",
			Latitude: fp(48.8566), Longitude: fp(2.3522), Timezone: "Europe/Paris", Org: "Orange", ASN: up(3215),
		}},
		{"flat city layout", "5.6.7.8", geoip.Result{
			IP: "5.6.7.8", Country: "Germany", CountryCode: "DE", Region: "Berlin", City: "Berlin", Postal: "10115",
			Latitude: fp(52.52), Longitude: fp(13.405), Timezone: "Europe/Berlin",
		}},
		{"public address not in the database", "9.9.9.9", geoip.Result{IP: "9.9.9.9", Country: "Unknown"}},
		{"private IPv4 is never looked up", "10.1.2.3", geoip.Result{IP: "10.1.2.3", Country: "Unknown"}},
		{"private 192.168", "192.168.1.10", geoip.Result{IP: "192.168.1.10", Country: "Unknown"}},
		{"loopback IPv4", "127.0.0.1", geoip.Result{IP: "127.0.0.1", Country: "Unknown"}},
		{"loopback IPv6", "::1", geoip.Result{IP: "::1", Country: "Unknown"}},
		{"link-local IPv4", "169.254.10.1", geoip.Result{IP: "169.254.10.1", Country: "Unknown"}},
		{"link-local IPv6", "fe80::1", geoip.Result{IP: "fe80::1", Country: "Unknown"}},
		{"unique local IPv6", "fd00::1", geoip.Result{IP: "fd00::1", Country: "Unknown"}},
		{"carrier-grade NAT", "100.64.3.4", geoip.Result{IP: "100.64.3.4", Country: "Unknown"}},
		{"unspecified", "0.0.0.0", geoip.Result{IP: "0.0.0.0", Country: "Unknown"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := db.Lookup(netip.MustParseAddr(tc.ip))
			if err != nil {
				t.Fatal(err)
			}
			assertJSONEqual(t, got, tc.want)
		})
	}
}

func TestLookupInvalidAddress(t *testing.T) {
	got, err := testDB(t).Lookup(netip.Addr{})
	if err != nil {
		t.Fatal(err)
	}
	assertJSONEqual(t, got, geoip.Result{Country: "Unknown"})
}

// The answer's JSON shape is the /api/ip contract: every key present, unknown
// numbers null rather than 0.
func TestResultJSONShape(t *testing.T) {
	got, _ := testDB(t).Lookup(netip.MustParseAddr("81.1.1.1"))
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"ip":"81.1.1.1","country":"Ukraine","countryCode":"UA","region":"","city":"","postal":"",` +
		`"latitude":null,"longitude":null,"timezone":"","org":"","asn":null}`
	if string(b) != want {
		t.Fatalf("JSON\n got %s\nwant %s", b, want)
	}
}

func TestNoDatabaseAnswersUnknown(t *testing.T) {
	for name, db := range map[string]*geoip.DB{"nil": nil, "zero": {}} {
		t.Run(name, func(t *testing.T) {
			if db.Available() {
				t.Fatal("Available() = true without a database")
			}
			got, err := db.Lookup(netip.MustParseAddr("8.8.8.8"))
			if err != nil {
				t.Fatal(err)
			}
			assertJSONEqual(t, got, geoip.Result{IP: "8.8.8.8", Country: "Unknown"})
			if db.Info().Source != "none" {
				t.Fatalf("Info().Source = %q, want none", db.Info().Source)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.mmdb")
	if err := os.WriteFile(garbage, []byte("this is not a MaxMind database"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, path := range map[string]string{"missing": filepath.Join(dir, "nope.mmdb"), "garbage": garbage} {
		t.Run(name, func(t *testing.T) {
			if _, err := geoip.Open(path); err == nil {
				t.Fatalf("Open(%s) succeeded", path)
			}
		})
	}
	if _, err := geoip.FromBytes([]byte("nope"), "bytes"); err == nil {
		t.Fatal("FromBytes(garbage) succeeded")
	}
}

// A configured file wins over the embedded database (when there is one).
func TestOpenPathWinsAndInfo(t *testing.T) {
	path := geoiptest.Write(t, map[string]geoiptest.Record{"8.0.0.0/8": {"country_code": "GB"}})
	db, err := geoip.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, _ := db.Lookup(netip.MustParseAddr("8.8.8.8"))
	if got.CountryCode != "GB" || got.Country != "United Kingdom" {
		t.Fatalf("8.8.8.8 = %+v, want the configured file's GB", got)
	}
	info := db.Info()
	if info.Source != path || info.DatabaseType != "devhub-test" || info.IPVersion != 6 || info.BuildTime.IsZero() {
		t.Fatalf("Info() = %+v", info)
	}
}

func TestIsPublic(t *testing.T) {
	for ip, want := range map[string]bool{
		"8.8.8.8": true, "2001:4860:4860::8888": true, "100.63.255.255": true, "100.128.0.0": true,
		"10.0.0.1": false, "172.16.0.1": false, "192.168.0.1": false, "127.0.0.1": false, "::1": false,
		"169.254.0.1": false, "fe80::1": false, "fc00::1": false, "100.64.0.1": false, "224.0.0.1": false,
		"ff02::1": false, "0.0.0.0": false, "::": false, "::ffff:10.0.0.1": false,
	} {
		if got := geoip.IsPublic(netip.MustParseAddr(ip)); got != want {
			t.Errorf("IsPublic(%s) = %v, want %v", ip, got, want)
		}
	}
}

func assertJSONEqual(t *testing.T, got, want geoip.Result) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Fatalf("\n got %s\nwant %s", g, w)
	}
}
