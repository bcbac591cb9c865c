//go:build !embedsite

package api

// Reader is empty in builds without the web interface (go test, go run):
// /api/docs then says how to build it.
var Reader []byte
