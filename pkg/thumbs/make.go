// Package thumbs makes and keeps the file cloud's image thumbnails.
//
// The image code is the Go project's own: the standard library's JPEG, PNG
// and GIF decoders, golang.org/x/image/webp for WebP, and
// golang.org/x/image/draw's Catmull-Rom kernel for the scaling (pinned in
// go.mod). They are maintained with Go itself, are pure Go (no cgo, so the
// one static binary stays), and their DecodeConfig reads only an image's
// header — which is what lets a decompression bomb, or an image whose
// decoding would take more memory than a thumbnail may (Estimate), be
// refused before a single pixel is decoded. libvips or ImageMagick bindings would be faster
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
	"runtime/debug"

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
	// DefaultMaxMemory is the memory one thumbnail may take to make, as
	// Estimate reckons it from the image's header: with what a process
	// has besides (the Go runtime, its own buffers), the peak stays under
	// 256 MiB, which `make bench` measures for each format at this limit.
	// It is what refuses, say, a progressive JPEG of 7000×7000 (15 bytes
	// per pixel while decoding: 773 MiB with the scaling), or a 16-bit PNG
	// of 30 megapixels.
	DefaultMaxMemory = 224 << 20
	// Quality is the JPEG quality of a thumbnail.
	Quality = 80
)

// Limits bound the work of one thumbnail.
type Limits struct {
	MaxSide   int
	MaxPixels int64
	// MaxMemory bounds Cost.Bytes: what decoding and scaling the image
	// allocate, estimated before decoding it.
	MaxMemory int64
}

// DefaultLimits are the limits the server runs with.
func DefaultLimits() Limits {
	return Limits{MaxSide: DefaultMaxSide, MaxPixels: DefaultMaxPixels, MaxMemory: DefaultMaxMemory}
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

// releaseAbove is the cost from which Make hands the memory it took back
// to the operating system when it is done (as argon2id's is after a
// sign-in): a server that made one large thumbnail should not keep its
// hundreds of MiB until the runtime's scavenger gets round to them, and the
// next thumbnail should start from a collected heap, not on top of this
// one's garbage.
const releaseAbove = 32 << 20

// Make reads an image from r and returns its thumbnail as JPEG: at most
// l.MaxSide pixels on the long side (never enlarged), the aspect ratio
// kept, turned upright by the JPEG's EXIF orientation, transparency on
// white. The header is read first and an image over l.MaxPixels, or whose
// Estimate is over l.MaxMemory, is refused (ErrTooLarge) before a pixel is
// decoded.
func Make(r io.ReadSeeker, l Limits) ([]byte, error) {
	return within(r, l, l.MaxSide, nil, func(cfg image.Config, format string) ([]byte, error) {
		return makeThumb(r, cfg, format, l)
	})
}

// within reads r's header and refuses, before a pixel is decoded, an image
// over l.MaxPixels, one that check refuses (when set), and one whose
// Estimate scaled to side is over l.MaxMemory (ErrTooLarge); then it runs
// scale, and hands a large cost's memory back to the operating system
// after it.
func within(r io.ReadSeeker, l Limits, side int, check func(image.Config) error, scale func(image.Config, string) ([]byte, error)) ([]byte, error) {
	cfg, format, err := decodeConfig(r)
	if err != nil {
		return nil, err
	}
	pixels := int64(cfg.Width) * int64(cfg.Height)
	if l.MaxPixels > 0 && pixels > l.MaxPixels {
		return nil, fmt.Errorf("%w: %d×%d pixels, the limit is %d", ErrTooLarge, cfg.Width, cfg.Height, l.MaxPixels)
	}
	if check != nil {
		if err := check(cfg); err != nil {
			return nil, err
		}
	}
	cost, err := estimate(r, cfg, format, side)
	if err != nil {
		return nil, err
	}
	if l.MaxMemory > 0 && cost.Bytes > l.MaxMemory {
		return nil, fmt.Errorf("%w: %s %s of %d×%d needs %d MiB to decode and scale, the limit is %d MiB", ErrTooLarge,
			cost.Layout, cost.Format, cost.Width, cost.Height, mib(cost.Bytes), mib(l.MaxMemory))
	}
	data, err := scale(cfg, format)
	if cost.Bytes >= releaseAbove {
		debug.FreeOSMemory()
	}
	return data, err
}

// mib is n bytes in MiB, rounded up.
func mib(n int64) int64 { return (n + 1<<20 - 1) >> 20 }

// makeThumb decodes, scales and encodes the image once it is accepted. What
// it allocates is garbage when it returns.
func makeThumb(r io.ReadSeeker, cfg image.Config, format string, l Limits) ([]byte, error) {
	src, orient, err := decodeImage(r, cfg, format)
	if err != nil {
		return nil, err
	}
	sb := src.Bounds()
	w, h := fit(sb.Dx(), sb.Dy(), l.MaxSide)
	return encodeScaled(src, sb, w, h, orient)
}

// decodeImage decodes r, whose header said cfg, with its EXIF orientation
// when it is a JPEG (1 otherwise); pixels that do not match the header are
// ErrCorrupt.
func decodeImage(r io.ReadSeeker, cfg image.Config, format string) (image.Image, int, error) {
	orient := 1
	if format == "jpeg" {
		if _, err := r.Seek(0, io.SeekStart); err != nil {
			return nil, 0, err
		}
		orient = exifOrientation(io.LimitReader(r, exifScanBytes))
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, 0, err
	}
	src, _, err := image.Decode(bufio.NewReader(r))
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	sb := src.Bounds()
	if sb.Dx() != cfg.Width || sb.Dy() != cfg.Height {
		return nil, 0, fmt.Errorf("%w: header says %d×%d, image is %d×%d", ErrCorrupt, cfg.Width, cfg.Height, sb.Dx(), sb.Dy())
	}
	return src, orient, nil
}

// encodeScaled scales the part from of src to w×h on white, turns it
// upright by orient and encodes it as JPEG.
func encodeScaled(src image.Image, from image.Rectangle, w, h, orient int) ([]byte, error) {
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(dst, dst.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, from, draw.Over, nil)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, orientImage(dst, orient), &jpeg.Options{Quality: Quality}); err != nil {
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
