// Package api holds devhub's HTTP contract, api/openapi.yaml, for the binary
// to serve (GET /api/openapi.json) and for the server's tests to validate
// every request and response against; and, in full builds, the self-hosted
// reader of it (GET /api/docs).
package api

import (
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
