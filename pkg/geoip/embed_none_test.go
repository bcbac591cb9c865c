//go:build !embedgeoip

package geoip_test

import (
	"net/netip"
	"testing"

	"github.com/devhub/devhub/pkg/geoip"
)

// Without the tag and without geoip.database the site still answers, with
// Unknown for everyone.
func TestNoEmbeddedDatabase(t *testing.T) {
	db, err := geoip.Open("")
	if err != nil {
		t.Fatal(err)
	}
	if db.Available() {
		t.Fatalf("a database is available without the embedgeoip tag: %+v", db.Info())
	}
	got, _ := db.Lookup(netip.MustParseAddr("8.8.8.8"))
	if got.Country != geoip.Unknown || got.CountryCode != "" || got.IP != "8.8.8.8" {
		t.Fatalf("lookup = %+v", got)
	}
}
