// Command romgen writes the homebrew ROMs devhub ships in roms/ and their
// cover images: Coin Catcher, a small NES game (nes.go), and colour test
// ROMs for the SNES, Game Boy, Game Boy Color, GBA and Mega Drive cores
// (others.go). Everything is assembled here from source, so the library
// holds no third-party ROM.
//
//	go run ./cmd/romgen            # writes into ./roms
//	go run ./cmd/romgen -out DIR
package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log"
	"os"
	"path/filepath"
)

func main() {
	out := flag.String("out", "roms", "the roms directory to write into")
	flag.Parse()
	files := romFiles()
	for rel, data := range files {
		p := filepath.Join(*out, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-40s %6d bytes\n", rel, len(data))
	}
}

// romFiles is every file romgen writes, by path relative to roms/. The
// output is deterministic: TestShippedROMsMatchTheSource checks that roms/
// holds exactly this.
func romFiles() map[string][]byte {
	return map[string][]byte{
		"nes/Coin_Catcher.nes":                nesROM(),
		"nes/images/Coin_Catcher.png":         encodePNG(nesCover()),
		"snes/Colour_Test_SNES.sfc":           snesROM(),
		"snes/images/Colour_Test_SNES.png":    encodePNG(labelCover("SNES", color.RGBA{0xF8, 0x00, 0x00, 0xFF})),
		"gb/Colour_Test_GB.gb":                gbROM(false, "DEVHUB GB"),
		"gb/images/Colour_Test_GB.png":        encodePNG(labelCover("GB", color.RGBA{0x10, 0x10, 0x10, 0xFF})),
		"gbc/Colour_Test_GBC.gbc":             gbROM(true, "DEVHUB GBC"),
		"gbc/images/Colour_Test_GBC.png":      encodePNG(labelCover("GBC", color.RGBA{0x00, 0xF8, 0x00, 0xFF})),
		"gba/Colour_Test_GBA.gba":             gbaROM(),
		"gba/images/Colour_Test_GBA.png":      encodePNG(labelCover("GBA", color.RGBA{0x00, 0x00, 0xF8, 0xFF})),
		"megadrive/Colour_Test_MD.md":         mdROM(),
		"megadrive/images/Colour_Test_MD.png": encodePNG(labelCover("MD", color.RGBA{0xE0, 0x00, 0xE0, 0xFF})),
	}
}

func encodePNG(img image.Image) []byte {
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&b, img); err != nil {
		log.Fatal(err)
	}
	return b.Bytes()
}

// Approximate RGB of the NES colours the game uses.
var nesRGB = map[byte]color.RGBA{
	0x0F: {0x00, 0x00, 0x00, 0xFF},
	0x11: {0x00, 0x58, 0xF8, 0xFF},
	0x16: {0xF8, 0x38, 0x00, 0xFF},
	0x18: {0xAC, 0x7C, 0x00, 0xFF},
	0x27: {0xFC, 0xA0, 0x44, 0xFF},
	0x28: {0xF8, 0xB8, 0x00, 0xFF},
	0x30: {0xFC, 0xFC, 0xFC, 0xFF},
	0x38: {0xF8, 0xD8, 0x78, 0xFF},
}

func fill(img *image.RGBA, c color.RGBA) {
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
}

func rect(img *image.RGBA, x, y, w, h int, c color.RGBA) {
	for yy := y; yy < y+h; yy++ {
		for xx := x; xx < x+w; xx++ {
			img.SetRGBA(xx, yy, c)
		}
	}
}

// drawArt draws tile art (colour digits) scaled by s using pal[1..3].
func drawArt(img *image.RGBA, art []string, x, y, s int, pal [4]color.RGBA) {
	for r, row := range art {
		for col, ch := range row {
			if ch >= '1' && ch <= '3' {
				rect(img, x+col*s, y+r*s, s, s, pal[ch-'0'])
			}
		}
	}
}

// drawText writes text in the 5x7 font, scaled by s, centred on cx.
func drawText(img *image.RGBA, text string, cx, y, s int, c color.RGBA) {
	w := len(text)*6*s - s
	x := cx - w/2
	for _, r := range text {
		for row, line := range font5x7[r] {
			for col, ch := range line {
				if ch == '#' {
					rect(img, x+col*s, y+row*s, s, s, c)
				}
			}
		}
		x += 6 * s
	}
}

// nesCover is the game's box art: its own sprites on its own background.
func nesCover() image.Image {
	img := image.NewRGBA(image.Rect(0, 0, 512, 480))
	fill(img, nesRGB[0x11])
	drawText(img, "COIN", 256, 48, 10, nesRGB[0x30])
	drawText(img, "CATCHER", 256, 140, 10, nesRGB[0x28])
	player := [4]color.RGBA{{}, nesRGB[0x30], nesRGB[0x0F], nesRGB[0x27]}
	coin := [4]color.RGBA{{}, nesRGB[0x28], nesRGB[0x18], nesRGB[0x38]}
	drawArt(img, tilePlayerArt, 110, 270, 14, player)
	drawArt(img, tileCoinArt, 300, 280, 12, coin)
	drawText(img, "00", 256, 410, 5, nesRGB[0x30])
	return img
}

// labelCover is a test ROM's cover: its colour and the console's name.
func labelCover(label string, c color.RGBA) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, 320, 240))
	fill(img, c)
	drawText(img, label, 160, 70, 12, color.RGBA{0xFF, 0xFF, 0xFF, 0xFF})
	return img
}
