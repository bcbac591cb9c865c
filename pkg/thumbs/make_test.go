package thumbs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"runtime"
	"testing"

	"github.com/devhub/devhub/pkg/thumbs/thumbstest"
)

// picture is a w×h image whose left half is red and right half blue, so
// a turned or mirrored thumbnail can be told from an upright one.
func picture(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{R: 255, A: 255}
			if x >= w/2 {
				c = color.RGBA{B: 255, A: 255}
			}
			m.SetRGBA(x, y, c)
		}
	}
	return m
}

func encodePNG(t testing.TB, m image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeJPEG(t testing.TB, m image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeGIF(t testing.TB, m image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := gif.Encode(&b, m, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pngHeader is a PNG signature and IHDR chunk announcing w×h pixels of the
// given bit depth and colour type, followed by padding that a decoder
// would have to read: a decompression bomb's first bytes.
func pngHeader(w, h uint32, depth, colorType byte, padding int) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = depth, colorType
	chunk := append([]byte("IHDR"), ihdr...)
	binary.Write(&b, binary.BigEndian, uint32(13))
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	b.Write(make([]byte, padding))
	return b.Bytes()
}

// withOrientation inserts an EXIF APP1 segment with the given Orientation
// right after a JPEG's SOI marker.
func withOrientation(jpg []byte, o uint16, order binary.ByteOrder) []byte {
	var tiff bytes.Buffer
	if order == binary.LittleEndian {
		tiff.WriteString("II")
	} else {
		tiff.WriteString("MM")
	}
	binary.Write(&tiff, order, uint16(42))
	binary.Write(&tiff, order, uint32(8))
	binary.Write(&tiff, order, uint16(1)) // one entry
	binary.Write(&tiff, order, uint16(0x0112))
	binary.Write(&tiff, order, uint16(3))
	binary.Write(&tiff, order, uint32(1))
	binary.Write(&tiff, order, o)
	binary.Write(&tiff, order, uint16(0))
	binary.Write(&tiff, order, uint32(0)) // no next IFD
	seg := append([]byte("Exif\x00\x00"), tiff.Bytes()...)
	var out bytes.Buffer
	out.Write(jpg[:2])
	out.Write([]byte{0xFF, 0xE1})
	binary.Write(&out, binary.BigEndian, uint16(len(seg)+2))
	out.Write(seg)
	out.Write(jpg[2:])
	return out.Bytes()
}

func TestMake(t *testing.T) {
	l := DefaultLimits()
	tests := []struct {
		name  string
		data  []byte
		l     Limits
		w, h  int
		err   error
		check func(t *testing.T, m image.Image)
	}{
		{name: "wide PNG scaled to 320 on the long side", data: encodePNG(t, picture(1000, 500)), w: 320, h: 160},
		{name: "tall JPEG keeps its aspect", data: encodeJPEG(t, picture(200, 800)), w: 80, h: 320},
		{name: "small GIF is not enlarged", data: encodeGIF(t, picture(100, 50)), w: 100, h: 50},
		{name: "square exactly at the limit", data: encodePNG(t, picture(320, 320)), w: 320, h: 320},
		{name: "odd ratio rounds, never 0", data: encodePNG(t, picture(3000, 2)), w: 320, h: 1},
		{name: "smaller limit", data: encodePNG(t, picture(400, 300)), l: Limits{MaxSide: 100, MaxPixels: 1e6}, w: 100, h: 75},
		{name: "transparent PNG on white", data: encodePNG(t, image.NewNRGBA(image.Rect(0, 0, 10, 10))), w: 10, h: 10,
			check: func(t *testing.T, m image.Image) {
				r, g, b, _ := m.At(5, 5).RGBA()
				if r>>8 < 240 || g>>8 < 240 || b>>8 < 240 {
					t.Errorf("transparent pixel became %d,%d,%d, want white", r>>8, g>>8, b>>8)
				}
			}},
		{name: "EXIF orientation 6 turns it upright", data: withOrientation(encodeJPEG(t, picture(400, 200)), 6, binary.BigEndian), w: 160, h: 320,
			check: func(t *testing.T, m image.Image) {
				// Turned 90° clockwise: the left (red) half is now on top.
				if r, _, b, _ := m.At(80, 20).RGBA(); r < b {
					t.Error("top is not red: the image was not turned clockwise")
				}
			}},
		{name: "EXIF orientation 8, little-endian", data: withOrientation(encodeJPEG(t, picture(400, 200)), 8, binary.LittleEndian), w: 160, h: 320,
			check: func(t *testing.T, m image.Image) {
				// Turned counter-clockwise: the red half is at the bottom.
				if r, _, b, _ := m.At(80, 300).RGBA(); r < b {
					t.Error("bottom is not red: the image was not turned counter-clockwise")
				}
			}},
		{name: "EXIF orientation 3 turns it over", data: withOrientation(encodeJPEG(t, picture(400, 200)), 3, binary.BigEndian), w: 320, h: 160,
			check: func(t *testing.T, m image.Image) {
				if r, _, b, _ := m.At(300, 80).RGBA(); r < b {
					t.Error("right is not red after a half turn")
				}
			}},
		{name: "bogus EXIF orientation is ignored", data: withOrientation(encodeJPEG(t, picture(400, 200)), 42, binary.BigEndian), w: 320, h: 160},
		{name: "progressive JPEG made by cjpeg", data: fixture(t, "progressive.jpg"), w: 320, h: 240, check: redThenBlue},
		{name: "lossy WebP made by cwebp", data: fixture(t, "lossy.webp"), w: 320, h: 240, check: redThenBlue},
		{name: "lossy WebP's alpha on white", data: fixture(t, "lossy-alpha.webp"), w: 320, h: 240,
			check: func(t *testing.T, m image.Image) {
				// The bottom quarter is half transparent: lighter than the top.
				if top, bottom := lum(m.At(80, 20)), lum(m.At(80, 230)); bottom <= top+40 {
					t.Errorf("half-transparent red is %d, opaque red %d: not on white", bottom, top)
				}
			}},
		{name: "lossless WebP", data: thumbstest.WebPLossless(400, 300), w: 320, h: 240},
		{name: "decompression bomb: 100000×100000 PNG", data: pngHeader(100000, 100000, 8, 6, 1<<20), err: ErrTooLarge},
		{name: "progressive 4:4:4 JPEG: 16 MP, 15 bytes a pixel to decode", err: ErrTooLarge,
			data: thumbstest.JPEGImage(4000, 4000, thumbstest.JPEG{Progressive: true, Sampling: []byte{0x11, 0x11, 0x11}})},
		{name: "lossless WebP: its Huffman tables and 6 bytes a pixel", data: thumbstest.WebPLossless(2000, 1500), err: ErrTooLarge},
		{name: "over the pixel limit by one", data: encodePNG(t, picture(101, 100)), l: Limits{MaxSide: 320, MaxPixels: 100 * 100}, err: ErrTooLarge},
		{name: "16-bit RGBA under the pixel limit but over the memory limit", data: pngHeader(8000, 6000, 16, 6, 1<<20), err: ErrTooLarge},
		{name: "truncated PNG", data: encodePNG(t, picture(300, 300))[:200], err: ErrCorrupt},
		{name: "PNG header, no pixels", data: pngHeader(10, 10, 8, 6, 0), err: ErrCorrupt},
		{name: "zero width", data: pngHeader(0, 10, 8, 6, 64), err: ErrCorrupt},
		{name: "not an image", data: []byte("%PDF-1.7 definitely not pixels"), err: ErrUnsupported},
		{name: "empty", data: nil, err: ErrUnsupported},
		{name: "SVG is not decoded", data: []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`), err: ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lim := l
			if tt.l.MaxSide != 0 {
				lim = tt.l
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			out, err := Make(bytes.NewReader(tt.data), lim)
			runtime.ReadMemStats(&after)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("err = %v, want %v", err, tt.err)
				}
				// Refused from the header: nothing decoded, nothing allocated.
				if alloc := after.TotalAlloc - before.TotalAlloc; tt.err == ErrTooLarge && alloc > 1<<20 {
					t.Fatalf("refused image was decoded: %d bytes allocated", alloc)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			m, format, err := image.Decode(bytes.NewReader(out))
			if err != nil || format != "jpeg" {
				t.Fatalf("thumbnail is not a JPEG: %q %v", format, err)
			}
			if b := m.Bounds(); b.Dx() != tt.w || b.Dy() != tt.h {
				t.Fatalf("thumbnail is %d×%d, want %d×%d", b.Dx(), b.Dy(), tt.w, tt.h)
			}
			if tt.check != nil {
				tt.check(t, m)
			}
		})
	}
}

// redThenBlue checks a thumbnail of picture(): red on the left, blue on
// the right.
func redThenBlue(t *testing.T, m image.Image) {
	b := m.Bounds()
	if r, _, bl, _ := m.At(b.Dx()/4, b.Dy()/2).RGBA(); r < bl {
		t.Error("left is not red")
	}
	if r, _, bl, _ := m.At(b.Dx()*3/4, b.Dy()/2).RGBA(); r > bl {
		t.Error("right is not blue")
	}
}

// lum is a colour's brightness, 0–255.
func lum(c color.Color) int {
	r, g, b, _ := c.RGBA()
	return int(r+g+b) / 3 >> 8
}

func TestFit(t *testing.T) {
	tests := []struct{ w, h, max, ww, wh int }{
		{1920, 1080, 320, 320, 180},
		{1080, 1920, 320, 180, 320},
		{320, 100, 320, 320, 100},
		{10, 10, 320, 10, 10},
		{5000, 1, 320, 320, 1},
		{1, 5000, 320, 1, 320},
		{641, 640, 320, 320, 320},
	}
	for _, tt := range tests {
		if w, h := fit(tt.w, tt.h, tt.max); w != tt.ww || h != tt.wh || max(w, h) > tt.max {
			t.Errorf("fit(%d,%d,%d) = %d×%d, want %d×%d", tt.w, tt.h, tt.max, w, h, tt.ww, tt.wh)
		}
	}
}

func TestExifOrientationNeverPanics(t *testing.T) {
	base := withOrientation(encodeJPEG(t, picture(8, 8)), 6, binary.BigEndian)
	for n := 0; n < 80; n++ {
		// Every truncation of the EXIF block reads as "no orientation" or 6.
		if o := exifOrientation(io.LimitReader(bytes.NewReader(base), int64(n))); o != 1 && o != 6 {
			t.Fatalf("truncated at %d: orientation %d", n, o)
		}
	}
}
