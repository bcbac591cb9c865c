// Package atomtest compares a feed's bytes with a golden file.
package atomtest

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Golden fails t unless write writes exactly testdata/feed_<name>.xml.
func Golden(t *testing.T, name string, write func(io.Writer) error) {
	t.Helper()
	var b strings.Builder
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "feed_"+name+".xml"))
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Fatalf("got\n%s\nwant (testdata/feed_%s.xml)\n%s", b.String(), name, want)
	}
}
