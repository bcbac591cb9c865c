// Command thumbrss is `make bench`'s probe of the thumbnails' memory
// (.ci/bench-thumbs.sh): it finds the largest image of a kind that
// pkg/thumbs still accepts, writes source pictures for the encoders, and
// makes one thumbnail in a process of its own, printing that process's
// peak RSS.
//
//	thumbrss limit KIND         the largest 4:3 image of KIND accepted: "W H"
//	thumbrss ppm W H FILE       a W×H photo-like picture as PPM (for cjpeg, cwebp)
//	thumbrss png W H DEPTH FILE the same as an RGBA PNG of 8 or 16 bits (not opaque)
//	thumbrss manytrees FILE     a small lossless WebP that makes the decoder build
//	                            its most Huffman tables (about 200 MiB)
//	thumbrss make FILE          one thumbnail with the server's limits: the verdict,
//	                            the estimate and the peak RSS (VmHWM)
//
// KIND is jpeg-baseline-444, jpeg-baseline-420, jpeg-progressive-444,
// jpeg-progressive-420, png-8, png-16, webp-lossy or webp-lossless.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/devhub/devhub/pkg/thumbs"
	"github.com/devhub/devhub/pkg/thumbs/thumbstest"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "thumbrss:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: thumbrss limit|ppm|png|make ARGS (see the doc comment)")
	}
	num := func(i int) int {
		n, _ := strconv.Atoi(args[i])
		return n
	}
	switch {
	case args[0] == "limit" && len(args) == 2:
		w, h, err := limit(args[1])
		if err == nil {
			fmt.Println(w, h)
		}
		return err
	case args[0] == "ppm" && len(args) == 4:
		return writePPM(num(1), num(2), args[3])
	case args[0] == "png" && len(args) == 5:
		return writePNG(num(1), num(2), num(3), args[4])
	case args[0] == "manytrees" && len(args) == 2:
		return os.WriteFile(args[1], thumbstest.WebPLosslessManyTrees(), 0o644)
	case args[0] == "make" && len(args) == 2:
		return makeOne(args[1])
	}
	return fmt.Errorf("bad arguments: %q", args)
}

// header is the header of a w×h image of kind, what Estimate reads.
func header(kind string, w, h int) ([]byte, error) {
	yuv444, yuv420 := []byte{0x11, 0x11, 0x11}, []byte{0x22, 0x11, 0x11}
	switch kind {
	case "jpeg-baseline-444":
		return thumbstest.JPEGHeader(w, h, thumbstest.JPEG{Sampling: yuv444}), nil
	case "jpeg-baseline-420":
		return thumbstest.JPEGHeader(w, h, thumbstest.JPEG{Sampling: yuv420}), nil
	case "jpeg-progressive-444":
		return thumbstest.JPEGHeader(w, h, thumbstest.JPEG{Progressive: true, Sampling: yuv444}), nil
	case "jpeg-progressive-420":
		return thumbstest.JPEGHeader(w, h, thumbstest.JPEG{Progressive: true, Sampling: yuv420}), nil
	case "png-8":
		return thumbstest.PNGHeader(uint32(w), uint32(h), 8, thumbstest.PNGRGBA, false, false), nil
	case "png-16":
		return thumbstest.PNGHeader(uint32(w), uint32(h), 16, thumbstest.PNGRGBA, false, false), nil
	case "webp-lossy":
		// cwebp -q 80 of a photo takes under 4 bits per pixel.
		return thumbstest.WebPLossyHeader(w, h, thumbstest.NoAlpha, uint32(w*h/2)), nil
	case "webp-lossless":
		return thumbstest.WebPLosslessHeader(w, h), nil
	}
	return nil, fmt.Errorf("unknown kind %q", kind)
}

// limit is the largest 4:3 landscape image of kind the server's limits
// accept (a binary search on its width).
func limit(kind string) (int, int, error) {
	l := thumbs.DefaultLimits()
	maxW := 65535
	if strings.HasPrefix(kind, "webp") {
		maxW = 16383 // VP8's and VP8L's 14-bit sizes
	}
	accepted := func(w int) (bool, error) {
		h := w * 3 / 4
		if int64(w)*int64(h) > l.MaxPixels {
			return false, nil
		}
		hdr, err := header(kind, w, h)
		if err != nil {
			return false, err
		}
		c, err := thumbs.Estimate(bytes.NewReader(hdr), l.MaxSide)
		return c.Bytes <= l.MaxMemory, err
	}
	lo, hi := 4, maxW+1 // lo is accepted, hi is not
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		ok, err := accepted(mid)
		if err != nil {
			return 0, 0, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, lo * 3 / 4, nil
}

// pixel is a photo-like picture: smooth gradients with some grain, so the
// encoders write files of a photo's size, not of a flat colour.
func pixel(x, y int, seed *uint32) (r, g, b uint8) {
	*seed = *seed*1664525 + 1013904223
	n := uint8(*seed>>24) & 15
	return uint8(x/7) + n, uint8(y/5) + n, uint8((x+y)/11) + n
}

func writePPM(w, h int, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintf(bw, "P6\n%d %d\n255\n", w, h)
	var seed uint32 = 1
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			r, g, b := pixel(x, y, &seed)
			bw.Write([]byte{r, g, b})
		}
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writePNG(w, h, depth int, path string) error {
	var m image.Image
	var seed uint32 = 1
	if depth == 16 {
		img := image.NewNRGBA64(image.Rect(0, 0, w, h))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				r, g, b := pixel(x, y, &seed)
				img.SetNRGBA64(x, y, color.NRGBA64{uint16(r) << 8, uint16(g) << 8, uint16(b) << 8, 0xFFFF - uint16(x&1)})
			}
		}
		m = img
	} else {
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				r, g, b := pixel(x, y, &seed)
				img.SetNRGBA(x, y, color.NRGBA{r, g, b, 0xFF - uint8(x&1)})
			}
		}
		m = img
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(f, m); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// makeOne makes path's thumbnail as the server would and prints, on one
// line: accepted or refused, the image's layout and size, the estimate,
// the peak RSS of this process and the time taken.
func makeOne(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	l := thumbs.DefaultLimits()
	c, err := thumbs.Estimate(f, l.MaxSide)
	if err != nil {
		return err
	}
	start := time.Now()
	_, err = thumbs.Make(f, l)
	took := time.Since(start)
	verdict := "accepted"
	if errors.Is(err, thumbs.ErrTooLarge) {
		verdict = "refused"
	} else if err != nil {
		return err
	}
	hwm, err := peakRSS()
	if err != nil {
		return err
	}
	fmt.Printf("%s %s %s %d×%d estimate=%.0fMiB peak_rss=%.0fMiB time=%.2fs\n", verdict, c.Format,
		strings.ReplaceAll(c.Layout, " ", "-"), c.Width, c.Height, float64(c.Bytes)/(1<<20), float64(hwm)/(1<<20), took.Seconds())
	return nil
}

// peakRSS is this process's VmHWM in bytes.
func peakRSS() (int64, error) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmHWM in /proc/self/status")
}
