package main

// Coin Catcher — a small NES game written for devhub's default library.
//
// Move the white square with the D-pad and catch the yellow coin; each
// catch adds one to the two-digit score shown top left and the coin jumps
// to a new place. Hold A to run three times as fast: the background turns
// from blue to red while A is held (which is also what the end-to-end test
// looks for). Start resets the score.
//
// Known colours (NES palette indices): background $11 (blue), $16 while A
// is held (red), player $30 (white), coin $28 (yellow).

const (
	nesBgNormal = 0x11
	nesBgBoost  = 0x16
)

// Zero-page variables.
const (
	zNMI     = 0x00 // set by NMI each frame
	zPX      = 0x01 // player x
	zPY      = 0x02 // player y
	zCX      = 0x03 // coin x
	zCY      = 0x04 // coin y
	zTens    = 0x05 // score digits
	zOnes    = 0x06
	zButtons = 0x07 // A B Select Start Up Down Left Right, bit 7 to bit 0
	zRNG     = 0x08
	zSpeed   = 0x09
	zBg      = 0x0A // background colour the NMI writes to $3F00
)

// Tiles of pattern table 0 (sprites and background share it).
const (
	tileBlank  = 0x00
	tilePlayer = 0x01
	tileCoin   = 0x02
	tileDigit0 = 0x10
)

var nesPalette = []byte{
	// background palettes (only the universal colour shows: the screen is tile 0)
	nesBgNormal, 0x30, 0x10, 0x00,
	nesBgNormal, 0x30, 0x10, 0x00,
	nesBgNormal, 0x30, 0x10, 0x00,
	nesBgNormal, 0x30, 0x10, 0x00,
	// sprite palettes: player, coin, digits
	nesBgNormal, 0x30, 0x0F, 0x27,
	nesBgNormal, 0x28, 0x18, 0x38,
	nesBgNormal, 0x30, 0x30, 0x30,
	nesBgNormal, 0x30, 0x30, 0x30,
}

// Tile pictures: one character per pixel, the digit is the colour index.
var tilePlayerArt = []string{
	"11111111",
	"11111111",
	"11211211",
	"11211211",
	"11111111",
	"12111121",
	"11222211",
	"11111111",
}

var tileCoinArt = []string{
	"..1111..",
	".113311.",
	"11311211",
	"11311211",
	"11311211",
	"11311211",
	".112211.",
	"..1111..",
}

// font5x7 has the digits (drawn in tiles) and the letters the cover needs.
var font5x7 = map[rune][]string{
	'0': {".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."},
	'1': {"..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."},
	'2': {".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"},
	'3': {"####.", "....#", "....#", ".###.", "....#", "....#", "####."},
	'4': {"...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."},
	'5': {"#####", "#....", "####.", "....#", "....#", "#...#", ".###."},
	'6': {".###.", "#....", "#....", "####.", "#...#", "#...#", ".###."},
	'7': {"#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."},
	'8': {".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."},
	'9': {".###.", "#...#", "#...#", ".####", "....#", "....#", ".###."},
	'C': {".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."},
	'O': {".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."},
	'I': {".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."},
	'N': {"#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#", "#...#"},
	'A': {".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"},
	'T': {"#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."},
	'H': {"#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"},
	'E': {"#####", "#....", "#....", "####.", "#....", "#....", "#####"},
	'R': {"####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"},
	'S': {".####", "#....", "#....", ".###.", "....#", "....#", "####."},
	'B': {"####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."},
	'D': {"####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####."},
	'G': {".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".###."},
	'M': {"#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"},
	' ': {".....", ".....", ".....", ".....", ".....", ".....", "....."},
}

// digitArt places a 5x7 digit in an 8x8 tile (colour 1).
func digitArt(d rune) []string {
	out := []string{"........"}
	for _, row := range font5x7[d] {
		line := "."
		for _, c := range row {
			if c == '#' {
				line += "1"
			} else {
				line += "."
			}
		}
		out = append(out, line+"..")
	}
	return out
}

// encodeTile turns art into the NES 2bpp format: 8 bytes of bit 0 planes,
// then 8 bytes of bit 1 planes.
func encodeTile(art []string) []byte {
	t := make([]byte, 16)
	for y, row := range art {
		for x, c := range row {
			v := 0
			if c >= '0' && c <= '3' {
				v = int(c - '0')
			}
			if v&1 != 0 {
				t[y] |= 0x80 >> x
			}
			if v&2 != 0 {
				t[8+y] |= 0x80 >> x
			}
		}
	}
	return t
}

func nesCHR() []byte {
	chr := make([]byte, 8192)
	copy(chr[tilePlayer*16:], encodeTile(tilePlayerArt))
	copy(chr[tileCoin*16:], encodeTile(tileCoinArt))
	for d := 0; d < 10; d++ {
		copy(chr[(tileDigit0+d)*16:], encodeTile(digitArt(rune('0'+d))))
	}
	return chr
}

// nesProgram assembles the game's 16 KiB PRG bank at $C000.
func nesProgram() []byte {
	a := newAsm(0xC000)

	a.L("reset")
	a.SEI()
	a.CLD()
	a.LDXi(0x40)
	a.STXa(0x4017) // no APU frame IRQ
	a.LDXi(0xFF)
	a.TXS()
	a.INX()
	a.STXa(0x2000) // NMI off
	a.STXa(0x2001) // rendering off
	a.STXa(0x4010) // no DMC IRQ
	a.BITa(0x2002)
	a.L("vblank1")
	a.BITa(0x2002)
	a.BPL("vblank1")

	// Clear RAM, and fill the OAM buffer at $0200 with $FF (sprites off screen).
	a.LDAi(0)
	a.TAX()
	a.L("clear")
	a.STAzx(0x00)
	a.STAax(0x0100)
	a.STAax(0x0300)
	a.STAax(0x0400)
	a.STAax(0x0500)
	a.STAax(0x0600)
	a.STAax(0x0700)
	a.INX()
	a.BNE("clear")
	a.LDAi(0xFF)
	a.L("clearOAM")
	a.STAax(0x0200)
	a.INX()
	a.BNE("clearOAM")

	a.L("vblank2")
	a.BITa(0x2002)
	a.BPL("vblank2")

	// Palettes.
	a.LDAa(0x2002)
	a.LDAi(0x3F)
	a.STAa(0x2006)
	a.LDAi(0x00)
	a.STAa(0x2006)
	a.LDXi(0)
	a.L("palette")
	a.LDAlx("paletteData")
	a.STAa(0x2007)
	a.INX()
	a.CPXi(32)
	a.BNE("palette")

	// Nametable 0 and its attributes: all tile 0, palette 0.
	a.LDAi(0x20)
	a.STAa(0x2006)
	a.LDAi(0x00)
	a.STAa(0x2006)
	a.LDYi(4)
	a.LDXi(0)
	a.L("nametable")
	a.STAa(0x2007)
	a.INX()
	a.BNE("nametable")
	a.DEY()
	a.BNE("nametable")

	// Game state.
	a.LDAi(120)
	a.STAz(zPX)
	a.LDAi(112)
	a.STAz(zPY)
	a.LDAi(56)
	a.STAz(zCX)
	a.LDAi(64)
	a.STAz(zCY)
	a.LDAi(0x5A)
	a.STAz(zRNG)
	a.LDAi(nesBgNormal)
	a.STAz(zBg)
	a.JSR("drawSprites")

	a.LDAi(0x80) // NMI on, both pattern tables at $0000
	a.STAa(0x2000)
	a.LDAi(0x1E) // show background and sprites, also in the left 8 pixels
	a.STAa(0x2001)

	a.L("main")
	a.LDAz(zNMI)
	a.BEQ("main")
	a.LDAi(0)
	a.STAz(zNMI)
	a.JSR("rand") // the coin's next place depends on when it is caught
	a.JSR("readPad")

	// A: run faster, red background.
	a.LDAi(1)
	a.STAz(zSpeed)
	a.LDAi(nesBgNormal)
	a.STAz(zBg)
	a.LDAz(zButtons)
	a.ANDi(0x80)
	a.BEQ("noA")
	a.LDAi(3)
	a.STAz(zSpeed)
	a.LDAi(nesBgBoost)
	a.STAz(zBg)
	a.L("noA")

	// Start: score back to 00.
	a.LDAz(zButtons)
	a.ANDi(0x10)
	a.BEQ("noStart")
	a.LDAi(0)
	a.STAz(zTens)
	a.STAz(zOnes)
	a.L("noStart")

	a.LDAz(zButtons)
	a.ANDi(0x01)
	a.BEQ("noRight")
	a.LDAz(zPX)
	a.CMPi(240)
	a.BCS("noRight")
	a.CLC()
	a.ADCz(zSpeed)
	a.STAz(zPX)
	a.L("noRight")

	a.LDAz(zButtons)
	a.ANDi(0x02)
	a.BEQ("noLeft")
	a.LDAz(zPX)
	a.CMPi(4)
	a.BCC("noLeft")
	a.SEC()
	a.SBCz(zSpeed)
	a.STAz(zPX)
	a.L("noLeft")

	a.LDAz(zButtons)
	a.ANDi(0x08)
	a.BEQ("noUp")
	a.LDAz(zPY)
	a.CMPi(24)
	a.BCC("noUp")
	a.SEC()
	a.SBCz(zSpeed)
	a.STAz(zPY)
	a.L("noUp")

	a.LDAz(zButtons)
	a.ANDi(0x04)
	a.BEQ("noDown")
	a.LDAz(zPY)
	a.CMPi(208)
	a.BCS("noDown")
	a.CLC()
	a.ADCz(zSpeed)
	a.STAz(zPY)
	a.L("noDown")

	// Caught when |px-cx| < 8 and |py-cy| < 8.
	a.LDAz(zPX)
	a.SEC()
	a.SBCz(zCX)
	a.BCS("dxPositive")
	a.EORi(0xFF)
	a.CLC()
	a.ADCi(1)
	a.L("dxPositive")
	a.CMPi(8)
	a.BCS("noCatch")
	a.LDAz(zPY)
	a.SEC()
	a.SBCz(zCY)
	a.BCS("dyPositive")
	a.EORi(0xFF)
	a.CLC()
	a.ADCi(1)
	a.L("dyPositive")
	a.CMPi(8)
	a.BCS("noCatch")

	a.INCz(zOnes)
	a.LDAz(zOnes)
	a.CMPi(10)
	a.BNE("moveCoin")
	a.LDAi(0)
	a.STAz(zOnes)
	a.INCz(zTens)
	a.LDAz(zTens)
	a.CMPi(10)
	a.BNE("moveCoin")
	a.LDAi(0)
	a.STAz(zTens)
	a.L("moveCoin")
	a.JSR("rand")
	a.ANDi(0xDF)
	a.CLC()
	a.ADCi(16)
	a.STAz(zCX)
	a.JSR("rand")
	a.ANDi(0x9F)
	a.CLC()
	a.ADCi(40)
	a.STAz(zCY)
	a.L("noCatch")

	a.JSR("drawSprites")
	a.JMP("main")

	// drawSprites fills the OAM buffer: player, coin, two score digits.
	a.L("drawSprites")
	a.LDAz(zPY)
	a.STAa(0x0200)
	a.LDAi(tilePlayer)
	a.STAa(0x0201)
	a.LDAi(0)
	a.STAa(0x0202)
	a.LDAz(zPX)
	a.STAa(0x0203)
	a.LDAz(zCY)
	a.STAa(0x0204)
	a.LDAi(tileCoin)
	a.STAa(0x0205)
	a.LDAi(1)
	a.STAa(0x0206)
	a.LDAz(zCX)
	a.STAa(0x0207)
	a.LDAi(16)
	a.STAa(0x0208)
	a.STAa(0x020C)
	a.STAa(0x020B)
	a.LDAz(zTens)
	a.CLC()
	a.ADCi(tileDigit0)
	a.STAa(0x0209)
	a.LDAz(zOnes)
	a.CLC()
	a.ADCi(tileDigit0)
	a.STAa(0x020D)
	a.LDAi(2)
	a.STAa(0x020A)
	a.STAa(0x020E)
	a.LDAi(24)
	a.STAa(0x020F)
	a.RTS()

	// readPad reads controller 1 into zButtons (A in bit 7 … Right in bit 0).
	a.L("readPad")
	a.LDAi(1)
	a.STAa(0x4016)
	a.LDAi(0)
	a.STAa(0x4016)
	a.LDXi(8)
	a.L("readPadBit")
	a.LDAa(0x4016)
	a.LSR()
	a.ROLz(zButtons)
	a.DEX()
	a.BNE("readPadBit")
	a.RTS()

	// rand steps an 8-bit Galois LFSR and returns it in A.
	a.L("rand")
	a.LDAz(zRNG)
	a.ASL()
	a.BCC("randNoEor")
	a.EORi(0x1D)
	a.L("randNoEor")
	a.STAz(zRNG)
	a.RTS()

	// NMI: sprite DMA, the background colour, scroll reset, frame flag.
	a.L("nmi")
	a.PHA()
	a.TXA()
	a.PHA()
	a.LDAi(0x00)
	a.STAa(0x2003)
	a.LDAi(0x02)
	a.STAa(0x4014)
	a.LDAa(0x2002)
	a.LDAi(0x3F)
	a.STAa(0x2006)
	a.LDAi(0x00)
	a.STAa(0x2006)
	a.LDAz(zBg)
	a.STAa(0x2007)
	a.LDAi(0x80)
	a.STAa(0x2000)
	a.LDAi(0)
	a.STAa(0x2005)
	a.STAa(0x2005)
	a.INCz(zNMI)
	a.PLA()
	a.TAX()
	a.PLA()
	a.L("irq")
	a.RTI()

	a.L("paletteData")
	a.b(nesPalette...)

	code := a.link()
	prg := make([]byte, 16384)
	copy(prg, code)
	if len(code) > 16384-6 {
		panic("NES program too large")
	}
	put := func(at, v int) { prg[at-0xC000] = byte(v); prg[at-0xC000+1] = byte(v >> 8) }
	put(0xFFFA, a.Addr("nmi"))
	put(0xFFFC, a.Addr("reset"))
	put(0xFFFE, a.Addr("irq"))
	return prg
}

// nesROM is the iNES file: header, 16 KiB PRG, 8 KiB CHR, mapper 0.
func nesROM() []byte {
	rom := []byte{'N', 'E', 'S', 0x1A, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	rom = append(rom, nesProgram()...)
	return append(rom, nesCHR()...)
}
