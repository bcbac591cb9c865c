package api

import (
	"net/url"
	"strings"
	"testing"
)

// The reader's bundle loads nothing from another host: the logo addresses Redoc hard-codes are
// replaced by inline pictures that fit inside any JavaScript string literal and decode to SVG.
func TestOfflineReplacesTheCDNLogos(t *testing.T) {
	tests := []struct {
		name, in string
	}{
		{"template literals", "src:e?`https://cdn.redoc.ly/redoc/logo-mini-full.svg`:`https://cdn.redoc.ly/redoc/logo-mini.svg`}"},
		{"double quotes", `a="https://cdn.redoc.ly/redoc/logo-mini.svg";b="https://cdn.redoc.ly/redoc/logo-mini-full.svg"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := string(offline([]byte(tc.in)))
			if strings.Contains(out, "cdn.redoc.ly") || strings.Contains(out, "https://") {
				t.Fatalf("still points at another host: %s", out)
			}
			if n := strings.Count(out, "data:image/svg+xml,"); n != 2 {
				t.Fatalf("want 2 inline logos, got %d: %s", n, out)
			}
		})
	}
	for from, to := range readerLogos {
		if strings.ContainsAny(to, "`'\"\\ <>${}") {
			t.Errorf("%s: the inline logo has a character that could end its string: %s", from, to)
		}
		svg, err := url.PathUnescape(strings.TrimPrefix(to, "data:image/svg+xml,"))
		if err != nil || !strings.HasPrefix(svg, "<svg ") || !strings.HasSuffix(svg, "</svg>") {
			t.Errorf("%s: not an SVG: %q (%v)", from, svg, err)
		}
	}
}
