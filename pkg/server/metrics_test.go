package server

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/config"
)

func scrape(t *testing.T, url string, hdr ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Add(hdr[i], hdr[i+1])
	}
	resp, b := overTCP(t, req)
	return resp.StatusCode, string(b)
}

func TestMetrics(t *testing.T) {
	fa := newFilesTestAppWith(t, 1<<20, nil)
	// The files test app has metrics off; build one with them on.
	on := func(token string) *filesTestApp {
		t.Helper()
		return newFilesTestAppWithConfig(t, func(c *config.Config) {
			c.Metrics.Enabled = true
			c.Metrics.Token = token
		})
	}
	t.Run("off by default", func(t *testing.T) {
		_, body := scrape(t, fa.listen(t)+"/metrics")
		if strings.Contains(body, "go_goroutines") {
			t.Fatal("metrics served while metrics.enabled is off")
		}
	})
	t.Run("loopback only without a token", func(t *testing.T) {
		a := on("")
		base := a.listen(t)
		up := a.upload(t, filePart("m.png", testPNG))[0]
		scrape(t, base+"/api/files/"+itoa(up.ID)+"/download")
		code, body := scrape(t, base+"/metrics")
		if code != 200 {
			t.Fatalf("loopback scrape: %d", code)
		}
		for _, want := range []string{
			"go_goroutines", "devhub_store_bytes", "devhub_files 1", "devhub_uploads_in_progress 0",
			`devhub_http_requests_total{method="GET",route="/api/files/:id/download",status="200"} 1`,
			"devhub_http_request_duration_seconds_bucket", "devhub_download_bytes_total " + itoa(uint64(len(testPNG))),
		} {
			if !strings.Contains(body, want) {
				t.Errorf("metrics lack %q", want)
			}
		}
		if strings.Contains(body, "/api/files/"+itoa(up.ID)) {
			t.Error("a raw path with an id became a label")
		}
		// Through a reverse proxy on this machine: not public.
		if code, _ := scrape(t, base+"/metrics", "X-Forwarded-For", "203.0.113.9"); code != 404 {
			t.Fatalf("proxied scrape without a token: %d", code)
		}
		// A proxy that adds its own line after the client's (empty) one.
		if code, _ := scrape(t, base+"/metrics", "X-Forwarded-For", "", "X-Forwarded-For", "203.0.113.9"); code != 404 {
			t.Fatalf("proxied scrape with the client's empty X-Forwarded-For line first: %d", code)
		}
	})
	t.Run("bearer token", func(t *testing.T) {
		base := on("metrics-token-0123456789").listen(t)
		for _, tc := range []struct {
			auth string
			want int
		}{{"", 401}, {"Bearer wrong-token-0123456789", 401}, {"Bearer metrics-token-0123456789", 200}} {
			code, _ := scrape(t, base+"/metrics", "Authorization", tc.auth, "X-Forwarded-For", "203.0.113.9")
			if code != tc.want {
				t.Errorf("Authorization %q: %d, want %d", tc.auth, code, tc.want)
			}
		}
	})
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }
