package ctxio

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
)

// The reader passes bytes through while ctx lives and stops at the first
// read after it ends.
func TestReaderStopsWhenContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := Reader(ctx, bytes.NewReader([]byte("abcdef")))
	buf := make([]byte, 3)
	if n, err := r.Read(buf); n != 3 || err != nil || string(buf) != "abc" {
		t.Fatalf("first read = %d %v %q", n, err, buf)
	}
	cancel()
	if n, err := r.Read(buf); n != 0 || !errors.Is(err, context.Canceled) {
		t.Fatalf("read after cancel = %d %v", n, err)
	}
	if _, ok := r.(io.WriterTo); ok {
		t.Fatal("the reader exposes WriterTo, so io.Copy would skip the check")
	}
}
