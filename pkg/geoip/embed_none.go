//go:build !embedgeoip

package geoip

// Built without the embedgeoip tag: no database inside the binary. Lookups
// answer Unknown unless geoip.database names a file.
var embedded []byte

const embeddedName = ""
