package thumbs

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"runtime"
	"testing"

	"github.com/devhub/devhub/pkg/thumbs/thumbstest"
)

// Sampling factors of the JPEG test images.
var (
	yuv444 = []byte{0x11, 0x11, 0x11}
	yuv422 = []byte{0x21, 0x11, 0x11}
	yuv420 = []byte{0x22, 0x11, 0x11}
	gray   = []byte{0x11}
	cmyk   = []byte{0x11, 0x11, 0x11, 0x11}
)

// up rounds n up to a multiple of m: image/jpeg decodes whole MCUs, vp8
// whole macroblocks.
func up(n, m int64) int64 { return (n + m - 1) / m * m }

// adobeAfterScan is jpg with an Adobe APP14 segment (colour transform 0,
// RGB) inserted before its EOI: after the pixels, where image/jpeg still
// acts on it.
func adobeAfterScan(jpg []byte) []byte {
	seg := []byte{0xFF, 0xEE, 0, 14, 'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0, 0}
	out := append([]byte{}, jpg[:len(jpg)-2]...)
	return append(append(out, seg...), 0xFF, 0xD9)
}

// What the decoders allocate per image, by the header's numbers, and where
// the server's budget refuses: the arithmetic on headers of large images,
// none of which is decoded. decode is the decoder's part of the estimate
// (the scaling's and the fixed part are added to it).
func TestEstimate(t *testing.T) {
	jh := thumbstest.JPEGHeader
	type J = thumbstest.JPEG
	pngh := func(w, h uint32, depth, ct byte, interlaced, trns bool) []byte {
		return thumbstest.PNGHeader(w, h, depth, ct, interlaced, trns)
	}
	vp8l := func(w, h int64) int64 {
		tiles := up(w, 4) / 4 * up(h, 4) / 4
		return 4*w*h + 4*((w+1)/2)*h + 12*tiles + min(tiles, 2600)*vp8lGroupBytes
	}
	tests := []struct {
		name     string
		data     []byte
		layout   string
		decode   int64
		accepted bool
	}{
		// JPEG: one byte per sample in whole MCUs; a progressive one keeps
		// 64 int32 coefficients per 8×8 block besides.
		{"baseline 4:4:4 7000×7000", jh(7000, 7000, J{Sampling: yuv444}), "baseline 4:4:4", 3 * 7000 * 7000, true},
		{"baseline 4:2:0 7000×7000", jh(7000, 7000, J{Sampling: yuv420}), "baseline 4:2:0", 3 * up(7000, 16) * up(7000, 16) / 2, true},
		{"baseline 4:2:2 6001×4001", jh(6001, 4001, J{Sampling: yuv422}), "baseline 4:2:2", 2 * up(6001, 16) * up(4001, 8), true},
		{"progressive 4:4:4 7000×7000 (issue: 767 MB)", jh(7000, 7000, J{Progressive: true, Sampling: yuv444}), "progressive 4:4:4", 15 * 7000 * 7000, false},
		{"progressive 4:2:0 7000×7000 (issue: 408 MB)", jh(7000, 7000, J{Progressive: true, Sampling: yuv420}), "progressive 4:2:0", 15 * up(7000, 16) * up(7000, 16) / 2, false},
		{"progressive 4:4:4 at the limit", jh(4203, 3152, J{Progressive: true, Sampling: yuv444}), "progressive 4:4:4", 15 * up(4203, 8) * 3152, true},
		{"progressive 4:4:4 past the limit", jh(4204, 3153, J{Progressive: true, Sampling: yuv444}), "progressive 4:4:4", 15 * up(4204, 8) * up(3153, 8), false},
		{"progressive 4:2:0 at the limit", jh(5761, 4320, J{Progressive: true, Sampling: yuv420}), "progressive 4:2:0", 15 * up(5761, 16) * up(4320, 16) / 2, true},
		{"progressive 4:2:0 past the limit", jh(5762, 4321, J{Progressive: true, Sampling: yuv420}), "progressive 4:2:0", 15 * up(5762, 16) * up(4321, 16) / 2, false},
		{"baseline gray 8000×6000", jh(8000, 6000, J{Sampling: gray}), "baseline gray", 8000 * 6000, true},
		{"progressive gray 7000×7000", jh(7000, 7000, J{Progressive: true, Sampling: gray}), "progressive gray", 5 * 7000 * 7000, false},
		{"gray with stray sampling factors is not subsampled", jh(800, 600, J{Sampling: []byte{0x22}}), "baseline gray", 800 * 600, true},
		{"CMYK: four planes and the CMYK image", jh(4000, 3000, J{Sampling: cmyk, Adobe: true}), "baseline CMYK", 8 * 4000 * 3000, true},
		{"progressive CMYK", jh(4000, 3000, J{Progressive: true, Sampling: cmyk, Adobe: true}), "progressive CMYK", 24 * 4000 * 3000, false},
		{"RGB by Adobe's transform 0: converted to RGBA", jh(5000, 3752, J{Sampling: yuv444, Adobe: true}), "baseline 4:4:4 RGB", 7 * 5000 * 3752, true},
		{"Adobe's transform 1 is YCbCr", jh(5000, 3752, J{Sampling: yuv444, Adobe: true, Transform: 1}), "baseline 4:4:4", 3 * 5000 * 3752, true},
		{"RGB by component ids", jh(5000, 3752, J{Sampling: yuv444, IDs: []byte("RGB")}), "baseline 4:4:4 RGB", 7 * 5000 * 3752, true},
		{"Adobe segment after the pixels", adobeAfterScan(thumbstest.JPEGImage(800, 600, J{Sampling: yuv444})), "baseline 4:4:4 RGB", 7 * 800 * 600, true},

		// PNG: the decoded image in the model the decoder picks, the passes
		// of an interlaced one besides, two rows of samples.
		{"RGBA 8-bit at the limit", pngh(7585, 5688, 8, thumbstest.PNGRGBA, false, false), "RGBA 8-bit", 4*7585*5688 + 2*(8*7585+1), true},
		{"RGBA 8-bit past the limit", pngh(7586, 5689, 8, thumbstest.PNGRGBA, false, false), "RGBA 8-bit", 4*7586*5689 + 2*(8*7586+1), false},
		{"RGBA 16-bit at the limit", pngh(5602, 4201, 16, thumbstest.PNGRGBA, false, false), "RGBA 16-bit", 8*5602*4201 + 2*(8*5602+1), true},
		{"RGBA 16-bit past the limit", pngh(5603, 4202, 16, thumbstest.PNGRGBA, false, false), "RGBA 16-bit", 8*5603*4202 + 2*(8*5603+1), false},
		{"RGB 8-bit decodes to RGBA", pngh(7000, 5000, 8, thumbstest.PNGRGB, false, false), "RGB 8-bit", 4*7000*5000 + 2*(8*7000+1), true},
		{"gray 8-bit", pngh(8000, 6000, 8, thumbstest.PNGGray, false, false), "gray 8-bit", 8000*6000 + 2*(8*8000+1), true},
		{"gray 8-bit with tRNS decodes to NRGBA", pngh(8000, 6000, 8, thumbstest.PNGGray, false, true), "gray with transparency 8-bit", 4*8000*6000 + 2*(8*8000+1), false},
		{"gray 16-bit with tRNS decodes to NRGBA64", pngh(4000, 3000, 16, thumbstest.PNGGray, false, true), "gray with transparency 16-bit", 8*4000*3000 + 2*(8*4000+1), true},
		{"paletted", pngh(8000, 6000, 8, thumbstest.PNGPaletted, false, true), "paletted 8-bit", 8000*6000 + 2*(8*8000+1), true},
		{"interlaced: the passes besides the image", pngh(5000, 3000, 8, thumbstest.PNGRGBA, true, false), "RGBA 8-bit interlaced", 4*(2*5000*3000+8*(5000+3000)) + 2*(8*5000+1), true},
		{"decompression bomb", pngh(100000, 100000, 8, thumbstest.PNGRGBA, false, false), "RGBA 8-bit", 4*100000*100000 + 2*(8*100000+1), false},

		// WebP: a lossy image in YCbCr 4:2:0 macroblocks with its encoded
		// data in memory; lossless: vp8l's pixels, tiles and Huffman groups.
		{"lossy 8165×6123", thumbstest.WebPLossyHeader(8165, 6123, thumbstest.NoAlpha, 10<<20), "lossy",
			3*up(8165, 16)*up(6123, 16)/2 + 64*(up(8165, 16)/16)*(up(6123, 16)/16) + 10<<20, true},
		{"lossy announcing more data than vp8 reads", thumbstest.WebPLossyHeader(1000, 1000, thumbstest.NoAlpha, 1<<30), "lossy",
			3*1008*1008/2 + 64*63*63 + 8<<24, true},
		{"lossy with a raw alpha channel", thumbstest.WebPLossyHeader(8000, 6000, thumbstest.RawAlpha, 1<<20), "lossy with raw alpha",
			3*8000*6000/2 + 64*500*375 + 1<<20 + 8000*6000, true},
		{"lossy with a lossless alpha channel", thumbstest.WebPLossyHeader(2000, 1500, thumbstest.LosslessAlpha, 1<<20), "lossy with lossless alpha",
			3*2000*up(1500, 16)/2 + 64*125*94 + 1<<20 + vp8l(2000, 1500) + 2000*1500, false},
		{"lossy with alpha not said how", thumbstest.WebPLossyHeader(600, 450, thumbstest.AlphaNotStated, 1<<20), "lossy with alpha",
			3*up(600, 16)*up(450, 16)/2 + 64*38*29 + 1<<20 + vp8l(600, 450) + 600*450, true},
		{"lossless at the limit", thumbstest.WebPLosslessHeader(851, 638), "lossless", vp8l(851, 638), true},
		{"lossless past the limit", thumbstest.WebPLosslessHeader(852, 639), "lossless", vp8l(852, 639), false},
		{"small lossless: a group per 4×4 tile at most", thumbstest.WebPLosslessHeader(100, 60), "lossless", vp8l(100, 60), true},

		// GIF: the first frame and its de-interlaced copy.
		{"GIF 7000×7000", thumbstest.GIFHeader(7000, 7000), "paletted", 2 * 7000 * 7000, true},
	}
	l := DefaultLimits()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Estimate(bytes.NewReader(tt.data), l.MaxSide)
			if err != nil {
				t.Fatal(err)
			}
			if c.Layout != tt.layout {
				t.Errorf("layout %q, want %q", c.Layout, tt.layout)
			}
			want := tt.decode + scaleCost(int64(c.Width), int64(c.Height), l.MaxSide) + fixedCost
			if c.Bytes != want {
				t.Errorf("estimate %d bytes, want %d (off by %d)", c.Bytes, want, c.Bytes-want)
			}
			_, err = Make(bytes.NewReader(tt.data), l)
			if refused := errors.Is(err, ErrTooLarge); refused == tt.accepted {
				t.Errorf("%d MiB for %d×%d: refused %v (%v), want %v", mib(c.Bytes), c.Width, c.Height, refused, err, !tt.accepted)
			}
		})
	}
}

// The premise of "Adobe segment after the pixels": image/jpeg reads the
// segment after the scan and converts the image to RGBA.
func TestAdobeAfterScanDecodesToRGBA(t *testing.T) {
	m, _, err := image.Decode(bytes.NewReader(adobeAfterScan(thumbstest.JPEGImage(16, 16, thumbstest.JPEG{Sampling: yuv444}))))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.(*image.RGBA); !ok {
		t.Fatalf("decoded as %T, want *image.RGBA", m)
	}
}

func TestEstimateScaleCost(t *testing.T) {
	// The scaler's intermediate image is the thumbnail's width by the
	// source's height, four float64 per pixel: 72 MB for 7000×7000.
	if got := scaleCost(7000, 7000, 320); got < 32*320*7000 || got > 32*320*7000+8<<20 {
		t.Errorf("scaleCost(7000, 7000) = %d", got)
	}
}

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The estimate covers what decoding and scaling really allocate (every
// byte, what is kept and what is dropped on the way), and for all but a
// lossless WebP (whose Huffman tables are counted at the most a file can
// make the decoder build) it is not so cautious that it refuses what
// would fit.
func TestEstimateCoversDecoding(t *testing.T) {
	type J = thumbstest.JPEG
	nrgba := image.NewNRGBA(image.Rect(0, 0, 1200, 900))
	nrgba64 := image.NewNRGBA64(image.Rect(0, 0, 1200, 900))
	grayImg := image.NewGray(image.Rect(0, 0, 1200, 900))
	paletted := image.NewPaletted(image.Rect(0, 0, 1200, 900), color.Palette{color.Black, color.White})
	for i := range nrgba.Pix {
		nrgba.Pix[i], nrgba64.Pix[i] = byte(i), byte(i)
		grayImg.Pix[i/4], paletted.Pix[i/4] = byte(i), byte(i&1)
	}
	pngOf := func(m image.Image) []byte {
		var b bytes.Buffer
		if err := png.Encode(&b, m); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	tests := []struct {
		name     string
		data     []byte
		cautious bool
	}{
		{"JPEG baseline 4:4:4", thumbstest.JPEGImage(1200, 900, J{Sampling: yuv444}), false},
		{"JPEG baseline 4:2:0", thumbstest.JPEGImage(1201, 901, J{Sampling: yuv420}), false},
		{"JPEG progressive 4:4:4", thumbstest.JPEGImage(1200, 900, J{Progressive: true, Sampling: yuv444}), false},
		{"JPEG progressive 4:2:0", thumbstest.JPEGImage(1201, 901, J{Progressive: true, Sampling: yuv420}), false},
		{"JPEG progressive 4:2:2", thumbstest.JPEGImage(1201, 901, J{Progressive: true, Sampling: yuv422}), false},
		{"JPEG progressive gray", thumbstest.JPEGImage(1200, 900, J{Progressive: true, Sampling: gray}), false},
		{"JPEG progressive CMYK", thumbstest.JPEGImage(1200, 900, J{Progressive: true, Sampling: cmyk, Adobe: true}), false},
		{"JPEG YCCK", thumbstest.JPEGImage(1200, 900, J{Sampling: cmyk, Adobe: true, Transform: 2}), false},
		{"JPEG RGB", thumbstest.JPEGImage(1200, 900, J{Sampling: yuv444, IDs: []byte("RGB")}), false},
		{"JPEG Adobe segment after the pixels", adobeAfterScan(thumbstest.JPEGImage(1200, 900, J{Sampling: yuv444})), false},
		{"JPEG progressive, made by cjpeg", fixture(t, "progressive.jpg"), false},
		{"PNG RGBA 8-bit", pngOf(nrgba), false},
		{"PNG RGBA 16-bit", pngOf(nrgba64), false},
		{"PNG gray", pngOf(grayImg), false},
		{"PNG paletted", pngOf(paletted), false},
		{"GIF", encodeGIF(t, picture(1200, 900)), false},
		{"WebP lossy, made by cwebp", fixture(t, "lossy.webp"), false},
		{"WebP lossy with alpha, made by cwebp", fixture(t, "lossy-alpha.webp"), true},
		{"WebP lossless", thumbstest.WebPLossless(1200, 900), true},
		{"WebP lossless, 2600 Huffman groups of full alphabets", thumbstest.WebPLosslessManyTrees(), false},
	}
	l := Limits{MaxSide: DefaultMaxSide} // nothing refused: everything is decoded
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Estimate(bytes.NewReader(tt.data), l.MaxSide)
			if err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err = Make(bytes.NewReader(tt.data), l)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			alloc := int64(after.TotalAlloc - before.TotalAlloc)
			t.Logf("%s %d×%d: estimate %d, allocated %d", c.Layout, c.Width, c.Height, c.Bytes, alloc)
			if alloc > c.Bytes {
				t.Errorf("%s: allocated %d bytes, more than the estimate %d", c.Layout, alloc, c.Bytes)
			}
			if !tt.cautious && c.Bytes > alloc*5/4+4<<20 {
				t.Errorf("%s: estimate %d bytes, far above the %d allocated", c.Layout, c.Bytes, alloc)
			}
		})
	}
}

// What makes a lossless WebP's estimate so large is real: a 204×204 image
// of 772 KB takes the decoder over 200 MiB.
func TestWebPHuffmanTablesAreCounted(t *testing.T) {
	data := thumbstest.WebPLosslessManyTrees()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, _, err := image.Decode(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc < 200<<20 {
		t.Errorf("decoding %d bytes allocated %d MiB, want over 200 MiB", len(data), alloc>>20)
	}
}

// A large thumbnail's memory goes back to the operating system when it is
// made, not when the runtime's scavenger gets round to it.
func TestMakeReleasesMemory(t *testing.T) {
	data := thumbstest.JPEGImage(2000, 1500, thumbstest.JPEG{Progressive: true, Sampling: yuv444}) // 60 MiB to decode
	if _, err := Make(bytes.NewReader(data), DefaultLimits()); err != nil {
		t.Fatal(err)
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if held := m.HeapSys - m.HeapReleased; held > 24<<20 {
		t.Errorf("the heap holds %d MiB of the operating system's memory after the thumbnail", held>>20)
	}
}
