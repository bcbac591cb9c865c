// Package random makes the unguessable tokens several packages need
// (session and invite tokens, stored file names), from crypto/rand, written
// once so their strength and encoding cannot drift apart.
package random

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
)

// Bytes returns n bytes from crypto/rand. It panics if the system's source
// fails, which crypto/rand documents never happens on supported platforms.
func Bytes(n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return b
}

// Token returns n random bytes, base64url-encoded without padding: safe in
// URLs, cookies and headers.
func Token(n int) string { return base64.RawURLEncoding.EncodeToString(Bytes(n)) }

// Hex returns n random bytes as lower-case hex: safe in file names on any
// file system (no case folding issues, no '-' or '_' at the start).
func Hex(n int) string { return hex.EncodeToString(Bytes(n)) }
