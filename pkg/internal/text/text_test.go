package text

import (
	"encoding/json"
	"os"
	"path/filepath"
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

func TestFold(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Ёжик", "ежик"}, {"ёжик", "ежик"}, {"ЕЖИК", "ежик"}, {"Straße", "strasse"},
		{"МАРІО Ігри", "маріо ігри"}, {"й", "й"}, {"и\u0306", "й"}, // decomposed й composes
		{"Post Number 8", "post number 8"},
	} {
		if got := Fold(tc.in); got != tc.want {
			t.Errorf("Fold(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPhraseIn(t *testing.T) {
	for _, tc := range []struct {
		phrase, title string
		want          bool
	}{
		{"Post number 8", "Post number 8", true},
		{"post NUMBER 8", "Draft: post number 8 again", true},
		{"Post number 8", "Post number 9883", false},
		{"number post", "post number", false},
		{"", "anything", false},
		{"a b c", "a b", false},
	} {
		if got := PhraseIn(Words(tc.phrase), Words(tc.title)); got != tc.want {
			t.Errorf("PhraseIn(%q, %q) = %v, want %v", tc.phrase, tc.title, got, tc.want)
		}
	}
}

func TestContainsAll(t *testing.T) {
	if !ContainsAll("супермарио bros", Words("МАРИО bro")) || ContainsAll("mario", Words("mario zelda")) {
		t.Error("ContainsAll")
	}
}

// TestBytesTable reads the byte formats' table the SPA's tests read too
// (testdata/rules/bytes.json); Bytes writes its "iec" format.
func TestBytesTable(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "rules", "bytes.json"))
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		IEC []struct {
			Bytes int64  `json:"bytes"`
			Text  string `json:"text"`
		} `json:"iec"`
	}
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.IEC) == 0 {
		t.Fatal("no iec cases in the table")
	}
	for _, tc := range table.IEC {
		if got := Bytes(tc.Bytes); got != tc.Text {
			t.Errorf("Bytes(%d) = %q, want %q", tc.Bytes, got, tc.Text)
		}
	}
}
