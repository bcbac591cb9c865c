package thumbs

import (
	"encoding/binary"
	"image"
	"io"
)

// exifScanBytes is how much of a JPEG's start is searched for its EXIF
// block: APP1 comes before the image data and holds at most 64 KiB.
const exifScanBytes = 128 << 10

// exifOrientation reads the EXIF Orientation tag (1–8) of a JPEG, 1 when
// there is none or it cannot be read. Phones store photos as the sensor
// saw them and record the turn here; browsers apply it when they show the
// original, so a thumbnail that did not would stand sideways beside it.
// Only IFD0's one tag is needed, so it is read here rather than with an
// EXIF library.
func exifOrientation(r io.Reader) int {
	data, err := io.ReadAll(r)
	if err != nil || len(data) < 4 || data[0] != 0xFF || data[1] != 0xD8 {
		return 1
	}
	p := 2
	for p+4 <= len(data) {
		if data[p] != 0xFF {
			return 1
		}
		marker := data[p+1]
		if marker == 0xFF { // fill byte
			p++
			continue
		}
		if marker == 0xDA || marker == 0xD9 { // start of scan, end of image: no EXIF before the pixels
			return 1
		}
		size := int(binary.BigEndian.Uint16(data[p+2:]))
		if size < 2 || p+2+size > len(data) {
			return 1
		}
		seg := data[p+4 : p+2+size]
		if marker == 0xE1 && len(seg) >= 6 && string(seg[:6]) == "Exif\x00\x00" {
			return tiffOrientation(seg[6:])
		}
		p += 2 + size
	}
	return 1
}

// tiffOrientation finds tag 0x0112 in the first IFD of a TIFF header.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 1
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 1
	}
	ifd := int(bo.Uint32(t[4:]))
	if ifd < 8 || ifd+2 > len(t) {
		return 1
	}
	n := int(bo.Uint16(t[ifd:]))
	for i := 0; i < n; i++ {
		e := ifd + 2 + 12*i
		if e+12 > len(t) {
			return 1
		}
		if bo.Uint16(t[e:]) != 0x0112 {
			continue
		}
		// Type SHORT (3), count 1: the value sits in the entry's first two bytes.
		if bo.Uint16(t[e+2:]) != 3 {
			return 1
		}
		if v := int(bo.Uint16(t[e+8:])); v >= 1 && v <= 8 {
			return v
		}
		return 1
	}
	return 1
}

// orientImage turns m upright for an EXIF orientation: 2 mirrored, 3 turned
// 180°, 4 flipped, 5 transposed, 6 turned 90° clockwise, 7 transversed,
// 8 turned 90° counter-clockwise.
func orientImage(m *image.RGBA, o int) image.Image {
	if o < 2 || o > 8 {
		return m
	}
	b := m.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if o >= 5 {
		dw, dh = h, w
	}
	out := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var dx, dy int
			switch o {
			case 2:
				dx, dy = w-1-x, y
			case 3:
				dx, dy = w-1-x, h-1-y
			case 4:
				dx, dy = x, h-1-y
			case 5:
				dx, dy = y, x
			case 6:
				dx, dy = h-1-y, x
			case 7:
				dx, dy = h-1-y, w-1-x
			case 8:
				dx, dy = y, w-1-x
			}
			si := m.PixOffset(b.Min.X+x, b.Min.Y+y)
			di := out.PixOffset(dx, dy)
			copy(out.Pix[di:di+4], m.Pix[si:si+4])
		}
	}
	return out
}
