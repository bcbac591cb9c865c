// Package thumbs makes and keeps the file cloud's image thumbnails.
//
// The image code is the Go project's own: the standard library's JPEG, PNG
// and GIF decoders, golang.org/x/image/webp for WebP, and
// golang.org/x/image/draw's Catmull-Rom kernel for the scaling (pinned in
// go.mod). They are maintained with Go itself, are pure Go (no cgo, so the
// one static binary stays), and their DecodeConfig reads only an image's
// header — which is what lets a decompression bomb be refused before a
// single pixel is decoded. libvips or ImageMagick bindings would be faster
// but need cgo and a system library; disintegration/imaging is unmaintained
// since 2020 and is itself a wrapper around the same decoders.
//
// Thumbnails are derived data: a cache regenerated on demand from the
// file's bytes. That is why they live on the local disk under the data
// directory (<data_dir>/thumbs) even when the files themselves are in an
// object store: losing them costs a regeneration, never data, and serving
// them from local disk keeps the lists fast.
//
// The package knows nothing about HTTP or about how files are stored: it
// reads an image through the Opener it is given (Read/Seek/Close only).
package thumbs

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"

	// Decoders registered with package image: what DecodeConfig and Decode read.
	_ "image/gif"
	_ "image/png"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp"
)

// Defaults of Limits.
const (
	// DefaultMaxSide is a thumbnail's longest side in pixels: a list row's
	// picture at twice its CSS size, sharp on high-density screens.
	DefaultMaxSide = 320
	// DefaultMaxPixels refuses images with more pixels than a 50-megapixel
	// camera makes. A PNG of a few KB can announce 100000×100000 pixels (a
	// decompression bomb: 40 GB once decoded).
	DefaultMaxPixels = 50_000_000
	// DefaultMaxDecodedBytes bounds the memory one decoded image may take
	// (pixels × bytes per pixel of its colour model): a 16-bit RGBA PNG
	// under the pixel limit could still need 400 MB.
	DefaultMaxDecodedBytes = 256 << 20
	// Quality is the JPEG quality of a thumbnail.
	Quality = 80
)

// Limits bound the work of one thumbnail.
type Limits struct {
	MaxSide         int
	MaxPixels       int64
	MaxDecodedBytes int64
}

// DefaultLimits are the limits the server runs with.
func DefaultLimits() Limits {
	return Limits{MaxSide: DefaultMaxSide, MaxPixels: DefaultMaxPixels, MaxDecodedBytes: DefaultMaxDecodedBytes}
}

// Why an image gets no thumbnail.
var (
	// ErrTooLarge: the header announces more pixels (or decoded bytes) than
	// the limits allow; nothing was decoded.
	ErrTooLarge = errors.New("image too large to decode")
	// ErrUnsupported: not an image in a format devhub decodes.
	ErrUnsupported = errors.New("not a supported image format")
	// ErrCorrupt: the header is readable but the image is not.
	ErrCorrupt = errors.New("corrupt image")
)

// SupportedTypes are the MIME types a thumbnail is made for.
var SupportedTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true}

// Make reads an image from r and returns its thumbnail as JPEG: at most
// l.MaxSide pixels on the long side (never enlarged), the aspect ratio
// kept, turned upright by the JPEG's EXIF orientation, transparency on
// white. The header is read first and an image over l.MaxPixels or
// l.MaxDecodedBytes is refused (ErrTooLarge) before it is decoded.
func Make(r io.ReadSeeker, l Limits) ([]byte, error) {
	cfg, format, err := image.DecodeConfig(bufio.NewReader(r))
	if err != nil {
		if errors.Is(err, image.ErrFormat) {
			return nil, ErrUnsupported
		}
		return nil, fmt.Errorf("%w: header: %v", ErrCorrupt, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, fmt.Errorf("%w: %d×%d pixels", ErrCorrupt, cfg.Width, cfg.Height)
	}
	pixels := int64(cfg.Width) * int64(cfg.Height)
	if l.MaxPixels > 0 && pixels > l.MaxPixels {
		return nil, fmt.Errorf("%w: %d×%d pixels, the limit is %d", ErrTooLarge, cfg.Width, cfg.Height, l.MaxPixels)
	}
	if need := pixels * bytesPerPixel(cfg.ColorModel); l.MaxDecodedBytes > 0 && need > l.MaxDecodedBytes {
		return nil, fmt.Errorf("%w: %d×%d pixels need %d bytes decoded, the limit is %d", ErrTooLarge,
			cfg.Width, cfg.Height, need, l.MaxDecodedBytes)
	}
	orient := 1
	if format == "jpeg" {
		if _, err := r.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		orient = exifOrientation(io.LimitReader(r, exifScanBytes))
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	src, _, err := image.Decode(bufio.NewReader(r))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	sb := src.Bounds()
	if sb.Dx() != cfg.Width || sb.Dy() != cfg.Height {
		return nil, fmt.Errorf("%w: header says %d×%d, image is %d×%d", ErrCorrupt, cfg.Width, cfg.Height, sb.Dx(), sb.Dy())
	}
	w, h := fit(sb.Dx(), sb.Dy(), l.MaxSide)
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(dst, dst.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, sb, draw.Over, nil)
	out := orientImage(dst, orient)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, out, &jpeg.Options{Quality: Quality}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// fit scales w×h so that its longer side is at most maxSide, keeping the
// ratio (rounded, at least one pixel); smaller images keep their size.
func fit(w, h, maxSide int) (int, int) {
	if maxSide <= 0 || (w <= maxSide && h <= maxSide) {
		return w, h
	}
	if w >= h {
		return maxSide, max(1, int((int64(h)*int64(maxSide)+int64(w)/2)/int64(w)))
	}
	return max(1, int((int64(w)*int64(maxSide)+int64(h)/2)/int64(h))), maxSide
}

// bytesPerPixel is what one pixel of the colour model takes once decoded.
func bytesPerPixel(m color.Model) int64 {
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.RGBA64Model, color.NRGBA64Model:
		return 8
	case color.YCbCrModel:
		return 3 // at most (4:4:4); 4:2:0 takes half
	case color.CMYKModel, color.RGBAModel, color.NRGBAModel:
		return 4
	}
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	return 4
}
