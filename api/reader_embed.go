//go:build embedsite

package api

import _ "embed"

//go:embed reader/redoc.standalone.js
var readerBundle []byte

// Reader is Redoc's standalone bundle (fetched by .ci/fetch-redoc.sh), made to load nothing
// from another host (offline).
var Reader = offline(readerBundle)
