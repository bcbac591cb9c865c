package files

import (
	"bytes"
	"context"
	"crypto/rand"
	"testing"
)

// BenchmarkSave measures the storage path alone: copy through 1 MiB
// buffers, sha256, write-back hints and the final fsync, rename and commit.
func BenchmarkSave(b *testing.B) {
	const size = 64 << 20
	data := make([]byte, size)
	rand.Read(data)
	s := newTestServiceTB(b, 1<<30)
	b.SetBytes(size)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, err := s.Save(context.Background(), "bench.bin", bytes.NewReader(data), Uploader{})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		s.Delete(b.Context(), f.ID)
		b.StartTimer()
	}
}
