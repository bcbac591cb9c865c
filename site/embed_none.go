//go:build !embedsite

// Package site embeds the built React front end (site/dist) into the binary.
// This variant, used without the `embedsite` tag, carries no front end so
// that `go build` and `go test` work before `npm run build` has run.
package site

import "io/fs"

// FS returns nil: no site was built into this binary.
func FS() fs.FS { return nil }

// Embedded reports whether this binary carries the web interface.
const Embedded = false
