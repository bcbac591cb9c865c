// Package text holds the small string rules several domain packages share,
// written once so they cannot drift apart.
package text

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

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

// Fold prepares text for case-insensitive search in any script, the one
// rule blog and games share: Unicode case folding (so Ukrainian and Russian
// match regardless of case), NFC so that composed and decomposed letters
// (й, ї) compare equal, and ё read as е the way Russian readers type it.
// A new Caser per call because a Caser is not safe for concurrent use.
func Fold(s string) string {
	s = cases.Fold().String(norm.NFC.String(s))
	return strings.ReplaceAll(s, "ё", "е")
}

// Words splits folded text into its search words: runs of non-space runes.
func Words(s string) []string { return strings.Fields(Fold(s)) }

// PhraseIn reports whether the words of phrase occur in words as a run of
// whole, consecutive words: "post number 8" is in "post number 8 draft" but
// not in "post number 9883". Both are already folded.
func PhraseIn(phrase, words []string) bool {
	if len(phrase) == 0 {
		return false
	}
	for i := 0; i+len(phrase) <= len(words); i++ {
		ok := true
		for j, p := range phrase {
			if words[i+j] != p {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// ContainsAll reports whether every term occurs somewhere in s (substring
// match, both folded): a search finds "марио" in "супермарио".
func ContainsAll(s string, terms []string) bool {
	for _, t := range terms {
		if !strings.Contains(s, t) {
			return false
		}
	}
	return true
}

// Bytes writes a size in the largest binary unit it fills, the one format
// of the server's messages and the CLI: "512 B", "1.5 KiB", "4 GiB".
func Bytes(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v, i := float64(n), 0
	for (v >= 1024 || v <= -1024) && i < len(units)-1 {
		v /= 1024
		i++
	}
	return strings.TrimSuffix(strconv.FormatFloat(v, 'f', 1, 64), ".0") + " " + units[i]
}
