// Package geoip answers "where is this address?" from a local MaxMind-format
// database (mmdb), so the site never asks a third-party service about its
// visitors. The database is either the one embedded at build time (build tag
// embedgeoip; see docs/geoip.md) or a file named by geoip.database, which
// wins. Without either, every lookup answers "Unknown" and the site still
// works: the front end then falls back to the browser's language.
//
// Both common record layouts are read: MaxMind's GeoIP2/GeoLite2 and DB-IP
// nested layout (country.iso_code, city.names.en, location.latitude, …) and
// the flat layout of the ip-location-db databases (country_code, city,
// latitude, …). Country-only databases carry just a code; the English name
// comes from a built-in ISO 3166 table.
package geoip

//go:generate go run gen_countries.go

import (
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/oschwald/maxminddb-golang/v2"
)

// Unknown is the country reported when the address cannot be placed:
// private, loopback and link-local addresses, addresses the database does
// not cover, and every address when no database is available.
const Unknown = "Unknown"

// Result is what is known about one address. Strings the database does not
// have are empty (country is Unknown); numbers it does not have are nil, so
// they encode as JSON null rather than a misleading 0.
type Result struct {
	IP          string   `json:"ip"`
	Country     string   `json:"country"`
	CountryCode string   `json:"countryCode"`
	Region      string   `json:"region"`
	City        string   `json:"city"`
	Postal      string   `json:"postal"`
	Latitude    *float64 `json:"latitude"`
	Longitude   *float64 `json:"longitude"`
	Timezone    string   `json:"timezone"`
	Org         string   `json:"org"`
	ASN         *uint    `json:"asn"`
}

// DB looks addresses up. The zero value and a nil *DB answer Unknown.
type DB struct {
	r      *maxminddb.Reader
	source string
}

// Info describes the database in use, for logs and the CLI.
type Info struct {
	Source       string    `json:"source"`
	DatabaseType string    `json:"databaseType"`
	BuildTime    time.Time `json:"buildTime"`
	IPVersion    uint      `json:"ipVersion"`
}

// Open opens the database at path, or the embedded one when path is empty.
// With neither it returns a DB that answers Unknown (not an error: the
// product works without geo data).
func Open(path string) (*DB, error) {
	if path != "" {
		r, err := maxminddb.Open(path)
		if err != nil {
			return nil, fmt.Errorf("geoip: open %s: %w", path, err)
		}
		return &DB{r: r, source: path}, nil
	}
	if len(embedded) == 0 {
		return &DB{source: "none"}, nil
	}
	return FromBytes(embedded, "embedded:"+embeddedName)
}

// FromBytes opens a database held in memory. The slice must not change
// while the DB is in use.
func FromBytes(b []byte, source string) (*DB, error) {
	r, err := maxminddb.OpenBytes(b)
	if err != nil {
		return nil, fmt.Errorf("geoip: %s: %w", source, err)
	}
	return &DB{r: r, source: source}, nil
}

// Available reports whether lookups consult a database at all.
func (d *DB) Available() bool { return d != nil && d.r != nil }

// Info describes the database; Source is "none" without one.
func (d *DB) Info() Info {
	if !d.Available() {
		return Info{Source: "none"}
	}
	m := d.r.Metadata
	return Info{Source: d.source, DatabaseType: m.DatabaseType, BuildTime: m.BuildTime().UTC(), IPVersion: m.IPVersion}
}

// Close releases a file-backed database.
func (d *DB) Close() error {
	if !d.Available() {
		return nil
	}
	return d.r.Close()
}

// IsPublic reports whether ip is worth looking up: private (RFC 1918, ULA),
// shared (CGNAT), loopback, link-local, multicast and unspecified addresses
// say nothing about where a visitor is.
func IsPublic(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsUnspecified() || ip.IsLoopback() || ip.IsPrivate() ||
		ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsInterfaceLocalMulticast() || ip.IsMulticast() {
		return false
	}
	return !cgnat.Contains(ip)
}

var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// Lookup places ip. Non-public addresses are answered Unknown without
// touching the database; a database error is also Unknown (and returned, for
// logging), never a failed request.
func (d *DB) Lookup(ip netip.Addr) (Result, error) {
	ip = ip.Unmap()
	res := Result{Country: Unknown}
	if ip.IsValid() {
		res.IP = ip.String()
	}
	if !IsPublic(ip) || !d.Available() {
		return res, nil
	}
	found := d.r.Lookup(ip)
	if err := found.Err(); err != nil {
		return res, fmt.Errorf("geoip: lookup %s: %w", ip, err)
	}
	if !found.Found() {
		return res, nil
	}
	var rec record
	if err := found.Decode(&rec); err != nil {
		return res, fmt.Errorf("geoip: decode %s: %w", ip, err)
	}
	rec.fill(&res)
	return res, nil
}

// record is the union of the layouts we read. "city" is an object in the
// MaxMind layout and a string in the flat one, hence `any`.
type record struct {
	// MaxMind / DB-IP layout.
	Country struct {
		ISOCode string            `maxminddb:"iso_code"`
		Names   map[string]string `maxminddb:"names"`
	} `maxminddb:"country"`
	Subdivisions []struct {
		Names map[string]string `maxminddb:"names"`
	} `maxminddb:"subdivisions"`
	Postal struct {
		Code string `maxminddb:"code"`
	} `maxminddb:"postal"`
	Location struct {
		Latitude  *float64 `maxminddb:"latitude"`
		Longitude *float64 `maxminddb:"longitude"`
		TimeZone  string   `maxminddb:"time_zone"`
	} `maxminddb:"location"`
	// ASN databases (MaxMind GeoLite2-ASN, ip-location-db asn) share these.
	ASNumber uint   `maxminddb:"autonomous_system_number"`
	ASOrg    string `maxminddb:"autonomous_system_organization"`

	// Flat layout (ip-location-db).
	CountryCode string   `maxminddb:"country_code"`
	State1      string   `maxminddb:"state1"`
	Postcode    string   `maxminddb:"postcode"`
	Lat         *float64 `maxminddb:"latitude"`
	Lon         *float64 `maxminddb:"longitude"`
	Timezone    string   `maxminddb:"timezone"`

	// Both: an object with names (MaxMind) or a plain string (flat).
	City any `maxminddb:"city"`
}

func (rec *record) fill(res *Result) {
	code := strings.ToUpper(first(rec.Country.ISOCode, rec.CountryCode))
	if code != "" {
		res.CountryCode = code
		res.Country = first(rec.Country.Names["en"], countryNames[code], code)
	}
	if len(rec.Subdivisions) > 0 {
		res.Region = rec.Subdivisions[0].Names["en"]
	}
	res.Region = first(res.Region, rec.State1)
	switch c := rec.City.(type) {
	case string:
		res.City = c
	case map[string]any:
		if names, ok := c["names"].(map[string]any); ok {
			res.City, _ = names["en"].(string)
		}
	}
	res.Postal = first(rec.Postal.Code, rec.Postcode)
	res.Latitude = firstFloat(rec.Location.Latitude, rec.Lat)
	res.Longitude = firstFloat(rec.Location.Longitude, rec.Lon)
	res.Timezone = first(rec.Location.TimeZone, rec.Timezone)
	res.Org = rec.ASOrg
	if n := rec.ASNumber; n != 0 {
		res.ASN = &n
	}
}

func first(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func firstFloat(fs ...*float64) *float64 {
	for _, f := range fs {
		if f != nil {
			return f
		}
	}
	return nil
}

// Set is the databases devhub consults together: the country database (the
// embedded one or geoip.database), and optionally a city database
// (geoip.city_database) and an ASN database (geoip.asn_database). A lookup
// takes each field from the most specific database that has it.
type Set struct {
	Country *DB
	// City and ASN may each be several files (free databases often come
	// as one for IPv4 and one for IPv6); the first that knows an address
	// answers.
	City, ASN []*DB
}

// OpenSet opens the configured databases; empty paths are simply absent.
// cityPaths and asnPaths may list several files separated by commas.
func OpenSet(countryPath, cityPaths, asnPaths string) (*Set, error) {
	s := &Set{}
	var err error
	if s.Country, err = Open(countryPath); err != nil {
		return nil, err
	}
	for _, x := range []struct {
		paths string
		dst   *[]*DB
	}{{cityPaths, &s.City}, {asnPaths, &s.ASN}} {
		for _, p := range SplitPaths(x.paths) {
			db, err := Open(p)
			if err != nil {
				s.Close()
				return nil, err
			}
			*x.dst = append(*x.dst, db)
		}
	}
	return s, nil
}

// SplitPaths reads a comma-separated list of database paths.
func SplitPaths(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Close releases every database.
func (s *Set) Close() error {
	if s == nil {
		return nil
	}
	for _, d := range s.all() {
		d.Close()
	}
	return nil
}

func (s *Set) all() []*DB {
	out := []*DB{s.Country}
	out = append(out, s.City...)
	return append(out, s.ASN...)
}

// Databases lists the databases in use, for the start-up log.
func (s *Set) Databases() []*DB {
	if s == nil {
		return nil
	}
	var out []*DB
	for _, d := range s.all() {
		if d.Available() {
			out = append(out, d)
		}
	}
	return out
}

// Available reports whether any database is consulted.
func (s *Set) Available() bool { return len(s.Databases()) > 0 }

// firstKnown looks ip up in dbs and returns the first answer that placed it.
func firstKnown(dbs []*DB, ip netip.Addr, known func(Result) bool) (Result, error) {
	var firstErr error
	for _, d := range dbs {
		r, err := d.Lookup(ip)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		if known(r) {
			return r, firstErr
		}
	}
	return Result{}, firstErr
}

// Lookup places ip with every database of the set: the country database
// first, the city database over it for the place, the ASN database for the
// network. Errors are returned for logging; the result is always usable.
func (s *Set) Lookup(ip netip.Addr) (Result, error) {
	if s == nil {
		return (*DB)(nil).Lookup(ip)
	}
	res, err := s.Country.Lookup(ip)
	if len(s.City) > 0 {
		city, cerr := firstKnown(s.City, ip, func(r Result) bool { return r.CountryCode != "" || r.City != "" })
		if cerr != nil && err == nil {
			err = cerr
		}
		if city.CountryCode != "" {
			res.CountryCode, res.Country = city.CountryCode, city.Country
		}
		res.Region = first(city.Region, res.Region)
		res.City = first(city.City, res.City)
		res.Postal = first(city.Postal, res.Postal)
		res.Latitude = firstFloat(city.Latitude, res.Latitude)
		res.Longitude = firstFloat(city.Longitude, res.Longitude)
		res.Timezone = first(city.Timezone, res.Timezone)
	}
	if len(s.ASN) > 0 {
		asn, aerr := firstKnown(s.ASN, ip, func(r Result) bool { return r.ASN != nil || r.Org != "" })
		if aerr != nil && err == nil {
			err = aerr
		}
		res.Org = first(asn.Org, res.Org)
		if asn.ASN != nil {
			res.ASN = asn.ASN
		}
	}
	return res, err
}
