package text

import (
	"testing"
	"unicode/utf8"
)

func TestTruncate(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"hello", 10, "hello"}, {"hello", 5, "hello"}, {"hello", 3, "hel"}, {"hello", 0, ""}, {"hello", -1, ""},
		{"ёжик", 3, "ё"}, // ё is 2 bytes; the 3rd byte starts ж, which does not fit
		{"ёжик", 4, "ёж"}, {"a😀b", 2, "a"}, {"a😀b", 5, "a😀"}, {"", 3, ""},
	} {
		got := Truncate(tc.in, tc.n)
		if got != tc.want || !utf8.ValidString(got) {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
