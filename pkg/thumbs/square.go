package thumbs

import (
	"bufio"
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"runtime/debug"

	"golang.org/x/image/draw"
)

// MinSquareSide is the smallest source side Square accepts: a smaller
// picture would only be blown up into a blur.
const MinSquareSide = 32

// Square reads an image from r and returns the largest centred square of it
// (after turning it upright by its EXIF orientation), scaled to side×side
// pixels, as JPEG: what an avatar is. The same rules as Make bound it
// before a pixel is decoded — l.MaxPixels and l.MaxMemory by the header
// (a decompression bomb is ErrTooLarge) — and an image whose shorter side
// is under MinSquareSide is ErrTooSmall.
func Square(r io.ReadSeeker, side int, l Limits) ([]byte, error) {
	cfg, format, err := decodeConfig(r)
	if err != nil {
		return nil, err
	}
	pixels := int64(cfg.Width) * int64(cfg.Height)
	if l.MaxPixels > 0 && pixels > l.MaxPixels {
		return nil, fmt.Errorf("%w: %d×%d pixels, the limit is %d", ErrTooLarge, cfg.Width, cfg.Height, l.MaxPixels)
	}
	if min(cfg.Width, cfg.Height) < MinSquareSide {
		return nil, fmt.Errorf("%w: %d×%d pixels, each side must be at least %d", ErrTooSmall, cfg.Width, cfg.Height, MinSquareSide)
	}
	cost, err := estimate(r, cfg, format, side)
	if err != nil {
		return nil, err
	}
	if l.MaxMemory > 0 && cost.Bytes > l.MaxMemory {
		return nil, fmt.Errorf("%w: %s %s of %d×%d needs %d MiB to decode and scale, the limit is %d MiB", ErrTooLarge,
			cost.Layout, cost.Format, cost.Width, cost.Height, mib(cost.Bytes), mib(l.MaxMemory))
	}
	data, err := makeSquare(r, cfg, format, side)
	if cost.Bytes >= releaseAbove {
		debug.FreeOSMemory()
	}
	return data, err
}

// ErrTooSmall: the image is smaller than the least a square is cut from.
var ErrTooSmall = fmt.Errorf("image too small")

func makeSquare(r io.ReadSeeker, cfg image.Config, format string, side int) ([]byte, error) {
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
	// The centred square of the source; turning a square upright keeps it
	// square and centred, so the orientation is applied after scaling.
	n := min(sb.Dx(), sb.Dy())
	crop := image.Rect(sb.Min.X+(sb.Dx()-n)/2, sb.Min.Y+(sb.Dy()-n)/2, 0, 0)
	crop.Max = crop.Min.Add(image.Pt(n, n))
	side = min(side, n)
	dst := image.NewRGBA(image.Rect(0, 0, side, side))
	draw.Draw(dst, dst.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, crop, draw.Over, nil)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, orientImage(dst, orient), &jpeg.Options{Quality: Quality}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
