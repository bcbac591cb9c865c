package storage_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/storage"
)

// A presigned GET answers with the object's exact bytes (whole and one
// range) and the response headers it was signed with, and stops answering
// once it has expired; a key that is not ours is not signed.
func TestS3PresignGet(t *testing.T) {
	s := newS3(t)
	data := make([]byte, 3<<20+17)
	rand.Read(data)
	put(t, s, keyA, data)
	var _ storage.Presigner = s
	ctx := context.Background()
	hdr := storage.ResponseHeaders{ContentType: "application/octet-stream",
		ContentDisposition: `attachment; filename="report 1.bin"; filename*=UTF-8''report%201.bin`}
	u, err := s.PresignGet(ctx, keyA, 2*time.Second, hdr)
	if err != nil {
		t.Fatal(err)
	}
	get := func(rng string) (*http.Response, []byte) {
		req, _ := http.NewRequest(http.MethodGet, u.String(), nil)
		if rng != "" {
			req.Header.Set("Range", rng)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp, body
	}
	resp, body := get("")
	if resp.StatusCode != 200 || !bytes.Equal(body, data) {
		t.Fatalf("presigned GET: %d, %d bytes, want %d", resp.StatusCode, len(body), len(data))
	}
	if resp.Header.Get("Content-Disposition") != hdr.ContentDisposition || resp.Header.Get("Content-Type") != hdr.ContentType {
		t.Fatalf("headers: disposition %q type %q", resp.Header.Get("Content-Disposition"), resp.Header.Get("Content-Type"))
	}
	if resp, body := get("bytes=1000-1999"); resp.StatusCode != 206 || !bytes.Equal(body, data[1000:2000]) {
		t.Fatalf("range: %d, %d bytes", resp.StatusCode, len(body))
	}
	time.Sleep(3 * time.Second)
	if resp, _ := get(""); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("after expiry: %d, want 403", resp.StatusCode)
	}
	if _, err := s.PresignGet(ctx, "../other", time.Minute, hdr); err == nil {
		t.Fatal("a foreign key was signed")
	}
	if _, err := s.PresignGet(ctx, keyA, 8*24*time.Hour, hdr); err == nil {
		t.Fatal("an expiry past SigV4's week was signed")
	}
}
