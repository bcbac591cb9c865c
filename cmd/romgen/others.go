package main

// Colour test ROMs for the other shipped cores. Each one only turns the
// screen a known colour and loops: enough to show that the core, the ROM
// service and the player work end to end.

// snesROM is a 32 KiB LoROM: forced blank, CGRAM colour 0 = red, screen on.
func snesROM() []byte {
	rom := make([]byte, 0x8000)
	a := newAsm(0x8000)
	a.L("reset")
	a.SEI()
	a.CLC()
	a.LDAi(0x8F) // forced blank, full brightness
	a.STAa(0x2100)
	a.LDAi(0x00)
	a.STAa(0x2121) // CGRAM address 0
	a.LDAi(0x1F)   // BGR555 0x001F: red
	a.STAa(0x2122)
	a.LDAi(0x00)
	a.STAa(0x2122)
	a.STAa(0x212C) // no layers: the backdrop (colour 0) fills the screen
	a.STAa(0x212D)
	a.STAa(0x4200) // no NMI, no IRQ
	a.LDAi(0x0F)   // screen on, full brightness
	a.STAa(0x2100)
	a.L("loop")
	a.JMP("loop")
	a.L("vector")
	a.RTI()
	copy(rom, a.link())

	header := rom[0x7FC0:]
	copy(header, []byte("DEVHUB COLOUR TEST   ")) // 21 bytes
	header[0x15] = 0x20                           // LoROM
	header[0x16] = 0x00                           // ROM only
	header[0x17] = 0x05                           // 2^5 KiB = 32 KiB
	header[0x18] = 0x00                           // no SRAM
	header[0x19] = 0x01                           // North America
	header[0x1A] = 0x00
	header[0x1B] = 0x00
	header[0x1C], header[0x1D], header[0x1E], header[0x1F] = 0xFF, 0xFF, 0x00, 0x00
	put := func(at, v int) { rom[at-0x8000] = byte(v); rom[at-0x8000+1] = byte(v >> 8) }
	for _, v := range []int{0xFFE4, 0xFFE6, 0xFFE8, 0xFFEA, 0xFFEE, 0xFFF4, 0xFFF8, 0xFFFA, 0xFFFE} {
		put(v, a.Addr("vector"))
	}
	put(0xFFFC, a.Addr("reset"))
	sum := 0
	for _, b := range rom {
		sum += int(b)
	}
	sum &= 0xFFFF
	put(0xFFDC, sum^0xFFFF)
	put(0xFFDE, sum)
	return rom
}

// gbROM is a 32 KiB Game Boy ROM (no MBC). With cgb set it is a Game Boy
// Color ROM whose background palette 0 is green (BGR555 0x03E0); on a
// Game Boy it sets BGP to $FF, all black.
func gbROM(cgb bool, title string) []byte {
	rom := make([]byte, 0x8000)
	copy(rom[0x100:], []byte{0x00, 0xC3, 0x50, 0x01}) // nop; jp $0150
	copy(rom[0x134:0x143], []byte(title))
	if cgb {
		rom[0x143] = 0x80
	}
	rom[0x147], rom[0x148], rom[0x149], rom[0x14A] = 0x00, 0x00, 0x00, 0x01
	code := []byte{
		0xF3,             // di
		0x31, 0xFE, 0xFF, // ld sp,$FFFE
		0xF0, 0x44, // wait: ldh a,(LY)
		0xFE, 0x90, //       cp 144
		0x38, 0xFA, //       jr c,wait
		0xAF,       // xor a
		0xE0, 0x40, // ldh (LCDC),a   LCD off
		0x3E, 0xFF, // ld a,$FF
		0xE0, 0x47, // ldh (BGP),a    DMG: every shade black
		0x3E, 0x80, // ld a,$80
		0xE0, 0x68, // ldh (BCPS),a   CGB palette index 0, auto-increment
		0x06, 0x04, // ld b,4
		0x3E, 0xE0, // pal: ld a,$E0
		0xE0, 0x69, //      ldh (BCPD),a
		0x3E, 0x03, //      ld a,$03
		0xE0, 0x69, //      ldh (BCPD),a
		0x05,       //      dec b
		0x20, 0xF5, //      jr nz,pal
		0x21, 0x00, 0x80, // ld hl,$8000
		0x01, 0x00, 0x20, // ld bc,$2000
		0xAF,       // clr: xor a
		0x22,       //      ld (hl+),a
		0x0B,       //      dec bc
		0x78,       //      ld a,b
		0xB1,       //      or c
		0x20, 0xF9, //      jr nz,clr
		0x3E, 0x91, // ld a,$91
		0xE0, 0x40, // ldh (LCDC),a   LCD and background on
		0x76,       // loop: halt
		0x18, 0xFD, //       jr loop
	}
	copy(rom[0x150:], code)
	x := 0
	for i := 0x134; i <= 0x14C; i++ {
		x = x - int(rom[i]) - 1
	}
	rom[0x14D] = byte(x)
	sum := 0
	for i, b := range rom {
		if i != 0x14E && i != 0x14F {
			sum += int(b)
		}
	}
	rom[0x14E], rom[0x14F] = byte(sum>>8), byte(sum)
	return rom
}

// gbaROM is a GBA ROM whose ARM code sets DISPCNT to mode 0 with no
// layers and palette colour 0 to blue (BGR555 0x7C00), so the backdrop is
// blue.
func gbaROM() []byte {
	rom := make([]byte, 0x200)
	le32 := func(at int, v uint32) {
		rom[at], rom[at+1], rom[at+2], rom[at+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
	le32(0, 0xEA00002E) // b 0xC0
	copy(rom[0xA0:], []byte("DEVHUBCOLOUR"))
	copy(rom[0xAC:], []byte("CDHE"))
	copy(rom[0xB0:], []byte("00"))
	rom[0xB2] = 0x96
	chk := 0
	for i := 0xA0; i <= 0xBC; i++ {
		chk -= int(rom[i])
	}
	rom[0xBD] = byte(chk - 0x19)
	for i, w := range []uint32{
		0xE3A00301, // mov r0,#0x04000000  (DISPCNT)
		0xE3A01000, // mov r1,#0
		0xE1C010B0, // strh r1,[r0]
		0xE3A00405, // mov r0,#0x05000000  (palette RAM)
		0xE3A01C7C, // mov r1,#0x7C00      (blue)
		0xE1C010B0, // strh r1,[r0]
		0xEAFFFFFE, // loop: b loop
	} {
		le32(0xC0+4*i, w)
	}
	return rom
}

// mdROM is a 64 KiB Mega Drive ROM: TMSS handshake, display on, CRAM
// colour 0 magenta (0x0E0E) as the background colour.
func mdROM() []byte {
	rom := make([]byte, 0x10000)
	be16 := func(at int, v uint16) { rom[at], rom[at+1] = byte(v>>8), byte(v) }
	be32 := func(at int, v uint32) { be16(at, uint16(v>>16)); be16(at+2, uint16(v)) }
	const entry, handler = 0x200, 0x300
	be32(0, 0x00FFFE00) // initial stack pointer
	be32(4, entry)      // reset
	for v := 8; v < 0x100; v += 4 {
		be32(v, handler)
	}
	copy(rom[0x100:], []byte("SEGA MEGA DRIVE "))
	copy(rom[0x110:], []byte("(C)DEVH 2026.NOV"))
	title := []byte("DEVHUB COLOUR TEST                              ") // 48 bytes
	copy(rom[0x120:], title)
	copy(rom[0x150:], title)
	copy(rom[0x180:], []byte("GM 00000000-00"))
	copy(rom[0x190:], []byte("J               "))
	be32(0x1A0, 0)
	be32(0x1A4, uint32(len(rom)-1))
	be32(0x1A8, 0x00FF0000)
	be32(0x1AC, 0x00FFFFFF)
	copy(rom[0x1B0:], []byte("            "))
	copy(rom[0x1F0:], []byte("JUE             "))
	code := []uint16{
		0x46FC, 0x2700, // move #$2700,sr
		0x1039, 0x00A1, 0x0001, // move.b $A10001,d0
		0x0200, 0x000F, // andi.b #$0F,d0
		0x670A,                                 // beq.s +10
		0x23FC, 0x5345, 0x4741, 0x00A1, 0x4000, // move.l #'SEGA',$A14000
		0x3039, 0x00C0, 0x0004, // move.w $C00004,d0  (reset the VDP's pending state)
		0x33FC, 0x8004, 0x00C0, 0x0004, // reg 0
		0x33FC, 0x8144, 0x00C0, 0x0004, // reg 1: display on, mode 5
		0x33FC, 0x8700, 0x00C0, 0x0004, // reg 7: background = palette 0 colour 0
		0x33FC, 0x8F02, 0x00C0, 0x0004, // reg 15: auto-increment 2
		0x23FC, 0xC000, 0x0000, 0x00C0, 0x0004, // CRAM write, address 0
		0x33FC, 0x0E0E, 0x00C0, 0x0000, // colour 0: magenta
		0x60FE, // loop: bra.s loop
	}
	for i, w := range code {
		be16(entry+2*i, w)
	}
	be16(handler, 0x4E73) // rte
	var sum uint16
	for i := 0x200; i < len(rom); i += 2 {
		sum += uint16(rom[i])<<8 | uint16(rom[i+1])
	}
	be16(0x18E, sum)
	return rom
}
