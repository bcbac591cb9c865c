package server

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/thumbs"
	"github.com/devhub/devhub/pkg/thumbs/thumbstest"
)

// newThumbsTestApp is the files test app with a thumbnail service wired
// the way `devhub serve` wires it: uploads enqueue, deletes remove.
func newThumbsTestApp(t *testing.T) (*filesTestApp, *thumbs.Service) {
	t.Helper()
	var ts *thumbs.Service
	fa := newFilesTestAppWithOptions(t, func(c *config.Config) {}, func(o *Options) { ts = wireThumbs(t, o) })
	return fa, ts
}

// wireThumbs gives o a thumbnail service fed by its files service.
func wireThumbs(t *testing.T, o *Options) *thumbs.Service {
	t.Helper()
	svc := o.Services.Files
	ts, err := thumbs.New(filepath.Join(t.TempDir(), "thumbs"), func(id uint64) (io.ReadSeekCloser, error) {
		_, fh, err := svc.Open(id)
		if err != nil {
			return nil, err
		}
		return fh, nil
	}, thumbs.DefaultLimits(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ts.Close() })
	ts.Start()
	svc.SetHooks(files.Hooks{
		Added: func(f files.File) {
			if thumbs.SupportedTypes[f.MimeType] {
				ts.Enqueue(thumbSource(f))
			}
		},
		Deleted: func(f files.File) { ts.Remove(thumbSource(f)) },
	})
	o.Services.Thumbs = ts
	return ts
}

func testImagePNG(t *testing.T, w, h int) []byte {
	t.Helper()
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range m.Pix {
		m.Pix[i] = byte(i)
	}
	m.Set(0, 0, color.White)
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// bombPNG is a PNG of a few bytes whose header announces 100000×100000
// pixels.
func bombPNG() []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := []byte("IHDR")
	chunk = binary.BigEndian.AppendUint32(chunk, 100000)
	chunk = binary.BigEndian.AppendUint32(chunk, 100000)
	chunk = append(chunk, 8, 6, 0, 0, 0)
	binary.Write(&b, binary.BigEndian, uint32(13))
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	b.Write(make([]byte, 1024))
	return b.Bytes()
}

func TestFileThumbnails(t *testing.T) {
	fa, ts := newThumbsTestApp(t)
	up := fa.upload(t, filePart("photo.png", testImagePNG(t, 640, 480)), filePart("doc.pdf", testPDF),
		filePart("bomb.png", bombPNG()), filePart("broken.png", testPNG))
	photo, doc, bomb, broken := up[0], up[1], up[2], up[3]
	ts.Wait()

	// The lists carry the thumbnail's URL for the image that has one only.
	var list struct{ Images, Documents []files.Info }
	_, body := fa.do(t, get("/api/files"))
	json.Unmarshal(body, &list)
	urls := map[uint64]string{}
	for _, f := range append(list.Images, list.Documents...) {
		urls[f.ID] = f.ThumbnailURL
	}
	thumbURL := urls[photo.ID]
	want := "/api/files/" + strconv.FormatUint(photo.ID, 10) + "/thumbnail?v="
	if !strings.HasPrefix(thumbURL, want) || urls[doc.ID] != "" || urls[bomb.ID] != "" || urls[broken.ID] != "" {
		t.Fatalf("thumbnail URLs in the list: %v", urls)
	}
	_, body = fa.do(t, get("/api/api/files"))
	if !strings.Contains(string(body), `"thumbnail_url":"`+thumbURL+`"`) {
		t.Fatalf("spec list has no thumbnail_url: %s", body)
	}
	_, body = fa.do(t, get("/api/files/"+strconv.FormatUint(photo.ID, 10)))
	if !strings.Contains(string(body), `"thumbnailUrl":"`+thumbURL+`"`) {
		t.Fatalf("detail has no thumbnailUrl: %s", body)
	}

	id := func(f files.Info) string { return strconv.FormatUint(f.ID, 10) }
	etag := `"` + thumbSource(files.File{ID: photo.ID, SHA256: photo.SHA256}).Version() + `"`
	tests := []struct {
		name, path string
		hdr        []string
		status     int
		cache      string
	}{
		{name: "versioned URL is immutable", path: thumbURL, status: 200, cache: thumbImmutable},
		{name: "spec alias", path: "/api/api/files/" + id(photo) + "/thumbnail?v=" + strings.SplitN(thumbURL, "v=", 2)[1], status: 200, cache: thumbImmutable},
		{name: "no version is revalidated", path: "/api/files/" + id(photo) + "/thumbnail", status: 200, cache: thumbRevalidated},
		{name: "another version is revalidated", path: "/api/files/" + id(photo) + "/thumbnail?v=0123456789abcdef-0", status: 200, cache: thumbRevalidated},
		{name: "fresh copy", path: thumbURL, hdr: []string{"If-None-Match", etag}, status: 304, cache: thumbImmutable},
		{name: "not an image", path: "/api/files/" + id(doc) + "/thumbnail", status: 404},
		{name: "decompression bomb refused", path: "/api/files/" + id(bomb) + "/thumbnail", status: 404},
		{name: "corrupt image", path: "/api/files/" + id(broken) + "/thumbnail", status: 404},
		{name: "no such file", path: "/api/files/99999/thumbnail", status: 404},
		{name: "bad id", path: "/api/files/..%2f1/thumbnail", status: 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := fa.do(t, get(tt.path, tt.hdr...))
			if resp.StatusCode != tt.status {
				t.Fatalf("%d %s", resp.StatusCode, body)
			}
			if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Error("no nosniff")
			}
			if tt.status >= 400 {
				return
			}
			if cc := resp.Header.Get("Cache-Control"); cc != tt.cache {
				t.Errorf("Cache-Control %q, want %q", cc, tt.cache)
			}
			if resp.Header.Get("ETag") != etag {
				t.Errorf("ETag %q, want %q", resp.Header.Get("ETag"), etag)
			}
			if tt.status != 200 {
				return
			}
			if ct := resp.Header.Get("Content-Type"); ct != "image/jpeg" {
				t.Errorf("Content-Type %q", ct)
			}
			cfg, format, err := image.DecodeConfig(bytes.NewReader(body))
			if err != nil || format != "jpeg" || cfg.Width != 320 || cfg.Height != 240 {
				t.Errorf("thumbnail %s %d×%d %v, want jpeg 320×240", format, cfg.Width, cfg.Height, err)
			}
		})
	}

	// HEAD answers the headers alone.
	req, _ := http.NewRequest(http.MethodHead, thumbURL, nil)
	resp, body := fa.do(t, req)
	if resp.StatusCode != 200 || len(body) != 0 || resp.Header.Get("Content-Type") != "image/jpeg" {
		t.Fatalf("HEAD: %d %q %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}

	// Deleting the file deletes its thumbnail.
	path := ts.Path(thumbSource(files.File{ID: photo.ID, SHA256: photo.SHA256}))
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("thumbnail not on disk: %v", err)
	}
	resp, _ = fa.do(t, withToken(httptestRequest(http.MethodDelete, "/api/files/"+id(photo)), adminToken))
	if resp.StatusCode != 204 {
		t.Fatalf("delete: %d", resp.StatusCode)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("thumbnail still on disk after the file was deleted: %v", err)
	}
	if resp, _ := fa.do(t, get(thumbURL)); resp.StatusCode != 404 {
		t.Errorf("deleted file's thumbnail: %d", resp.StatusCode)
	}
}

func httptestRequest(method, path string) *http.Request {
	req, _ := http.NewRequest(method, path, nil)
	return req
}

// Without a thumbnail service every image answers 404 and the lists carry
// no thumbnail URL.
func TestFileThumbnailsOff(t *testing.T) {
	fa := newFilesTestApp(t, 1<<20)
	up := fa.upload(t, filePart("photo.png", testImagePNG(t, 20, 20)))[0]
	if resp, body := fa.do(t, get("/api/files/"+strconv.FormatUint(up.ID, 10)+"/thumbnail")); resp.StatusCode != 404 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if _, body := fa.do(t, get("/api/files")); strings.Contains(string(body), "thumbnail") {
		t.Fatalf("list mentions a thumbnail: %s", body)
	}
}

// An image whose decoding would take more memory than a thumbnail may is
// stored like any other upload; it only has no thumbnail (the list shows
// its type's icon).
func TestFileThumbnailOverMemoryBudget(t *testing.T) {
	fa, ts := newThumbsTestApp(t)
	// A progressive 4:4:4 JPEG of 4000×4000: 94 KB, within the pixel limit,
	// 15 bytes a pixel to decode.
	big := thumbstest.JPEGImage(4000, 4000, thumbstest.JPEG{Progressive: true, Sampling: []byte{0x11, 0x11, 0x11}})
	up := fa.upload(t, filePart("big.jpg", big), filePart("photo.png", testImagePNG(t, 64, 48)))
	ts.Wait()
	id := strconv.FormatUint(up[0].ID, 10)

	var list struct{ Images []files.Info }
	_, body := fa.do(t, get("/api/files"))
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatal(err)
	}
	urls := map[uint64]string{}
	for _, f := range list.Images {
		urls[f.ID] = f.ThumbnailURL
	}
	if _, listed := urls[up[0].ID]; !listed || urls[up[0].ID] != "" || urls[up[1].ID] == "" {
		t.Fatalf("images listed with thumbnail URLs %v: want big.jpg listed without one, photo.png with one", urls)
	}
	if resp, body := fa.do(t, get("/api/files/"+id+"/thumbnail")); resp.StatusCode != 404 {
		t.Fatalf("thumbnail of the refused image: %d %s", resp.StatusCode, body)
	}
	resp, body := fa.do(t, get("/api/files/"+id+"/download"))
	if resp.StatusCode != 200 || !bytes.Equal(body, big) {
		t.Fatalf("download: %d, %d bytes of %d", resp.StatusCode, len(body), len(big))
	}
}
