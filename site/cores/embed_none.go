//go:build !embedsite

// Package cores embeds the emulator cores unpacked by the core build step.
// This variant, used without the `embedsite` tag, carries none, so that
// `go build` and `go test` work before the cores are fetched.
package cores

import "io/fs"

// FS returns nil: no cores were built into this binary.
func FS() fs.FS { return nil }
