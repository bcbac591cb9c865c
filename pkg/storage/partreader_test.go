package storage

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// TestPartReader: a part's body reads, rewinds for a retry and copies in
// bounded chunks; once its upload has ended, a late read by the HTTP client
// gets an error instead of touching the unmapped buffer.
func TestPartReader(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), writeChunk/4) // 2.5 chunks
	tests := []struct {
		name string
		run  func(r *partReader) ([]byte, error)
		want []byte
		err  error
	}{
		{"read all", func(r *partReader) ([]byte, error) { return io.ReadAll(struct{ io.Reader }{r}) }, data, nil},
		{"write to", func(r *partReader) ([]byte, error) {
			var buf bytes.Buffer
			n, err := r.WriteTo(&buf)
			if n != int64(len(data)) {
				t.Errorf("WriteTo = %d, want %d", n, len(data))
			}
			return buf.Bytes(), err
		}, data, nil},
		{"rewind after a partial read", func(r *partReader) ([]byte, error) {
			if _, err := r.Read(make([]byte, 100)); err != nil {
				return nil, err
			}
			if _, err := r.Seek(0, io.SeekStart); err != nil {
				return nil, err
			}
			return io.ReadAll(struct{ io.Reader }{r})
		}, data, nil},
		{"seek out of range", func(r *partReader) ([]byte, error) {
			_, err := r.Seek(int64(len(data))+1, io.SeekStart)
			if err == nil {
				return nil, errors.New("no error")
			}
			return nil, nil
		}, nil, nil},
		{"read after close", func(r *partReader) ([]byte, error) {
			r.close()
			_, err := r.Read(make([]byte, 10))
			return nil, err
		}, nil, errPartClosed},
		{"write to after close", func(r *partReader) ([]byte, error) {
			r.close()
			_, err := r.WriteTo(io.Discard)
			return nil, err
		}, nil, errPartClosed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.run(&partReader{b: data})
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if !bytes.Equal(got, tt.want) {
				t.Fatalf("got %d bytes, want %d", len(got), len(tt.want))
			}
		})
	}
}
