package server

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/devhub/devhub/api"
)

// The contract is served from bytes compressed once: a strong ETag per
// encoding, the same bytes on every request, and 304 for a client that has
// them.
func TestOpenAPIJSONCachedWithETag(t *testing.T) {
	ta := newTestApp(t, nil)
	want, err := api.JSON()
	if err != nil {
		t.Fatal(err)
	}
	etags := map[string]bool{}
	for _, tc := range []struct{ acceptEncoding, encoding string }{
		{"", ""},
		{"gzip", "gzip"},
		{"gzip, deflate, br", "br"},
	} {
		t.Run("AE="+tc.acceptEncoding, func(t *testing.T) {
			var first []byte
			var etag string
			for i := range 2 {
				resp, body := ta.do(t, get("/api/openapi.json", "Accept-Encoding", tc.acceptEncoding))
				if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != tc.encoding {
					t.Fatalf("request %d: %d, Content-Encoding %q, want 200 %q", i, resp.StatusCode, resp.Header.Get("Content-Encoding"), tc.encoding)
				}
				got := resp.Header.Get("ETag")
				if got == "" || strings.HasPrefix(got, "W/") {
					t.Fatalf("ETag %q, want a strong validator", got)
				}
				if i == 0 {
					first, etag = body, got
					plain, err := decoded(tc.encoding, body)
					if err != nil || !bytes.Equal(plain, want) {
						t.Fatalf("decoded body is not the contract (%v)", err)
					}
					continue
				}
				if got != etag || !bytes.Equal(body, first) {
					t.Fatalf("second answer differs: ETag %q vs %q, same bytes %v", got, etag, bytes.Equal(body, first))
				}
			}
			resp, body := ta.do(t, get("/api/openapi.json", "Accept-Encoding", tc.acceptEncoding, "If-None-Match", etag))
			if resp.StatusCode != http.StatusNotModified || len(body) != 0 {
				t.Fatalf("If-None-Match: %d with %d bytes, want 304 and empty", resp.StatusCode, len(body))
			}
			etags[etag] = true
		})
	}
	if len(etags) != 3 {
		t.Fatalf("each encoding needs its own ETag, got %v", etags)
	}
}
