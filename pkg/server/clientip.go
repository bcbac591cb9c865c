package server

import (
	"net"
	"net/netip"
	"strings"

	"github.com/gofiber/fiber/v3"
)

// clientIP is the address of the client that made the request. The TCP peer
// is the client unless it is a configured trusted proxy; then
// X-Forwarded-For is walked from the right (the entries our proxies appended)
// and the first address that is not itself a trusted proxy wins. A client
// cannot forge its way past this: entries it wrote itself sit to the left of
// the one our proxy appended.
func (s *Server) clientIP(c fiber.Ctx) netip.Addr {
	peer := peerAddr(c)
	if !s.isTrustedProxy(peer) {
		return peer
	}
	xff := forwardedFor(c)
	if xff == "" {
		return peer
	}
	parts := strings.Split(xff, ",")
	for i := len(parts) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(parts[i]))
		if err != nil {
			return peer // a malformed hop: stop trusting the chain
		}
		a = a.Unmap()
		if !s.isTrustedProxy(a) {
			return a
		}
	}
	return peer
}

// forwardedFor is every X-Forwarded-For line of the request joined in
// order, as one list (RFC 9110 §5.3). A proxy may add its own line rather
// than extend the client's (HAProxy's option forwardfor does): reading only
// the first line would then take the address the client wrote for the
// client's own, and a forged one would escape every per-address limit.
func forwardedFor(c fiber.Ctx) string {
	lines := c.Request().Header.PeekAll(fiber.HeaderXForwardedFor)
	parts := make([]string, 0, len(lines))
	for _, l := range lines {
		parts = append(parts, string(l))
	}
	return strings.Join(parts, ",")
}

func (s *Server) isTrustedProxy(a netip.Addr) bool {
	for _, p := range s.trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func peerAddr(c fiber.Ctx) netip.Addr {
	var ip net.IP
	if addr, ok := c.RequestCtx().RemoteAddr().(*net.TCPAddr); ok {
		ip = addr.IP
	} else {
		ip = c.RequestCtx().RemoteIP()
	}
	a, ok := netip.AddrFromSlice(ip)
	if !ok {
		return netip.IPv4Unspecified()
	}
	return a.Unmap()
}
