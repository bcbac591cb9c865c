package server

// The one HTTP caching path. Every GET/HEAD that answers with stored bytes —
// the SPA's assets and pages, the icons, the emulator page and cores, ROMs
// and covers, user files, the profile and its avatar — describes them as a
// content and lets sendContent answer:
//
//   - the validators: ETag and Last-Modified, with If-None-Match (weak
//     comparison, lists, *) taking precedence over If-Modified-Since —
//     Fiber's c.Fresh, which implements RFC 9110 §13.2.2;
//   - the encoding: a precompressed br or gzip variant when the client
//     accepts it, read with Fiber's Accept-Encoding parser (q-values, q=0,
//     *), each variant with its own ETag since its bytes differ;
//   - one byte range: Range and If-Range.
//
// What Fiber, fasthttp and net/http do not give here, and so this file
// keeps: the server's preference of br over gzip at equal weight (Fiber
// picks in the client's order, and browsers list gzip first); and Range
// over any body with devhub's documented answers (docs/files.md) — several
// ranges are answered whole (fasthttp answers 416, net/http multipart), a
// zero-length suffix is unsatisfiable (fasthttp serves it), another unit is
// ignored, whitespace is allowed. fasthttp's SendFile ranges only paths on
// disk, and net/http's ServeContent needs a ResponseWriter, which would cost
// the sendfile path user files take (shared/notes/fiber-and-uploads.md).

import (
	"errors"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/storage"
)

// content is what one GET answers with, as the caching path sees it.
type content struct {
	contentType  string
	cacheControl string
	// etag is the strong validator of the identity bytes, quoted; empty for
	// none. A variant's is derived from it ("…-br").
	etag string
	// lastModified is the Last-Modified validator; zero for none.
	lastModified time.Time
	// ranges turns on Accept-Ranges: bytes, Range and If-Range.
	ranges bool
	// identity is the bytes themselves; br and gz their precompressed
	// variants, nil when there are none.
	identity payload
	br, gz   *payload
	// beforeBytes, when set, runs once the answer is known to be the bytes
	// (not 304, not 416; for HEAD their headers), before its status and
	// body are set: what must happen only for a real download (a share
	// link counting one). Its error is the answer instead.
	beforeBytes func() error
	// redirect, when set, is where a GET whose answer is the bytes is sent
	// instead of them (a presigned URL at the object store): the same
	// 304, 416 and beforeBytes come first, and the answer is a 307 that no
	// cache keeps. A HEAD gets the headers from here as without it.
	redirect string
}

// payload is one encoding's bytes: in memory (data), a file the caller
// opened (file, which sendContent then owns and closes unless it sends it),
// or one sendContent opens only when it sends the bytes (open).
type payload struct {
	size int64
	data []byte
	file io.ReadCloser
	open func() (io.ReadCloser, error)
}

// memory is a payload of bytes held in memory.
func memory(b []byte) payload { return payload{size: int64(len(b)), data: b} }

// sendContent answers c with ct: 304 when the client's copy is fresh, 206
// for one satisfiable range, 416 (an APIError) for an unsatisfiable one,
// else the chosen encoding's bytes with the status already set (200 unless
// the caller chose another, such as the SPA's 404 page).
func sendContent(c fiber.Ctx, ct *content) error {
	p, etag := &ct.identity, ct.etag
	defer func() {
		for _, v := range []*payload{&ct.identity, ct.br, ct.gz} {
			if v != nil && v != p && v.file != nil {
				v.file.Close()
			}
		}
	}()
	h := &c.Response().Header
	if ct.br != nil || ct.gz != nil {
		c.Vary(fiber.HeaderAcceptEncoding)
		switch preferredEncoding(c, ct.br != nil, ct.gz != nil) {
		case "br":
			p, etag = ct.br, variantETag(etag, "br")
			h.Set(fiber.HeaderContentEncoding, "br")
		case "gzip":
			p, etag = ct.gz, variantETag(etag, "gz")
			h.Set(fiber.HeaderContentEncoding, "gzip")
		}
	}
	if ct.contentType != "" {
		h.Set(fiber.HeaderContentType, ct.contentType)
	}
	if ct.cacheControl != "" {
		h.Set(fiber.HeaderCacheControl, ct.cacheControl)
	}
	if etag != "" {
		h.Set(fiber.HeaderETag, etag)
	}
	if !ct.lastModified.IsZero() {
		h.Set(fiber.HeaderLastModified, ct.lastModified.UTC().Format(http.TimeFormat))
	}
	if ct.ranges {
		h.Set(fiber.HeaderAcceptRanges, "bytes")
	}
	if c.Fresh() {
		closePayload(p)
		c.Status(fiber.StatusNotModified)
		c.Response().ResetBody()
		return nil
	}
	start, length, partial := int64(0), p.size, false
	if ct.ranges {
		var err error
		start, length, partial, err = byteRange(c.Get(fiber.HeaderRange), c.Get(fiber.HeaderIfRange), etag, ct.lastModified, p.size)
		if err != nil {
			closePayload(p)
			h.Set(fiber.HeaderContentRange, "bytes */"+strconv.FormatInt(p.size, 10))
			return NewError(fiber.StatusRequestedRangeNotSatisfiable, "requested range not satisfiable")
		}
	}
	if ct.beforeBytes != nil {
		if err := ct.beforeBytes(); err != nil {
			closePayload(p)
			for _, k := range []string{fiber.HeaderETag, fiber.HeaderLastModified, fiber.HeaderAcceptRanges, fiber.HeaderContentEncoding} {
				h.Del(k) // they described the bytes; the answer is now an error
			}
			return err
		}
	}
	if ct.redirect != "" && !c.Request().Header.IsHead() {
		closePayload(p)
		for _, k := range []string{fiber.HeaderETag, fiber.HeaderLastModified, fiber.HeaderAcceptRanges,
			fiber.HeaderContentEncoding, fiber.HeaderContentDisposition, fiber.HeaderContentType} {
			h.Del(k) // they describe the bytes, which the store's answer carries
		}
		// The URL is this visit's (signed, short-lived, counted): never kept.
		h.Set(fiber.HeaderCacheControl, "private, no-store")
		h.Set(fiber.HeaderLocation, ct.redirect)
		c.Status(fiber.StatusTemporaryRedirect)
		c.Response().ResetBody()
		return nil
	}
	if partial {
		c.Status(fiber.StatusPartialContent)
		h.Set(fiber.HeaderContentRange, "bytes "+strconv.FormatInt(start, 10)+"-"+
			strconv.FormatInt(start+length-1, 10)+"/"+strconv.FormatInt(p.size, 10))
	}
	if p.data != nil || (p.file == nil && p.open == nil) {
		// Prepared bytes never change: hand them to fasthttp without the
		// copy c.Send would make (a 300 KB bundle per request otherwise).
		c.Response().SetBodyRaw(p.data[start : start+length])
		return nil
	}
	if c.Request().Header.IsHead() {
		closePayload(p)
		h.SetContentLength(int(length))
		return nil
	}
	f := p.file
	if f == nil {
		var err error
		if f, err = p.open(); err != nil {
			return err
		}
	}
	p.file = nil // fasthttp owns it now and closes it when the answer is done or abandoned
	c.Response().SetBodyStream(&section{f: f, off: start, n: length}, int(length))
	return nil
}

func closePayload(p *payload) {
	if p.file != nil {
		p.file.Close()
		p.file = nil
	}
}

// variantETag is the ETag of a precompressed variant of the bytes etag
// names (a strong validator must differ when the bytes do).
func variantETag(etag, suffix string) string {
	if etag == "" {
		return ""
	}
	return strings.TrimSuffix(etag, `"`) + "-" + suffix + `"`
}

// preferredEncoding picks br over gzip over identity among the variants
// there are, from what the client accepts (no Accept-Encoding: identity).
func preferredEncoding(c fiber.Ctx, haveBr, haveGz bool) string {
	if len(c.Request().Header.Peek(fiber.HeaderAcceptEncoding)) == 0 {
		return ""
	}
	if haveBr && c.AcceptsEncodings("br") == "br" {
		return "br"
	}
	if haveGz && c.AcceptsEncodings("gzip") == "gzip" {
		return "gzip"
	}
	return ""
}

// byteRange reads a Range header against bytes of the given size. It
// returns them whole (partial=false) when there is no usable Range: none,
// another unit, several ranges (served whole rather than as multipart), or
// an If-Range that matches neither the ETag (strongly) nor Last-Modified.
// A single range that starts at or past the end, a zero-length suffix, or a
// malformed byte range is unsatisfiable (err); an end past the size is
// clamped to the last byte.
func byteRange(header, ifRange, etag string, lastModified time.Time, size int64) (start, length int64, partial bool, err error) {
	header = strings.TrimSpace(header)
	if header == "" {
		return 0, size, false, nil
	}
	unit, spec, ok := strings.Cut(header, "=")
	if !ok || !strings.EqualFold(strings.TrimSpace(unit), "bytes") {
		return 0, size, false, nil
	}
	if ifRange != "" && (etag == "" || ifRange != etag) {
		t, perr := http.ParseTime(ifRange)
		if perr != nil || lastModified.IsZero() || !t.Equal(lastModified.UTC().Truncate(time.Second)) {
			return 0, size, false, nil
		}
	}
	if strings.Contains(spec, ",") {
		return 0, size, false, nil
	}
	first, last, ok := strings.Cut(strings.TrimSpace(spec), "-")
	if !ok {
		return 0, 0, false, errBadRange
	}
	first, last = strings.TrimSpace(first), strings.TrimSpace(last)
	if first == "" {
		// Suffix range: the last N bytes.
		n, perr := parseRangeNum(last)
		if perr != nil || n == 0 || size == 0 {
			return 0, 0, false, errBadRange
		}
		n = min(n, size)
		return size - n, n, true, nil
	}
	start, perr := parseRangeNum(first)
	if perr != nil || start >= size {
		return 0, 0, false, errBadRange
	}
	end := size - 1
	if last != "" {
		e, perr := parseRangeNum(last)
		if perr != nil || e < start {
			return 0, 0, false, errBadRange
		}
		end = min(e, size-1)
	}
	return start, end - start + 1, true, nil
}

var errBadRange = errors.New("unsatisfiable range")

func parseRangeNum(s string) (int64, error) {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, errBadRange
	}
	return strconv.ParseInt(s, 10, 64)
}

// section is a response body of n bytes of f from off. For an *os.File it
// hands the copy to the connection's ReadFrom with the file itself, which
// lets the kernel send the bytes (sendfile) without them passing through
// user space; fasthttp closes it when the response is done or abandoned.
type section struct {
	f       io.ReadCloser
	off, n  int64
	skipped bool
}

// skip moves to off: a seek where f can, else reading past the bytes before.
func (s *section) skip() error {
	if s.skipped {
		return nil
	}
	s.skipped = true
	if s.off == 0 {
		return nil
	}
	if sk, ok := s.f.(io.Seeker); ok {
		_, err := sk.Seek(s.off, io.SeekStart)
		return err
	}
	_, err := io.CopyN(io.Discard, s.f, s.off)
	return err
}

func (s *section) Read(p []byte) (int, error) {
	if err := s.skip(); err != nil {
		return 0, err
	}
	if s.n <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > s.n {
		p = p[:s.n]
	}
	n, err := s.f.Read(p)
	s.n -= int64(n)
	return n, err
}

func (s *section) WriteTo(w io.Writer) (int64, error) {
	if err := s.skip(); err != nil {
		return 0, err
	}
	if _, isFile := s.f.(*os.File); isFile {
		// An empty write buffer lets bufio.Writer pass ReadFrom straight to
		// the TCP connection, where a LimitedReader over an *os.File is sendfile.
		if fl, ok := w.(interface{ Flush() error }); ok {
			if err := fl.Flush(); err != nil {
				return 0, err
			}
		}
	}
	var n int64
	var err error
	lr := &io.LimitedReader{R: s.f, N: s.n}
	if cp, ok := s.f.(storage.Copier); ok {
		n, err = cp.CopyTo(w, s.n) // an S3 object: its reader knows the fast way
	} else if rf, ok := w.(io.ReaderFrom); ok {
		n, err = rf.ReadFrom(lr)
	} else {
		n, err = io.Copy(w, lr)
	}
	s.n -= n
	return n, err
}

func (s *section) Close() error { return s.f.Close() }
