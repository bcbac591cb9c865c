// Package thumbstest writes images for the thumbnail tests and `make bench`:
// the headers of images of any size, to test what is estimated from them
// without decoding, and whole images that cost a decoder as much memory as
// a photo of their size while being only a few bytes per 8×8 block (a
// progressive JPEG, which Go's image/jpeg cannot write, and a lossless WebP,
// which golang.org/x/image cannot write).
package thumbstest

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
)

// JPEG describes a JPEG's frame.
type JPEG struct {
	// Progressive writes SOF2 (the decoder keeps every coefficient), else
	// SOF0 (baseline).
	Progressive bool
	// Sampling is each component's sampling factors as h<<4|v: {0x11} is
	// gray, {0x11, 0x11, 0x11} 4:4:4, {0x22, 0x11, 0x11} 4:2:0, four
	// components CMYK. Empty means 4:2:0.
	Sampling []byte
	// IDs are the components' identifiers; empty means 1, 2, 3, 4.
	// 'R', 'G', 'B' mark an RGB JPEG.
	IDs []byte
	// Adobe adds an APP14 "Adobe" segment with this colour transform
	// (0: RGB or CMYK as stored, 1: YCbCr, 2: YCCK), as Photoshop writes.
	Adobe bool
	// Transform is the Adobe segment's colour transform.
	Transform byte
}

func (o JPEG) sampling() []byte {
	if len(o.Sampling) == 0 {
		return []byte{0x22, 0x11, 0x11}
	}
	return o.Sampling
}

func (o JPEG) ids() []byte {
	if len(o.IDs) > 0 {
		return o.IDs
	}
	return []byte{1, 2, 3, 4}[:len(o.sampling())]
}

func segment(b *bytes.Buffer, marker byte, payload []byte) {
	b.Write([]byte{0xFF, marker})
	binary.Write(b, binary.BigEndian, uint16(len(payload)+2))
	b.Write(payload)
}

// head writes SOI, the Adobe segment and the frame header.
func (o JPEG) head(b *bytes.Buffer, w, h int) {
	b.Write([]byte{0xFF, 0xD8})
	if o.Adobe {
		segment(b, 0xEE, []byte{'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0, o.Transform})
	}
	sof := []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), byte(len(o.sampling()))}
	for i, s := range o.sampling() {
		sof = append(sof, o.ids()[i], s, 0)
	}
	marker := byte(0xC0)
	if o.Progressive {
		marker = 0xC2
	}
	segment(b, marker, sof)
}

// JPEGHeader is a JPEG's headers and no pixels (SOI, SOF, an empty SOS,
// EOI): what its memory is estimated from, for any size up to 65535×65535.
func JPEGHeader(w, h int, o JPEG) []byte {
	var b bytes.Buffer
	o.head(&b, w, h)
	sos := []byte{byte(len(o.sampling()))}
	for i := range o.sampling() {
		sos = append(sos, o.ids()[i], 0)
	}
	segment(&b, 0xDA, append(sos, 0, 63, 0))
	b.Write([]byte{0xFF, 0xD9})
	return b.Bytes()
}

// JPEGImage is a whole w×h JPEG of a uniform grey that any decoder reads:
// one scan holding every block's DC coefficient (and, for a baseline one,
// an end-of-block), one bit each. A progressive 7000×7000 4:4:4 image is
// under 300 KB, and Go's decoder allocates for it what it would for a photo.
func JPEGImage(w, h int, o JPEG) []byte {
	var b bytes.Buffer
	o.head(&b, w, h)
	// Every quantisation step 1.
	segment(&b, 0xDB, append([]byte{0}, bytes.Repeat([]byte{1}, 64)...))
	// A DC table whose one code, "0", is category 0 (no difference), and an
	// AC table whose one code, "0", is end-of-block.
	oneCode := append([]byte{1}, make([]byte, 15)...)
	segment(&b, 0xC4, append(append([]byte{0x00}, oneCode...), 0))
	segment(&b, 0xC4, append(append([]byte{0x10}, oneCode...), 0))
	sampling := o.sampling()
	h0, v0 := int(sampling[0]>>4), int(sampling[0]&15)
	if len(sampling) == 1 {
		h0, v0 = 1, 1
	}
	mcus := ((w + 8*h0 - 1) / (8 * h0)) * ((h + 8*v0 - 1) / (8 * v0))
	blocks := 0
	sos := []byte{byte(len(sampling))}
	for i, s := range sampling {
		if len(sampling) == 1 {
			s = 0x11
		}
		blocks += int(s>>4) * int(s&15) * mcus
		sos = append(sos, o.ids()[i], 0x00)
	}
	bitsPerBlock := 2 // DC and end-of-block
	if o.Progressive {
		sos = append(sos, 0, 0, 0) // the DC band only
		bitsPerBlock = 1
	} else {
		sos = append(sos, 0, 63, 0)
	}
	segment(&b, 0xDA, sos)
	// Every code is "0": whole zero bytes, the last one padded with ones.
	bits := blocks * bitsPerBlock
	b.Write(make([]byte, bits/8))
	if r := bits % 8; r != 0 {
		b.WriteByte(byte(1<<(8-r) - 1))
	}
	b.Write([]byte{0xFF, 0xD9})
	return b.Bytes()
}

// PNG colour types.
const (
	PNGGray      = 0
	PNGRGB       = 2
	PNGPaletted  = 3
	PNGGrayAlpha = 4
	PNGRGBA      = 6
)

// PNGHeader is a PNG's signature, IHDR (and PLTE for a paletted one, tRNS
// when trns), an empty IDAT and IEND: what its memory is estimated from.
func PNGHeader(w, h uint32, depth, colorType byte, interlaced, trns bool) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, depth, colorType, 0, 0, 0)
	if interlaced {
		ihdr[12] = 1
	}
	chunk(&b, "IHDR", ihdr)
	if colorType == PNGPaletted {
		chunk(&b, "PLTE", make([]byte, 3*2))
	}
	if trns {
		n := map[byte]int{PNGGray: 2, PNGRGB: 6, PNGPaletted: 1}[colorType]
		chunk(&b, "tRNS", make([]byte, n))
	}
	chunk(&b, "IDAT", nil)
	chunk(&b, "IEND", nil)
	return b.Bytes()
}

func chunk(b *bytes.Buffer, typ string, data []byte) {
	binary.Write(b, binary.BigEndian, uint32(len(data)))
	c := append([]byte(typ), data...)
	b.Write(c)
	binary.Write(b, binary.BigEndian, crc32.ChecksumIEEE(c))
}

// WebP alpha channels of WebPLossyHeader.
const (
	NoAlpha        = iota
	RawAlpha       // an ALPH chunk stored as it is
	LosslessAlpha  // an ALPH chunk compressed as a lossless image
	AlphaNotStated // VP8X says there is alpha, no ALPH chunk says how
)

// WebPLossyHeader is a lossy WebP's chunks up to its VP8 frame header (a
// key frame of w×h, at most 16383×16383), with a VP8X chunk and an alpha
// channel as alpha says, the VP8 chunk announcing dataLen bytes: what its
// memory is estimated from.
func WebPLossyHeader(w, h int, alpha int, dataLen uint32) []byte {
	var body bytes.Buffer
	body.WriteString("WEBP")
	if alpha != NoAlpha {
		vp8x := make([]byte, 10)
		vp8x[0] = 1 << 4 // alpha
		putUint24(vp8x[4:], uint32(w-1))
		putUint24(vp8x[7:], uint32(h-1))
		riffChunk(&body, "VP8X", vp8x, 0)
		switch alpha {
		case RawAlpha:
			riffChunk(&body, "ALPH", []byte{0}, 0)
		case LosslessAlpha:
			riffChunk(&body, "ALPH", []byte{1}, 0)
		}
	}
	// Frame tag (a shown key frame, first partition of 1 byte), start code, size.
	frame := []byte{0x10, 0, 0, 0x9d, 0x01, 0x2a, byte(w), byte(w >> 8 & 0x3f), byte(h), byte(h >> 8 & 0x3f)}
	riffChunk(&body, "VP8 ", frame, dataLen)
	return riff(body.Bytes(), max(dataLen, uint32(len(frame)))-uint32(len(frame)))
}

// WebPLosslessHeader is a lossless WebP's header of w×h (at most
// 16384×16384): what its memory is estimated from.
func WebPLosslessHeader(w, h int) []byte {
	var bw bitWriter
	vp8lHeader(&bw, w, h)
	var body bytes.Buffer
	body.WriteString("WEBP")
	riffChunk(&body, "VP8L", bw.bytes(), 0)
	return riff(body.Bytes(), 0)
}

// WebPLossless is a whole lossless w×h WebP of one opaque colour: every
// Huffman code has a single symbol, so a pixel takes no bits and the file
// a few bytes, while the decoder allocates the whole image.
func WebPLossless(w, h int) []byte {
	var bw bitWriter
	vp8lHeader(&bw, w, h)
	bw.write(0, 1) // no transform
	bw.write(0, 1) // no colour cache
	bw.write(0, 1) // one group of Huffman codes for the whole image
	// Green, red, blue, alpha and distance: 0, 0, 0, 255, 0.
	for _, sym := range []uint32{0, 0, 0, 255, 0} {
		bw.write(1, 1) // a simple code
		bw.write(0, 1) // of one symbol
		bw.write(1, 1) // written in 8 bits
		bw.write(sym, 8)
	}
	var body bytes.Buffer
	body.WriteString("WEBP")
	riffChunk(&body, "VP8L", bw.bytes(), 0)
	return riff(body.Bytes(), 0)
}

func vp8lHeader(bw *bitWriter, w, h int) {
	bw.write(0x2f, 8)
	bw.write(uint32(w-1), 14)
	bw.write(uint32(h-1), 14)
	bw.write(0, 1) // alpha hint
	bw.write(0, 3) // version
}

// bitWriter writes a VP8L bit stream: least significant bit first.
type bitWriter struct {
	buf  []byte
	bits uint
}

func (b *bitWriter) write(v uint32, n uint) {
	for i := uint(0); i < n; i++ {
		if b.bits%8 == 0 {
			b.buf = append(b.buf, 0)
		}
		b.buf[len(b.buf)-1] |= byte(v>>i&1) << (b.bits % 8)
		b.bits++
	}
}

func (b *bitWriter) bytes() []byte { return b.buf }

// riffChunk writes a chunk whose header announces max(len(data), n) bytes.
func riffChunk(b *bytes.Buffer, fourcc string, data []byte, n uint32) {
	b.WriteString(fourcc)
	binary.Write(b, binary.LittleEndian, max(uint32(len(data)), n))
	b.Write(data)
	if len(data)%2 == 1 && uint32(len(data)) >= n {
		b.WriteByte(0)
	}
}

// riff is the RIFF container of body, announcing missing more bytes than
// it holds (a chunk's data left out).
func riff(body []byte, missing uint32) []byte {
	var b bytes.Buffer
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(len(body))+missing)
	b.Write(body)
	return b.Bytes()
}

func putUint24(b []byte, v uint32) { b[0], b[1], b[2] = byte(v), byte(v>>8), byte(v>>16) }

// GIFHeader is a GIF's header and logical screen of w×h and its trailer:
// what its memory is estimated from.
func GIFHeader(w, h uint16) []byte {
	b := []byte("GIF89a")
	b = binary.LittleEndian.AppendUint16(b, w)
	b = binary.LittleEndian.AppendUint16(b, h)
	return append(b, 0, 0, 0, 0x3B)
}

// WebPLosslessManyTrees is a 204×204 lossless WebP of 772 KB that
// makes golang.org/x/image/vp8l build the most Huffman tables it allows:
// a Huffman group for each of its 2600 4×4 tiles, each of full alphabets
// (a 2048-entry colour cache makes green's 2328 symbols). The decoder
// allocates about 200 MiB for it, whatever its size.
func WebPLosslessManyTrees() []byte {
	const side, groups = 204, 2600
	const tiles = (side + 3) / 4 // per row and column
	var bw bitWriter
	vp8lHeader(&bw, side, side)
	bw.write(0, 1)  // no transform
	bw.write(1, 1)  // a colour cache
	bw.write(11, 4) // of 2048 entries
	bw.write(1, 1)  // Huffman groups by tile
	bw.write(0, 3)  // of 4×4 pixels
	// The tiles' group numbers, an image of tiles×tiles pixels (red is the
	// high byte, green the low): one group of codes, green's 256 symbols
	// of 8 bits, red's 16 of 4 bits, the others a single symbol.
	bw.write(0, 1) // no colour cache
	bw.lengths(280, []run{{8, 256}})
	bw.lengths(256, []run{{4, 16}})
	for range 3 {
		bw.simple()
	}
	for i := range tiles * tiles {
		g := min(i, groups-1)
		bw.code(uint32(g&255), 8) // green: the symbol is its own code
		bw.code(uint32(g>>8), 4)  // red
	}
	// The groups: complete codes over every symbol. Green: 1768 codes of
	// 11 bits and 560 of 12; red, blue, alpha: 256 of 8; distance: 24 of 5
	// and 16 of 6.
	for range groups {
		bw.lengths(280+2048, []run{{11, 1768}, {12, 560}})
		for range 3 {
			bw.lengths(256, []run{{8, 256}})
		}
		bw.lengths(40, []run{{5, 24}, {6, 16}})
	}
	// Every pixel is symbol 0 of its group's codes, whose codes are all
	// zeros: 11 + 8 + 8 + 8 bits.
	for range side * side * 35 / 8 {
		bw.write(0, 8)
	}
	var body bytes.Buffer
	body.WriteString("WEBP")
	riffChunk(&body, "VP8L", bw.bytes(), 0)
	return riff(body.Bytes(), 0)
}

// run is n symbols in a row with the same code length.
type run struct{ length, n int }

// simple writes a Huffman code of one symbol, 0, which takes no bits.
func (b *bitWriter) simple() {
	b.write(1, 1) // simple
	b.write(0, 1) // one symbol
	b.write(0, 1) // written in one bit
	b.write(0, 1) // symbol 0
}

// code writes a Huffman code, its first bit first.
func (b *bitWriter) code(c uint32, n int) {
	for i := n - 1; i >= 0; i-- {
		b.write(c>>i&1, 1)
	}
}

// lengths writes a normal Huffman code over alphabet symbols: runs of
// code lengths from symbol 0, zero after them. The code lengths are
// themselves coded (a complete code over the lengths used and 16, "repeat
// the previous length 3–6 times").
func (b *bitWriter) lengths(alphabet int, runs []run) {
	// The code-length code: 16 and one length in one bit each, or 16 in
	// one and two lengths in two.
	var clcl [19]uint32
	clcl[16] = 1
	for _, r := range runs {
		clcl[r.length] = uint32(len(runs))
	}
	codes := canonical(clcl[:])
	// The tokens: a length, then repeats of it.
	type token struct{ sym, repeat int }
	var tokens []token
	total := 0
	for _, r := range runs {
		total += r.n
		tokens = append(tokens, token{sym: r.length})
		for left := r.n - 1; left > 0; {
			if left < 3 {
				tokens = append(tokens, token{sym: r.length})
				left--
				continue
			}
			k := min(6, left)
			if left-k == 1 || left-k == 2 {
				k = left - 3
			}
			tokens = append(tokens, token{sym: 16, repeat: k})
			left -= k
		}
	}
	order := []int{17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	n := 4
	for i, sym := range order {
		if clcl[sym] != 0 {
			n = max(n, i+1)
		}
	}
	b.write(0, 1) // not simple
	b.write(uint32(n-4), 4)
	for _, sym := range order[:n] {
		b.write(clcl[sym], 3)
	}
	if total < alphabet {
		b.write(1, 1) // the code lengths end early: after this many tokens,
		b.write(6, 3) // counted in 2+2·6 = 14 bits
		b.write(uint32(len(tokens)-2), 14)
	} else {
		b.write(0, 1)
	}
	for _, t := range tokens {
		b.code(codes[t.sym], int(clcl[t.sym]))
		if t.sym == 16 {
			b.write(uint32(t.repeat-3), 2)
		}
	}
}

// canonical is the canonical Huffman code of each symbol of the given code
// lengths (0: unused), as VP8L assigns them: by length, then by symbol.
func canonical(lengths []uint32) []uint32 {
	codes := make([]uint32, len(lengths))
	code := uint32(0)
	for l := uint32(1); l <= 15; l++ {
		for sym, sl := range lengths {
			if sl == l {
				codes[sym] = code
				code++
			}
		}
		code <<= 1
	}
	return codes
}
