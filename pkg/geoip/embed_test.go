//go:build embedgeoip

package geoip_test

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/geoip"
)

// With the embedgeoip tag the shipped database is inside the binary and
// answers for well-known public addresses without any configuration.
func TestEmbeddedDatabase(t *testing.T) {
	db, err := geoip.Open("")
	if err != nil {
		t.Fatal(err)
	}
	if !db.Available() || !strings.HasPrefix(db.Info().Source, "embedded:") {
		t.Fatalf("embedded database not used: %+v", db.Info())
	}
	for ip, code := range map[string]string{
		"8.8.8.8":              "US", // Google Public DNS
		"193.0.6.139":          "NL", // RIPE NCC
		"2001:4860:4860::8888": "US",
	} {
		got, err := db.Lookup(netip.MustParseAddr(ip))
		if err != nil {
			t.Fatal(err)
		}
		if got.CountryCode != code || got.Country == "" || got.Country == geoip.Unknown {
			t.Errorf("%s = %+v, want %s", ip, got, code)
		}
	}
	if got, _ := db.Lookup(netip.MustParseAddr("192.168.1.1")); got.Country != geoip.Unknown {
		t.Errorf("private address = %+v, want Unknown", got)
	}
}
