package thumbs

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"io"
	"math"
)

// Cost is what making one image's thumbnail takes, estimated from the
// image's header before a pixel is decoded.
type Cost struct {
	// Format is the decoder's name: jpeg, png, gif or webp.
	Format        string
	Width, Height int
	// Layout says how the image is stored, which is what its decoding
	// costs: "progressive 4:4:4", "RGBA 16-bit interlaced", "lossless".
	Layout string
	// Bytes is the most memory decoding and scaling it allocates: every
	// buffer the decoder makes (what it keeps and what it drops on the
	// way, as a collection may not come in between), the scaler's and the
	// thumbnail's.
	Bytes int64
}

// maxCostPixels bounds the pixel count the arithmetic is done with: the
// formats' sizes reach 2^62 pixels (PNG), which times bytes per pixel would
// overflow; an image that large costs "more than anything".
const maxCostPixels = 1 << 40

// fixedCost covers what does not grow with the image: read buffers, the
// decoders' tables, the JPEG encoder's state.
const fixedCost = 1 << 20

// Estimate reads the header of the image r holds (its whole marker
// structure for a JPEG, no pixel data) and says what making its thumbnail,
// at most maxSide pixels on the long side, would take.
func Estimate(r io.ReadSeeker, maxSide int) (Cost, error) {
	cfg, format, err := decodeConfig(r)
	if err != nil {
		return Cost{}, err
	}
	return estimate(r, cfg, format, maxSide)
}

// decodeConfig reads r's dimensions from its header.
func decodeConfig(r io.ReadSeeker) (image.Config, string, error) {
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return image.Config{}, "", err
	}
	cfg, format, err := image.DecodeConfig(bufio.NewReader(r))
	if err != nil {
		if errors.Is(err, image.ErrFormat) {
			return cfg, "", ErrUnsupported
		}
		return cfg, "", fmt.Errorf("%w: header: %v", ErrCorrupt, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return cfg, "", fmt.Errorf("%w: %d×%d pixels", ErrCorrupt, cfg.Width, cfg.Height)
	}
	return cfg, format, nil
}

// estimate is Estimate once the header's dimensions are known.
func estimate(r io.ReadSeeker, cfg image.Config, format string, maxSide int) (Cost, error) {
	c := Cost{Format: format, Width: cfg.Width, Height: cfg.Height}
	w, h := int64(cfg.Width), int64(cfg.Height)
	if w*h > maxCostPixels {
		c.Layout, c.Bytes = "too many pixels to count", math.MaxInt64
		return c, nil
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return c, err
	}
	br := bufio.NewReader(r)
	var decode int64
	var err error
	switch format {
	case "jpeg":
		decode, c.Layout, err = jpegCost(br, w, h)
	case "png":
		decode, c.Layout, err = pngCost(br, w, h)
	case "gif":
		decode, c.Layout = gifCost(w, h), "paletted"
	case "webp":
		decode, c.Layout, err = webpCost(br, w, h)
	default:
		// A decoder some other package registered: what it takes is unknown.
		return c, ErrUnsupported
	}
	if err != nil {
		return c, fmt.Errorf("%w: header: %v", ErrCorrupt, err)
	}
	c.Bytes = decode + scaleCost(w, h, maxSide) + fixedCost
	return c, nil
}

// scaleCost is what Make allocates once the image is decoded: the
// Catmull-Rom scaler's intermediate image (four float64 per pixel, the
// thumbnail's width by the source's height) and its weight tables, the
// thumbnail, its turned copy and its JPEG.
func scaleCost(w, h int64, maxSide int) int64 {
	dw, dh := fit(int(w), int(h), maxSide)
	tw, th := int64(dw), int64(dh)
	return 32*tw*h + 128*(w+h+tw+th) + 4*tw*th*2 + 3*tw*th*2
}

// gifCost: the first frame, one byte per pixel of the logical screen at
// most, and a copy of it when it is interlaced.
func gifCost(w, h int64) int64 { return 2 * w * h }

// JPEG markers.
const (
	jpegSOF0  = 0xC0 // baseline
	jpegSOF1  = 0xC1 // extended sequential: decoded as baseline
	jpegSOF2  = 0xC2 // progressive
	jpegDHT   = 0xC4
	jpegRST0  = 0xD0
	jpegRST7  = 0xD7
	jpegSOI   = 0xD8
	jpegEOI   = 0xD9
	jpegSOS   = 0xDA
	jpegDQT   = 0xDB
	jpegDRI   = 0xDD
	jpegAPP0  = 0xE0
	jpegAPP14 = 0xEE
	jpegAPP15 = 0xEF
	jpegCOM   = 0xFE
)

// jpegFrame is what a JPEG's markers say about how Go's image/jpeg decodes
// it.
type jpegFrame struct {
	seen        bool
	progressive bool
	nComp       int
	h, v        [4]int // each component's sampling factors
	ids         [4]byte
	// adobeRGB: an Adobe APP14 segment says the colour transform is 0, so
	// three components are RGB (and converted to RGBA).
	adobeRGB bool
}

// readJPEGFrame walks a JPEG's markers as image/jpeg's decoder does, to its
// end: segments skipped by their length, everything else (entropy-coded
// data, stray bytes) searched for the next 0xFF that is not a stuffed
// 0xFF00 or a restart marker. So it sees every marker the decoder acts on,
// including an APP14 placed after the first scan, which still turns the
// decoded image into RGBA. It stops where the decoder would fail.
func readJPEGFrame(br *bufio.Reader) (jpegFrame, error) {
	var f jpegFrame
	var tmp [18]byte
	if _, err := io.ReadFull(br, tmp[:2]); err != nil || tmp[0] != 0xFF || tmp[1] != jpegSOI {
		return f, errors.New("no SOI marker")
	}
	for {
		if err := skipToFF(br); err != nil {
			return f, nil // the end: what was seen is what the decoder allocates
		}
		marker, err := br.ReadByte()
		if err != nil {
			return f, nil
		}
		if marker == 0 { // a stuffed 0xFF00 in entropy-coded data
			continue
		}
		for marker == 0xFF { // fill bytes
			if marker, err = br.ReadByte(); err != nil {
				return f, nil
			}
		}
		if marker == jpegEOI {
			return f, nil
		}
		if jpegRST0 <= marker && marker <= jpegRST7 {
			continue
		}
		if _, err := io.ReadFull(br, tmp[:2]); err != nil {
			return f, nil
		}
		n := int(binary.BigEndian.Uint16(tmp[:2])) - 2
		if n < 0 {
			return f, nil
		}
		switch {
		case marker == jpegSOF0 || marker == jpegSOF1 || marker == jpegSOF2:
			if f.seen || (n != 6+3*1 && n != 6+3*3 && n != 6+3*4) {
				return f, nil // the decoder refuses a second frame, and other component counts
			}
			if _, err := io.ReadFull(br, tmp[:n]); err != nil {
				return f, nil
			}
			if int(tmp[5]) != (n-6)/3 {
				return f, nil
			}
			f.seen, f.progressive, f.nComp = true, marker == jpegSOF2, int(tmp[5])
			for i := 0; i < f.nComp; i++ {
				f.ids[i] = tmp[6+3*i]
				f.h[i], f.v[i] = max(1, int(tmp[7+3*i]>>4)), max(1, int(tmp[7+3*i]&15))
			}
			continue
		case marker == jpegAPP14 && n >= 12:
			if _, err := io.ReadFull(br, tmp[:12]); err != nil {
				return f, nil
			}
			if string(tmp[:5]) == "Adobe" && tmp[11] == 0 {
				f.adobeRGB = true
			}
			n -= 12
		case marker == jpegSOS || marker == jpegDHT || marker == jpegDQT || marker == jpegDRI ||
			jpegAPP0 <= marker && marker <= jpegAPP15 || marker == jpegCOM:
		default:
			return f, nil // a marker the decoder does not support: it stops there
		}
		if _, err := br.Discard(n); err != nil {
			return f, nil
		}
	}
}

// skipToFF discards bytes up to the next 0xFF and that byte.
func skipToFF(br *bufio.Reader) error {
	for {
		buf, err := br.Peek(max(1, br.Buffered()))
		if i := bytes.IndexByte(buf, 0xFF); i >= 0 {
			_, err := br.Discard(i + 1)
			return err
		}
		if err != nil {
			return err
		}
		br.Discard(len(buf))
	}
}

// jpegCost is what image/jpeg allocates for a w×h JPEG. The image is
// decoded in whole MCUs (8×8 pixels times the first component's sampling
// factors), each component into a plane of one byte per sample. A
// progressive JPEG also keeps every component's DCT coefficients until its
// last scan: 64 int32 per 8×8 block, four bytes per sample, so a 4:4:4
// image takes 15 bytes per pixel where a baseline one takes 3. An RGB JPEG
// is converted to RGBA and a CMYK one to CMYK, four more bytes per pixel.
func jpegCost(br *bufio.Reader, w, h int64) (int64, string, error) {
	f, err := readJPEGFrame(br)
	if err != nil {
		return 0, "", err
	}
	if !f.seen {
		return 0, "", errors.New("no frame header")
	}
	if f.nComp == 1 {
		f.h[0], f.v[0] = 1, 1 // one component is never subsampled
	}
	mcuW, mcuH := 8*int64(f.h[0]), 8*int64(f.v[0])
	mcus := ((w + mcuW - 1) / mcuW) * ((h + mcuH - 1) / mcuH)
	var blocks int64
	for i := 0; i < f.nComp; i++ {
		blocks += mcus * int64(f.h[i]*f.v[i])
	}
	cost := 64 * blocks // the planes
	layout := "baseline"
	if f.progressive {
		cost += 64 * 4 * blocks
		layout = "progressive"
	}
	switch {
	case f.nComp == 1:
		layout += " gray"
	case f.nComp == 4:
		layout += " CMYK"
		cost += 4 * w * h
	default:
		layout += " " + subsampling(f)
		if f.adobeRGB || string(f.ids[:3]) == "RGB" {
			layout += " RGB"
			cost += 4 * w * h
		}
	}
	return cost, layout, nil
}

// subsampling names a three-component JPEG's chroma subsampling.
func subsampling(f jpegFrame) string {
	switch [2]int{f.h[0] / f.h[1], f.v[0] / f.v[1]} {
	case [2]int{1, 1}:
		return "4:4:4"
	case [2]int{1, 2}:
		return "4:4:0"
	case [2]int{2, 1}:
		return "4:2:2"
	case [2]int{2, 2}:
		return "4:2:0"
	case [2]int{4, 1}:
		return "4:1:1"
	case [2]int{4, 2}:
		return "4:1:0"
	}
	return fmt.Sprintf("%dx%d,%dx%d", f.h[0], f.v[0], f.h[1], f.v[1])
}

// pngCost is what image/png allocates for a w×h PNG: the image in the
// colour model the decoder picks (gray and gray 16-bit become NRGBA and
// NRGBA64 when a tRNS chunk makes a colour transparent), each of an
// interlaced image's seven passes as an image of its own besides (together
// the size of the whole), and two rows of raw samples.
func pngCost(br *bufio.Reader, w, h int64) (int64, string, error) {
	var hdr [8 + 8 + 13 + 4]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil {
		return 0, "", err
	}
	if string(hdr[12:16]) != "IHDR" {
		return 0, "", errors.New("no IHDR chunk")
	}
	depth, colorType, interlaced := int64(hdr[24]), hdr[25], hdr[28] == 1
	trns := colorType == 0 && pngHasTRNS(br)
	var bpp int64 // bytes per pixel of the decoded image
	var layout string
	switch colorType {
	case 0:
		layout, bpp = "gray", 1
		if trns {
			layout, bpp = "gray with transparency", 4
		}
	case 2:
		layout, bpp = "RGB", 4
	case 3:
		layout, bpp = "paletted", 1
	case 4:
		layout, bpp = "gray+alpha", 4
	default:
		layout, bpp = "RGBA", 4
	}
	if depth == 16 && colorType != 3 {
		bpp *= 2
	}
	layout = fmt.Sprintf("%s %d-bit", layout, depth)
	cost := w * h * bpp
	if interlaced {
		layout += " interlaced"
		cost += (w*h + 8*(w+h)) * bpp
	}
	return cost + 2*(8*w+1), layout, nil
}

// pngHasTRNS reads the chunk headers after IHDR up to the pixel data
// (where a tRNS chunk must come) and says whether one is there; when they
// cannot be followed to IDAT, it says yes.
func pngHasTRNS(br *bufio.Reader) bool {
	var hdr [8]byte
	for {
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			return true
		}
		switch typ := string(hdr[4:]); typ {
		case "IDAT", "IEND":
			return false
		case "tRNS":
			return true
		}
		for _, c := range hdr[4:] {
			if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z') {
				return true
			}
		}
		if _, err := br.Discard(int(binary.BigEndian.Uint32(hdr[:4])) + 4); err != nil {
			return true
		}
	}
}

// vp8lMaxGroups is golang.org/x/image/vp8l's bound on the Huffman groups of
// one lossless image (libwebp's encoder makes at most that many).
const vp8lMaxGroups = 2600

// vp8lGroupBytes is what the decoder allocates for one Huffman group at
// most, in the allocator's size classes (a 2328-symbol tree's nodes take
// whole 8 KiB pages): five trees of up to 2·n−1 nodes of 8 bytes, n being
// 280 symbols plus a 2048-entry colour cache for green (4655 nodes), 256
// for red, blue and alpha and 40 for distances; the code lengths and codes
// each is built from (garbage at once, but not necessarily collected); the
// code-length codes; and the group itself (five trees' look-up tables).
// A 204×204 file of 772 KB makes the decoder build 2600 of them
// (thumbstest.WebPLosslessManyTrees): 204 MiB.
const vp8lGroupBytes = 40960 + 3*4096 + 640 + 2*(9472+3*1024+160) + 5*704 + 5*(24+4*128)

// vp8lCost is what golang.org/x/image/vp8l allocates for a lossless w×h
// image: its pixels (4 bytes each), a copy at a quarter, half or eighth of
// the width besides them when a palette packs several pixels into one,
// the transforms' and the Huffman image's tiles (4×4 pixels at least), and
// the Huffman groups, up to one per tile and vp8lMaxGroups: a file of half
// a megabyte can make the decoder build all of them, whatever the image.
func vp8lCost(w, h int64) int64 {
	tiles := ((w + 3) / 4) * ((h + 3) / 4)
	return 4*w*h + 4*((w+1)/2)*h + 3*4*tiles + min(tiles, vp8lMaxGroups)*vp8lGroupBytes
}

// vp8MaxData is the most encoded data golang.org/x/image/vp8 reads into
// memory: eight partitions of under 16 MiB.
const vp8MaxData = 8 << 24

// webpCost is what golang.org/x/image/webp allocates for a w×h WebP. A
// lossy one is decoded into YCbCr 4:2:0 in whole 16×16 macroblocks, its
// encoded data read into memory first (as much as its chunk announces, up
// to vp8MaxData), and an alpha channel beside it: one byte per pixel, plus
// a whole lossless image when the channel is compressed as one. A lossless
// one costs vp8lCost.
func webpCost(br *bufio.Reader, w, h int64) (int64, string, error) {
	var hdr [12]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil {
		return 0, "", err
	}
	if string(hdr[:4]) != "RIFF" || string(hdr[8:]) != "WEBP" {
		return 0, "", errors.New("not a RIFF WEBP container")
	}
	var alpha int64
	var alphaLayout string
	for {
		if _, err := io.ReadFull(br, hdr[:8]); err != nil {
			return 0, "", err
		}
		n := int64(binary.LittleEndian.Uint32(hdr[4:8]))
		pad := n & 1 // chunks start at even offsets
		switch string(hdr[:4]) {
		case "VP8X":
			var x [10]byte
			if _, err := io.ReadFull(br, x[:min(n, 10)]); err != nil {
				return 0, "", err
			}
			if x[0]&(1<<4) != 0 { // alpha: assume compressed until ALPH says
				alpha, alphaLayout = vp8lCost(w, h)+w*h, " with alpha"
			}
			n -= min(n, 10)
		case "ALPH":
			b, err := br.ReadByte()
			if err != nil {
				return 0, "", err
			}
			if b&3 == 0 {
				alpha, alphaLayout = w*h, " with raw alpha"
			} else {
				alpha, alphaLayout = vp8lCost(w, h)+w*h, " with lossless alpha"
			}
			n--
		case "VP8 ":
			mbw, mbh := (w+15)/16, (h+15)/16
			return 3*(16*mbw)*(16*mbh)/2 + 64*mbw*mbh + min(n, vp8MaxData) + alpha, "lossy" + alphaLayout, nil
		case "VP8L":
			return vp8lCost(w, h), "lossless", nil
		}
		if _, err := br.Discard(int(n + pad)); err != nil {
			return 0, "", err
		}
	}
}
