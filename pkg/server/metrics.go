package server

import (
	"crypto/subtle"
	"os"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/gofiber/fiber/v3/middleware/adaptor"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics is what GET /metrics reports (Prometheus text format), on a
// registry of its own: requests by route template and status with their
// latency, upload and download bytes, uploads in progress, the store's size,
// the sizes of the in-memory indexes, and the Go runtime (goroutines, memory).
type metrics struct {
	reg        *prometheus.Registry
	requests   *prometheus.CounterVec
	latency    *prometheus.HistogramVec
	uploaded   prometheus.Counter
	downloaded prometheus.Counter
	redirected prometheus.Counter
}

func newMetrics(s *Server) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "devhub_http_requests_total", Help: "HTTP requests answered, by method, route template and status.",
		}, []string{"method", "route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "devhub_http_request_duration_seconds", Help: "Time to answer HTTP requests, by method and route template.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 10},
		}, []string{"method", "route"}),
		uploaded: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "devhub_upload_bytes_total", Help: "Bytes of uploaded files stored.",
		}),
		downloaded: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "devhub_download_bytes_total", Help: "Bytes of stored files sent (whole files and ranges).",
		}),
		redirected: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "devhub_download_redirects_total", Help: "Downloads sent to the object store with a presigned URL (storage.s3.serve_direct); their bytes do not pass here.",
		}),
	}
	gauge := func(name, help string, f func() float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f)
	}
	m.reg.MustRegister(m.requests, m.latency, m.uploaded, m.downloaded, m.redirected,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		gauge("devhub_uploads_in_progress", "Uploads being received now.", func() float64 {
			return float64(s.uploads.slots.Active())
		}))
	if st := s.svc.Store; st != nil {
		m.reg.MustRegister(gauge("devhub_store_bytes", "Size of the store file.", func() float64 {
			fi, err := os.Stat(st.Path())
			if err != nil {
				return 0
			}
			return float64(fi.Size())
		}))
	}
	if b := s.svc.Blog; b != nil {
		m.reg.MustRegister(gauge("devhub_blog_articles", "Articles in the blog index.", func() float64 { return float64(b.Count()) }))
	}
	if r := s.svc.Roms; r != nil {
		m.reg.MustRegister(gauge("devhub_games", "Games in the games index.", func() float64 {
			n := 0
			for _, c := range r.Consoles() {
				n += c.Games
			}
			return float64(n)
		}))
	}
	m.reg.MustRegister(backupMailCollectors(s)...)
	if f := s.svc.Files; f != nil {
		m.reg.MustRegister(gauge("devhub_files", "Files in the file cloud.", func() float64 { return float64(f.Count()) }))
	}
	return m
}

// observe counts one answered request under its route template (never the
// raw path: ids and probes would make the label set unbounded).
func (m *metrics) observe(c fiber.Ctx, status int, took time.Duration) {
	route := "unmatched"
	if r := c.Route(); r != nil && r.Path != "" && r.Path != "/" {
		route = r.Path
	}
	m.requests.WithLabelValues(c.Method(), route, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(c.Method(), route).Observe(took.Seconds())
}

// mountMetrics serves GET /metrics when metrics.enabled. With metrics.token
// set, a bearer token is required from anyone; without one, only a client on
// this machine that came straight in (a loopback peer and no
// X-Forwarded-For: a reverse proxy on this machine is loopback too, and must
// not turn the page public) is answered. Everyone else gets a 404, as if
// the page did not exist.
func (s *Server) mountMetrics(app *fiber.App) {
	if !s.cfg.Metrics.Enabled || s.metrics == nil {
		return
	}
	h := adaptor.HTTPHandler(promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{}))
	app.Get("/metrics", func(c fiber.Ctx) error {
		if tok := s.cfg.Metrics.Token; tok != "" {
			if subtle.ConstantTimeCompare([]byte(bearerToken(c)), []byte(tok)) != 1 {
				c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="metrics"`)
				return NewError(fiber.StatusUnauthorized, "metrics need the configured bearer token")
			}
		} else if !c.RequestCtx().RemoteIP().IsLoopback() || forwardedFor(c) != "" {
			return NewError(fiber.StatusNotFound, "not found")
		}
		return h(c)
	})
}

// countDownload records the answer to a download of stored bytes (a file
// cloud file, a release file): a 200 or 206 sent its length, a 307 sent
// the client to the object store for bytes that never pass here. HEAD and
// every other status (304, 416, errors) sent none.
func (s *Server) countDownload(c fiber.Ctx) {
	if s.metrics == nil || c.Request().Header.IsHead() {
		return
	}
	switch c.Response().StatusCode() {
	case fiber.StatusOK, fiber.StatusPartialContent:
		s.metrics.downloaded.Add(float64(c.Response().Header.ContentLength()))
	case fiber.StatusTemporaryRedirect:
		s.metrics.redirected.Inc()
	}
}
