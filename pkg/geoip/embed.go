//go:build embedgeoip

package geoip

import _ "embed"

// The database fetched by .ci/fetch-geoip.sh (see docs/geoip.md). A build
// with the embedgeoip tag fails here when the script has not run.
//
//go:embed data/geo-whois-asn-country.mmdb
var embedded []byte

const embeddedName = "geo-whois-asn-country.mmdb"
