package server

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"
)

// The icon set is read per request, not held: it is still served with its
// compressed variant and validators, and a missing icon is not an asset.
func TestIconsServedFromTheFS(t *testing.T) {
	svg := "<svg xmlns='http://www.w3.org/2000/svg'><title>Go</title></svg>"
	ta := newTestApp(t, func(o *Options) {
		site := o.Site.(fstest.MapFS)
		site["icons/go.svg"] = &fstest.MapFile{Data: []byte(svg)}
		site["icons/go.svg.gz"] = &fstest.MapFile{Data: gz(t, svg)}
	})
	resp, body := ta.do(t, httptest.NewRequest(http.MethodGet, "/icons/go.svg", nil))
	if resp.StatusCode != http.StatusOK || string(body) != svg || resp.Header.Get("Content-Type") != "image/svg+xml" || resp.Header.Get("ETag") == "" {
		t.Fatalf("icon: %d %v %q", resp.StatusCode, resp.Header, body)
	}
	req := httptest.NewRequest(http.MethodGet, "/icons/go.svg", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	if resp, _ := ta.do(t, req); resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("gzip variant not used: %v", resp.Header)
	}
	if resp, _ := ta.do(t, httptest.NewRequest(http.MethodGet, "/icons/nosuchlogo.svg", nil)); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("missing icon: %d", resp.StatusCode)
	}
}
