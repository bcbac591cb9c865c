package server

import (
	"io"
	"log/slog"
	"mime"
	"net/url"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/gofiber/fiber/v3/middleware/requestid"
	"github.com/valyala/fasthttp"

	"github.com/devhub/devhub/pkg/store"
)

// logFor is the logger for what happens while answering c: every line
// carries the request id (X-Request-Id), so the lines of one request can be
// found together and matched with what a client or proxy reports.
func (s *Server) logFor(c fiber.Ctx) *slog.Logger {
	return s.log.With(slog.String("request_id", requestid.FromContext(c)))
}

// requestLog writes one structured line per request after it is answered.
func (s *Server) requestLog(c fiber.Ctx) error {
	start := time.Now()
	err := c.Next()
	status := c.Response().StatusCode()
	if err != nil {
		// The error handler has not run yet; log the status it will choose.
		status = s.toAPIError(c, err).Status
	}
	if s.metrics != nil {
		s.metrics.observe(c, status, time.Since(start))
	}
	s.logFor(c).Info("request",
		slog.String("method", c.Method()),
		slog.String("path", c.Path()),
		slog.Int("status", status),
		slog.Duration("duration", time.Since(start)),
		slog.String("ip", s.clientIP(c).String()),
	)
	return err
}

// spaCSP lets the SPA load only its own scripts (no inline script), its own
// styles (inline style attributes are allowed: the toast and layout libraries
// set them), images from itself, data:/blob: URLs (article images, camera
// photos) and https: (an article's cover may be an https URL the owner chose;
// nothing the site ships points elsewhere), media from blob:, and frames only
// from itself (the emulator).
// 'wasm-unsafe-eval' lets the emulator page compile WebAssembly cores. The
// one inline script index.html has — it applies the saved colour theme
// before the first paint — is allowed by its hash (themeScriptHash) and
// nothing else inline runs.
const spaCSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' '" + themeScriptHash + "'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob: https:; media-src 'self' blob:; connect-src 'self'; font-src 'self'; " +
	"worker-src 'self' blob:; frame-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; " +
	"frame-ancestors 'self'"

// themeScriptHash is the CSP hash of index.html's inline theme script
// (site/index.html); a test fails when the script and the hash part.
const themeScriptHash = "sha256-IcrRXOmcLm/fm5tc06IaJYOY3dsCoJY31tGxVGrXSds="

// securityHeaders sets the baseline headers before the handler runs, so a
// handler with stricter needs (user files, the emulator) can override them.
func (s *Server) securityHeaders(c fiber.Ctx) error {
	h := &c.Response().Header
	h.Set("Content-Security-Policy", spaCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	h.Set("X-Frame-Options", "SAMEORIGIN")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	if s.hsts {
		h.Set("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
	}
	return c.Next()
}

// limitBody enforces a body limit. The app streams request bodies (so uploads
// never sit in memory), which means Fiber's own BodyLimit is not applied to
// large bodies: announced lengths over the limit are refused at once, and
// chunked bodies are read up to the limit and no further. What a refusal
// leaves unread is the body guard's (guardBody).
func (s *Server) limitBody(limit int) fiber.Handler {
	return func(c fiber.Ctx) error {
		if s.streaming[c.Path()] || s.streamingUnder(c.Path()) || s.streamingMatches(c.Path()) {
			return c.Next()
		}
		req := c.Request()
		if n := req.Header.ContentLength(); n > limit {
			return store.TooLarge("request body", int64(limit))
		}
		if req.IsBodyStream() {
			body, err := io.ReadAll(io.LimitReader(requestBody(c), int64(limit)+1))
			if err != nil {
				return fiber.NewError(fiber.StatusBadRequest, "could not read request body")
			}
			if len(body) > limit {
				return store.TooLarge("request body", int64(limit))
			}
			req.SetBodyRaw(body)
		}
		return c.Next()
	}
}

// allowStreamingBody exempts a path from limitBody: the route reads its body
// as a stream and applies its own size limit (the file cloud upload). Areas
// call it while mounting, before the server starts.
func (s *Server) allowStreamingBody(path string) { s.streaming[path] = true }

// allowStreamingPrefix is allowStreamingBody for every path under prefix
// (the tus endpoint, whose upload ids are part of the path).
func (s *Server) allowStreamingPrefix(prefix string) {
	s.streamingPrefixes = append(s.streamingPrefixes, prefix)
}

func (s *Server) streamingUnder(path string) bool {
	for _, p := range s.streamingPrefixes {
		if strings.HasPrefix(path, p) || path+"/" == p {
			return true
		}
	}
	return false
}

// allowStreamingBodyMatch is allowStreamingBody for paths with parameters
// in the middle (a save state's slot): match tells whether a path is one.
func (s *Server) allowStreamingBodyMatch(match func(path string) bool) {
	s.streamingMatch = append(s.streamingMatch, match)
}

func (s *Server) streamingMatches(path string) bool {
	for _, m := range s.streamingMatch {
		if m(path) {
			return true
		}
	}
	return false
}

// bindJSON decodes a JSON body into v; malformed JSON is a 400, a body
// that is not declared as JSON a 415. The media type matters for more than
// tidiness: a cross-site HTML form can post text/plain without the browser
// asking the server first, so a JSON endpoint that read any body could be
// driven from another site (sign a visitor into an attacker's account).
func bindJSON(c fiber.Ctx, v any) error {
	if len(c.Body()) == 0 {
		return NewError(fiber.StatusBadRequest, "request body must be a JSON object")
	}
	if !isJSONMediaType(c.Get(fiber.HeaderContentType)) {
		return NewError(fiber.StatusUnsupportedMediaType, "request body must be sent as application/json")
	}
	if err := c.Bind().JSON(v); err != nil {
		return NewError(fiber.StatusBadRequest, "malformed JSON body")
	}
	return nil
}

// isJSONMediaType accepts application/json and the application/*+json types.
func isJSONMediaType(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	return mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")
}

// sameOrigin refuses a state-changing request that a browser says came from
// another site. It guards the routes that sign in or act through the refresh
// cookie: the cookie is SameSite=Strict and the bodies must be JSON already,
// this is the third wall. Browsers send Sec-Fetch-Site (and Origin) on such
// requests; scripts and the CLI send neither and are not affected.
func (s *Server) sameOrigin(c fiber.Ctx) error {
	switch c.Method() {
	case fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions:
		return c.Next()
	}
	switch c.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return NewError(fiber.StatusForbidden, "cross-site request refused")
	}
	if origin := c.Get(fiber.HeaderOrigin); origin != "" && !s.isOwnOrigin(c, origin) {
		return NewError(fiber.StatusForbidden, "cross-site request refused")
	}
	return c.Next()
}

// isOwnOrigin reports whether origin is this site: the configured public
// URL's origin, or else the host the request was sent to.
func (s *Server) isOwnOrigin(c fiber.Ctx, origin string) bool {
	o, err := url.Parse(origin)
	if err != nil || o.Host == "" {
		return false
	}
	if pub := s.cfg.Server.PublicURL; pub != "" {
		p, err := url.Parse(pub)
		return err == nil && strings.EqualFold(p.Scheme, o.Scheme) && strings.EqualFold(p.Host, o.Host)
	}
	return strings.EqualFold(o.Host, c.Hostname()) || strings.EqualFold(o.Host, string(c.Request().Host()))
}

// compressMin is the smallest JSON answer worth compressing: below about a
// kilobyte the headers and the CPU cost more than the bytes saved.
const compressMin = 1024

// jsonCompressor is fasthttp's brotli/gzip compressor (what Fiber's compress
// middleware runs), applied to a finished response.
var jsonCompressor = fasthttp.CompressHandlerBrotliLevel(func(*fasthttp.RequestCtx) {},
	fasthttp.CompressBrotliDefaultCompression, fasthttp.CompressDefaultCompression)

// compressJSON compresses JSON answers over compressMin bytes for clients
// that accept brotli or gzip. Files, streams and small answers pass as they
// are; static assets are served precompressed elsewhere.
func compressJSON(c fiber.Ctx) error {
	if err := c.Next(); err != nil {
		return err
	}
	resp := c.Response()
	if resp.IsBodyStream() || len(resp.Body()) < compressMin || c.GetRespHeader(fiber.HeaderContentEncoding) != "" ||
		!strings.HasPrefix(c.GetRespHeader(fiber.HeaderContentType), fiber.MIMEApplicationJSON) {
		return nil
	}
	jsonCompressor(c.RequestCtx())
	// Once, also for a client that accepts neither encoding: the answer
	// still depends on the header (the compressor names it only when it
	// compressed).
	c.Vary(fiber.HeaderAcceptEncoding)
	return nil
}
