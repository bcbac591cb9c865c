package files

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzSanitizeName: a client's file name becomes a display name with no
// path separator, no control or bidi character, valid UTF-8, at most 255
// bytes and never empty.
func FuzzSanitizeName(f *testing.F) {
	for _, s := range []string{"a.txt", "../../etc/passwd", `..\..\p`, "C:\\x\\p", "a\x00b", "\u202egnp.exe", " . ", "",
		strings.Repeat("я", 300) + ".txt", "a\r\nb", "\xff\xfe.txt"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := SanitizeName(in)
		switch {
		case out == "":
			t.Fatalf("SanitizeName(%q) is empty", in)
		case len(out) > maxNameBytes:
			t.Fatalf("SanitizeName(%q) is %d bytes", in, len(out))
		case !utf8.ValidString(out):
			t.Fatalf("SanitizeName(%q) = %q is not UTF-8", in, out)
		case strings.ContainsAny(out, `/\`):
			t.Fatalf("SanitizeName(%q) = %q holds a separator", in, out)
		case strings.ContainsFunc(out, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) }):
			t.Fatalf("SanitizeName(%q) = %q holds a control character", in, out)
		}
	})
}

// FuzzSaveMultipart: any body either stores its files or keeps nothing at
// all — no temp file, no record — and never panics.
func FuzzSaveMultipart(f *testing.F) {
	const boundary = "fuzzboundary"
	ok := "--fuzzboundary\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a.txt\"\r\n\r\nhello\r\n--fuzzboundary--\r\n"
	for _, s := range []string{ok, "", "--fuzzboundary--\r\n", strings.Replace(ok, "a.txt", "a\r\nb.txt", 1),
		strings.Replace(ok, "--fuzzboundary--", "--fuzzbound", 1), strings.Repeat(ok[:len(ok)-18], 3) + "--fuzzboundary--\r\n",
		"--fuzzboundary\r\nContent-Disposition: form-data; name=\"files\"; filename*=UTF-8''%E2%80%AE.txt\r\n\r\nx\r\n--fuzzboundary--\r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		s := newTestService(t, 1<<16)
		out, err := s.SaveMultipart(context.Background(), bytes.NewReader(body), boundary, "files", 8, Uploader{ID: 1})
		entries, _ := os.ReadDir(s.Dir())
		all, _ := s.List()
		if err != nil {
			if len(entries) != 0 || len(all) != 0 {
				t.Fatalf("a refused body (%v) left %d files and %d records", err, len(entries), len(all))
			}
			return
		}
		if len(out) == 0 || len(out) > 8 || len(all) != len(out) || len(entries) != len(out) {
			t.Fatalf("stored %d files, %d records, %d entries", len(out), len(all), len(entries))
		}
	})
}
