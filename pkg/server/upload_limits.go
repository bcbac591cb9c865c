package server

import (
	"errors"
	"io"
	"log/slog"
	"net"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/internal/ratelimit"
	"github.com/devhub/devhub/pkg/store"
)

// Upload admission. An upload holds a connection, a buffer, a temp file and
// disk bandwidth for as long as its client likes, so uploads are admitted
// in three steps before a byte is read: a start rate per user and per client
// network, then a cap on uploads in progress per user and on the whole
// server. Each refusal is a 429 with Retry-After. Once admitted, an upload
// must keep a minimum pace (minRateReader) or is ended with nothing kept.
type uploadLimits struct {
	rate *ratelimit.Limiter[string]
	// slots are the uploads in progress, per user and in all.
	slots   *ratelimit.Slots[uint64]
	minRate int64
}

// uploadBusyRetry is the Retry-After of an upload refused because too many
// are in progress: they end on their own, a few seconds is a fair guess.
const uploadBusyRetry = 5 * time.Second

// minRateWindow is the span the minimum upload rate is averaged over.
const minRateWindow = 30 * time.Second

func newUploadLimits(f config.Files) *uploadLimits {
	return &uploadLimits{
		rate:    ratelimit.New[string](f.UploadsPerMinute, time.Minute, 0, nil),
		slots:   ratelimit.NewSlots[uint64](f.MaxConcurrentUploads, f.MaxConcurrentUploadsPerUser),
		minRate: f.MinUploadRate,
	}
}

// admitUpload runs before an upload handler: it checks the start rate and
// takes a place among the uploads in progress, given back when the handler
// returns.
func (s *Server) admitUpload(c fiber.Ctx) error {
	if err := s.checkUploadRate(c); err != nil {
		return err
	}
	return s.holdUploadSlot(c)
}

// limitUploadRate is the start-rate half of admitUpload, for a route that
// starts an upload whose bytes come in later requests (tus creation).
func (s *Server) limitUploadRate(c fiber.Ctx) error {
	if err := s.checkUploadRate(c); err != nil {
		return err
	}
	return c.Next()
}

func (s *Server) checkUploadRate(c fiber.Ctx) error {
	u := currentUser(c)
	l := s.uploads
	userKey := "u:" + strconv.FormatUint(u.ID, 10)
	netKey := "n:" + ratelimit.Network(s.clientIP(c), false).String()
	for _, k := range []string{userKey, netKey} {
		if ok, wait := l.rate.Allow(k); !ok {
			return store.TooMany("too many uploads started, slow down", wait)
		}
	}
	return nil
}

// holdUploadSlot is the concurrency half of admitUpload: a request that
// carries upload bytes (a multipart upload, a tus PATCH) holds a place
// among the uploads in progress while it runs.
func (s *Server) holdUploadSlot(c fiber.Ctx) error {
	release, ok := s.uploads.slots.Take(currentUser(c).ID)
	if !ok {
		return store.TooMany("too many uploads in progress, try again shortly", uploadBusyRetry)
	}
	defer release()
	return c.Next()
}

// paced holds an upload's body to the minimum pace when one is set, else
// to the read timeout between reads. The server's read timeout is meant for
// a request's head; an upload may take long, so it only has to keep a
// minimum pace.
func (s *Server) paced(c fiber.Ctx, body io.Reader) io.Reader {
	if min := s.uploads.minRate; min > 0 {
		return newMinRateReader(body, c.RequestCtx().Conn(), min)
	}
	if rt := s.cfg.Server.ReadTimeout; rt > 0 {
		return &deadlineReader{r: body, conn: c.RequestCtx().Conn(), timeout: rt}
	}
	return body
}

// deadlineReader keeps pushing the connection's read deadline forward while
// bytes arrive, so a large upload is limited by inactivity, not by length.
type deadlineReader struct {
	r       io.Reader
	conn    net.Conn
	timeout time.Duration
	last    time.Time
}

func (r *deadlineReader) Read(p []byte) (int, error) {
	if now := time.Now(); r.conn != nil && now.Sub(r.last) > time.Second {
		r.conn.SetReadDeadline(now.Add(r.timeout))
		r.last = now
	}
	return r.r.Read(p)
}

// errUploadTooSlow ends an upload that fell below files.min_upload_rate.
var errUploadTooSlow = errors.New("upload too slow")

// uploadTooSlow is the answer to an upload errUploadTooSlow ended, on every
// route that reads through uploadBody: logged with the client's address,
// 408, nothing kept.
func (s *Server) uploadTooSlow(c fiber.Ctx) error {
	s.logFor(c).Info("upload ended: too slow", slog.String("ip", s.clientIP(c).String()))
	return NewError(fiber.StatusRequestTimeout, "the upload arrived too slowly and was ended; nothing was kept")
}

// minRateReader ends an upload whose bytes arrive slower than min bytes a
// second averaged over minRateWindow: a client that sends a little and then
// stalls (or trickles) would otherwise hold its connection, buffer and temp
// file for ever. While bytes arrive it keeps the connection's read deadline
// minRateWindow ahead, so a read waiting for bytes that never come ends
// after that much silence.
type minRateReader struct {
	r           io.Reader
	conn        net.Conn
	min         int64
	windowStart time.Time
	windowBytes int64
	deadlineSet time.Time
	window      time.Duration
	now         func() time.Time
}

func newMinRateReader(r io.Reader, conn net.Conn, min int64) *minRateReader {
	m := &minRateReader{r: r, conn: conn, min: min, window: minRateWindow, now: time.Now}
	now := m.now()
	m.windowStart = now
	m.pushDeadline(now)
	return m
}

func (m *minRateReader) pushDeadline(now time.Time) {
	if m.conn != nil {
		m.conn.SetReadDeadline(now.Add(m.window))
	}
	m.deadlineSet = now
}

func (m *minRateReader) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	m.windowBytes += int64(n)
	now := m.now()
	if elapsed := now.Sub(m.windowStart); elapsed >= m.window {
		if m.windowBytes < m.min*int64(elapsed/time.Second) {
			return n, errUploadTooSlow
		}
		m.windowStart, m.windowBytes = now, 0
	}
	if n > 0 && now.Sub(m.deadlineSet) >= time.Second {
		m.pushDeadline(now)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return n, errUploadTooSlow // the window's deadline passed without a byte
	}
	return n, err
}
