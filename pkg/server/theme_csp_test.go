package server

import (
	"crypto/sha256"
	"encoding/base64"
	"os"
	"regexp"
	"strings"
	"testing"
)

// Every inline script of the SPA's index.html is allowed by its hash in the
// CSP, and only by its hash ('unsafe-inline' stays out of script-src).
func TestInlineScriptsHashedInCSP(t *testing.T) {
	raw, err := os.ReadFile("../../site/index.html")
	if err != nil {
		t.Fatal(err)
	}
	scripts := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindAllSubmatch(raw, -1)
	if len(scripts) == 0 {
		t.Fatal("index.html has no inline theme script")
	}
	for _, m := range scripts {
		sum := sha256.Sum256(m[1])
		want := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		if !strings.Contains(spaCSP, want) {
			t.Errorf("CSP lacks %s for the inline script %q", want, m[1])
		}
	}
	if strings.Contains(spaCSP, "'unsafe-inline'; style-src") {
		t.Error("script-src allows any inline script")
	}
}
