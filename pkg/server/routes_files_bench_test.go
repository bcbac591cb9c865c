package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/store/storetest"
)

const benchFileSize = 64 << 20

// benchServer serves the file cloud on a loopback port: real TCP, so the
// figures include request-body streaming and sendfile.
func benchServer(b *testing.B) (string, *files.Service) {
	b.Helper()
	st := storetest.Open(b)
	svc, err := files.New(st, filepath.Join(b.TempDir(), "uploads"), 1<<30, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { svc.Close() })
	cfg := config.Default()
	app, err := New(Options{Config: cfg, Services: withRequired(b, &Services{Store: st, Files: svc, Authenticate: fakeAuthenticate}),
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	return listenApp(b, app), svc
}

// BenchmarkUploadHTTP posts a 64 MiB multipart upload per iteration.
func BenchmarkUploadHTTP(b *testing.B) {
	base, svc := benchServer(b)
	data := randomBytes(benchFileSize)
	head := []byte("--" + testBoundary + "\r\nContent-Disposition: form-data; name=\"files\"; filename=\"bench.bin\"\r\n\r\n")
	tail := []byte("\r\n--" + testBoundary + "--\r\n")
	b.SetBytes(benchFileSize)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		body := io.MultiReader(bytes.NewReader(head), bytes.NewReader(data), bytes.NewReader(tail))
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, base+"/api/files/upload", body)
		req.ContentLength = int64(len(head) + len(data) + len(tail))
		req.Header.Set("Content-Type", "multipart/form-data; boundary="+testBoundary)
		req.Header.Set("Authorization", "Bearer "+userToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 201 {
			b.Fatalf("status %d", resp.StatusCode)
		}
		b.StopTimer()
		all, _ := svc.List()
		for _, f := range all {
			svc.Delete(b.Context(), f.ID)
		}
		b.StartTimer()
	}
}

// BenchmarkDownloadHTTP reads a 64 MiB file per iteration, whole and as an
// open-ended range (what video players send).
func BenchmarkDownloadHTTP(b *testing.B) {
	base, svc := benchServer(b)
	f, err := svc.Save(context.Background(), "bench.bin", bytes.NewReader(randomBytes(benchFileSize)), files.Uploader{})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, path, rng string }{
		{"whole", "/api/files/%d/download", ""},
		{"range", "/api/files/stream/%d", "bytes=0-"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(benchFileSize)
			for i := 0; i < b.N; i++ {
				req, _ := http.NewRequest(http.MethodGet, base+fmt.Sprintf(c.path, f.ID), nil)
				if c.rng != "" {
					req.Header.Set("Range", c.rng)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if n != benchFileSize {
					b.Fatalf("got %d bytes, status %d", n, resp.StatusCode)
				}
			}
		})
	}
}
