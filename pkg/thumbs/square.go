package thumbs

import (
	"fmt"
	"image"
	"io"
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
	tooSmall := func(cfg image.Config) error {
		if min(cfg.Width, cfg.Height) < MinSquareSide {
			return fmt.Errorf("%w: %d×%d pixels, each side must be at least %d", ErrTooSmall, cfg.Width, cfg.Height, MinSquareSide)
		}
		return nil
	}
	return within(r, l, side, tooSmall, func(cfg image.Config, format string) ([]byte, error) {
		return makeSquare(r, cfg, format, side)
	})
}

// ErrTooSmall: the image is smaller than the least a square is cut from.
var ErrTooSmall = fmt.Errorf("image too small")

func makeSquare(r io.ReadSeeker, cfg image.Config, format string, side int) ([]byte, error) {
	src, orient, err := decodeImage(r, cfg, format)
	if err != nil {
		return nil, err
	}
	// The centred square of the source; turning a square upright keeps it
	// square and centred, so the orientation is applied after scaling.
	sb := src.Bounds()
	n := min(sb.Dx(), sb.Dy())
	crop := image.Rect(sb.Min.X+(sb.Dx()-n)/2, sb.Min.Y+(sb.Dy()-n)/2, 0, 0)
	crop.Max = crop.Min.Add(image.Pt(n, n))
	side = min(side, n)
	return encodeScaled(src, crop, side, side, orient)
}
