// Package api holds devhub's HTTP contract, api/openapi.yaml, for the binary
// to serve (GET /api/openapi.json) and for the server's tests to validate
// every request and response against; and, in full builds, the self-hosted
// reader of it (GET /api/docs).
package api

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"go.yaml.in/yaml/v3"
)

// YAML is the contract as written.
//
//go:embed openapi.yaml
var YAML []byte

var (
	jsonOnce sync.Once
	jsonDoc  []byte
	jsonErr  error
)

// JSON is the contract as JSON (converted once from the YAML).
func JSON() ([]byte, error) {
	jsonOnce.Do(func() {
		var doc any
		if jsonErr = yaml.Unmarshal(YAML, &doc); jsonErr != nil {
			jsonErr = fmt.Errorf("api/openapi.yaml: %w", jsonErr)
			return
		}
		jsonDoc, jsonErr = json.Marshal(doc)
	})
	return jsonDoc, jsonErr
}

// ReaderVersion names the bundled reader; its URL carries it, so the file
// can be cached for good.
const ReaderVersion = "redoc-3.0.1"

// Redoc's sidebar shows an "API docs by Redocly" logo drawn from its CDN, whatever the options
// say. The reader must ask no other host for anything (the docs page's CSP refuses it, and the
// browser logs the refusal), so the bundle is served with the logo's addresses pointing at a
// small inline picture of the name instead: a data: URL, which the docs page's CSP admits.
var readerLogos = map[string]string{
	"https://cdn.redoc.ly/redoc/logo-mini-full.svg": logoSVG(120, "Redoc"),
	"https://cdn.redoc.ly/redoc/logo-mini.svg":      logoSVG(48, "R"),
}

// logoSVG is a data: URL of an SVG of width w with text in it. Percent-encoded, so it holds no
// character that would end the JavaScript string it replaces (quotes, backticks, "${").
func logoSVG(w int, text string) string {
	svg := fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="20" viewBox="0 0 %d 20">`+
		`<text x="0" y="15" font-family="sans-serif" font-size="14" font-weight="600" fill="#555">%s</text></svg>`, w, w, text)
	var b bytes.Buffer
	b.WriteString("data:image/svg+xml,")
	for _, c := range []byte(svg) {
		if ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') || bytes.IndexByte([]byte(".-_/:=,"), c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// offline is the reader's bundle with every address of readerLogos replaced by its inline picture.
func offline(bundle []byte) []byte {
	for from, to := range readerLogos {
		bundle = bytes.ReplaceAll(bundle, []byte(from), []byte(to))
	}
	return bundle
}
