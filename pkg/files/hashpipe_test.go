package files

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"testing"
	"time"
)

// TestHashPipe: the digest is the sha256 of the chunks in the order they
// were handed over, whatever their sizes; an upload that stops while a
// buffer is out still finishes (no wait for a buffer that never returns).
func TestHashPipe(t *testing.T) {
	cases := []struct {
		name       string
		chunks     []int
		stopFilled bool // take a buffer and stop before handing it over
	}{
		{"nothing", nil, false},
		{"one empty read", []int{0}, false},
		{"one chunk", []int{100}, false},
		{"many full and partial chunks", []int{copyBufSize, 1, copyBufSize, 7, copyBufSize, copyBufSize, 3}, false},
		{"stopped while filling", []int{copyBufSize, 5}, true},
		{"stopped at once", nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var all bytes.Buffer
			done := make(chan []byte)
			go func() {
				p := newHashPipe()
				for _, n := range tc.chunks {
					b := p.buffer()
					rand.Read(b[:n])
					all.Write(b[:n])
					p.hash(b[:n])
				}
				if tc.stopFilled {
					p.buffer()
				}
				sum := p.finish()
				if p.finish() != nil {
					t.Error("a second finish returned a digest")
				}
				done <- sum
			}()
			select {
			case sum := <-done:
				if want := sha256.Sum256(all.Bytes()); !bytes.Equal(sum, want[:]) {
					t.Fatalf("digest %x, want %x", sum, want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("finish never returned")
			}
		})
	}
}
