package server

import (
	"context"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"log/slog"

	"github.com/devhub/devhub/pkg/geoip"
	"github.com/devhub/devhub/pkg/internal/ratelimit"
	"github.com/devhub/devhub/pkg/store"
)

// ipRecord is GET /api/ip's answer: the place and network of an address
// from the local databases (never a third-party service), and its reverse
// DNS name. What is not known is "Unknown" (numbers: null).
type ipRecord struct {
	// Result is what the databases know, with Unknown for the strings they
	// lack (its fields come first in the JSON, as the contract lists them).
	geoip.Result
	Hostname string `json:"hostname"`
	// AcceptLanguage is the Accept-Language header this request arrived
	// with, so the IP report can compare what the server sees with
	// navigator.languages. Only in the caller's own record (absent for ?ip=).
	AcceptLanguage *string `json:"acceptLanguage,omitempty"`
}

// reverseDNSTimeout bounds the hostname lookup: the page must not wait on a
// slow resolver.
const reverseDNSTimeout = 500 * time.Millisecond

// ipLookupsPerMinute bounds GET /api/ip?ip= per client network: looking up
// other addresses costs a reverse DNS query each.
const ipLookupsPerMinute = 30

// mountIP serves the IP report's data: the caller's own address (or, with
// ?ip=, another one), as JSON or — for Accept: text/plain — as key: value
// lines; and GET /ip, the caller's address alone for curl.
func (s *Server) mountIP(api fiber.Router) {
	lookups := ratelimit.New[netip.Prefix](ipLookupsPerMinute, time.Minute, 0, nil)
	api.Get("/ip", func(c fiber.Ctx) error {
		ip := s.clientIP(c)
		own := true
		if raw := c.Query("ip"); raw != "" {
			if ok, wait := lookups.Allow(ratelimit.Network(s.clientIP(c), false)); !ok {
				return store.TooMany("too many address lookups, slow down", wait)
			}
			addr, err := netip.ParseAddr(strings.TrimSpace(raw))
			if err != nil || addr.Zone() != "" {
				return NewError(fiber.StatusBadRequest, "ip must be an IPv4 or IPv6 address")
			}
			ip, own = addr, false
		}
		rec := s.ipRecord(c, ip)
		if own {
			al := c.Get(fiber.HeaderAcceptLanguage)
			rec.AcceptLanguage = &al
		}
		// The answer is about this caller only: no shared cache may keep it.
		c.Set(fiber.HeaderCacheControl, "private, no-store")
		if prefersText(c.Get(fiber.HeaderAccept)) {
			c.Set(fiber.HeaderContentType, fiber.MIMETextPlainCharsetUTF8)
			return c.SendString(rec.text())
		}
		return c.JSON(rec)
	})
}

// mountPlainIP serves GET /ip: curl gets its address as text, a browser
// the IP report page.
func (s *Server) mountPlainIP(app *fiber.App) {
	app.Get("/ip", func(c fiber.Ctx) error {
		if strings.Contains(c.Get(fiber.HeaderAccept), "text/html") {
			return c.Redirect().Status(fiber.StatusFound).To("/tools/ip")
		}
		c.Set(fiber.HeaderContentType, fiber.MIMETextPlainCharsetUTF8)
		c.Set(fiber.HeaderCacheControl, "private, no-store")
		ip := s.clientIP(c).Unmap()
		if !ip.IsValid() {
			return c.SendString("Unknown\n")
		}
		return c.SendString(ip.String() + "\n")
	})
}

func (s *Server) ipRecord(c fiber.Ctx, ip netip.Addr) ipRecord {
	res, err := s.svc.GeoIP.Lookup(ip)
	if err != nil {
		// A damaged database must not break the page: answer Unknown.
		s.logFor(c).Warn("geoip lookup failed", slog.Any("err", err))
	}
	unknown := func(v string) string {
		if v == "" {
			return geoip.Unknown
		}
		return v
	}
	rec := ipRecord{Result: res, Hostname: geoip.Unknown}
	for _, v := range []*string{&rec.Country, &rec.Region, &rec.City, &rec.Postal, &rec.Timezone, &rec.Org} {
		*v = unknown(*v)
	}
	if ip.IsValid() && geoip.IsPublic(ip) {
		rec.Hostname = s.reverseDNS(c.Context(), ip)
	}
	return rec
}

// reverseDNS is ip's first PTR name, or Unknown.
func (s *Server) reverseDNS(ctx context.Context, ip netip.Addr) string {
	resolve := s.svc.ReverseDNS
	if resolve == nil {
		resolve = net.DefaultResolver.LookupAddr
	}
	ctx, cancel := context.WithTimeout(ctx, reverseDNSTimeout)
	defer cancel()
	names, err := resolve(ctx, ip.String())
	if err != nil || len(names) == 0 {
		return geoip.Unknown
	}
	return strings.TrimSuffix(names[0], ".")
}

// prefersText reports whether an Accept header asks for plain text rather
// than JSON (curl -H 'Accept: text/plain').
func prefersText(accept string) bool {
	return strings.Contains(accept, "text/plain") && !strings.Contains(accept, "application/json")
}

// text is the record as "key: value" lines, in the JSON's order.
func (r ipRecord) text() string {
	num := func(f *float64) string {
		if f == nil {
			return geoip.Unknown
		}
		return strconv.FormatFloat(*f, 'f', -1, 64)
	}
	asn := geoip.Unknown
	if r.ASN != nil {
		asn = strconv.FormatUint(uint64(*r.ASN), 10)
	}
	code := r.CountryCode
	if code == "" {
		code = geoip.Unknown
	}
	var b strings.Builder
	for _, kv := range [][2]string{
		{"ip", r.IP}, {"country", r.Country}, {"countryCode", code}, {"region", r.Region}, {"city", r.City},
		{"postal", r.Postal}, {"latitude", num(r.Latitude)}, {"longitude", num(r.Longitude)}, {"timezone", r.Timezone},
		{"org", r.Org}, {"asn", asn}, {"hostname", r.Hostname},
	} {
		b.WriteString(kv[0] + ": " + kv[1] + "\n")
	}
	return b.String()
}
