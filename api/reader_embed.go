//go:build embedsite

package api

import _ "embed"

// Reader is Redoc's standalone bundle (fetched by .ci/fetch-redoc.sh).
//
//go:embed reader/redoc.standalone.js
var Reader []byte
