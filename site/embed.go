//go:build embedsite

// Package site embeds the built React front end (site/dist) into the binary.
// Builds without the `embedsite` tag (plain `go build`, `go test`) use
// embed_none.go instead, so the Go code builds before the site does.
package site

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// FS returns the built site rooted at dist/.
func FS() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // the embed pattern guarantees dist exists
	}
	return sub
}

// Embedded reports whether this binary carries the web interface.
const Embedded = true
