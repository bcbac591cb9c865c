// Package text holds the small string rules several domain packages share,
// written once so they cannot drift apart.
package text

import "unicode/utf8"

// Truncate cuts s to at most n bytes without splitting a UTF-8 sequence:
// stored fields are capped in bytes (what they cost), and a cut through a
// character would leave invalid UTF-8 behind.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
