//go:build embedsite

// Package cores embeds the emulator cores unpacked by the core build step
// (site/scripts/fetch-cores.mjs → site/cores/dist): one folder per libretro core with
// its JS, wasm, precompressed .gz/.br variants and the core's own licence
// file, plus cores.json. Builds without the `embedsite` tag use
// embed_none.go and carry no cores, like the site itself.
package cores

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// FS returns the unpacked cores rooted at dist/ (empty when the core build
// step has not run: the directory then holds only .gitkeep).
func FS() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // the embed pattern guarantees dist exists
	}
	return sub
}
