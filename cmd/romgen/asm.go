package main

import (
	"fmt"
)

// asm is a tiny two-pass 6502 assembler: instructions are methods that
// append bytes, labels are resolved when the program is linked. It knows
// only the opcodes the ROMs here use; the 65816 ROM for the SNES runs in
// emulation mode, where these encodings are the same.
type asm struct {
	org    int
	code   []byte
	labels map[string]int
	fixups []fixup
}

type fixup struct {
	at    int // offset in code
	label string
	kind  byte // 'r' relative branch, 'a' absolute (16-bit), 'l' low byte, 'h' high byte
}

func newAsm(org int) *asm { return &asm{org: org, labels: map[string]int{}} }

func (a *asm) pc() int { return a.org + len(a.code) }

// L defines a label at the current address.
func (a *asm) L(name string) {
	if _, dup := a.labels[name]; dup {
		panic("duplicate label " + name)
	}
	a.labels[name] = a.pc()
}

func (a *asm) b(bs ...byte) { a.code = append(a.code, bs...) }

func (a *asm) w(v int) { a.b(byte(v), byte(v>>8)) }

func (a *asm) ref(label string, kind byte) {
	a.fixups = append(a.fixups, fixup{at: len(a.code), label: label, kind: kind})
	switch kind {
	case 'a':
		a.w(0)
	default:
		a.b(0)
	}
}

// link resolves labels and returns the code.
func (a *asm) link() []byte {
	for _, f := range a.fixups {
		target, ok := a.labels[f.label]
		if !ok {
			panic("undefined label " + f.label)
		}
		switch f.kind {
		case 'r':
			d := target - (a.org + f.at + 1)
			if d < -128 || d > 127 {
				panic(fmt.Sprintf("branch to %s out of range (%d)", f.label, d))
			}
			a.code[f.at] = byte(int8(d))
		case 'a':
			a.code[f.at] = byte(target)
			a.code[f.at+1] = byte(target >> 8)
		case 'l':
			a.code[f.at] = byte(target)
		case 'h':
			a.code[f.at] = byte(target >> 8)
		}
	}
	return a.code
}

// Addr returns a label's address after link.
func (a *asm) Addr(label string) int { return a.labels[label] }

// Implied and accumulator instructions.
func (a *asm) SEI() { a.b(0x78) }
func (a *asm) CLD() { a.b(0xD8) }
func (a *asm) CLC() { a.b(0x18) }
func (a *asm) SEC() { a.b(0x38) }
func (a *asm) TXS() { a.b(0x9A) }
func (a *asm) TAX() { a.b(0xAA) }
func (a *asm) TXA() { a.b(0x8A) }
func (a *asm) INX() { a.b(0xE8) }
func (a *asm) DEX() { a.b(0xCA) }
func (a *asm) DEY() { a.b(0x88) }
func (a *asm) PHA() { a.b(0x48) }
func (a *asm) PLA() { a.b(0x68) }
func (a *asm) RTS() { a.b(0x60) }
func (a *asm) RTI() { a.b(0x40) }
func (a *asm) ASL() { a.b(0x0A) }
func (a *asm) LSR() { a.b(0x4A) }

// Immediate.
func (a *asm) LDAi(v int) { a.b(0xA9, byte(v)) }
func (a *asm) LDXi(v int) { a.b(0xA2, byte(v)) }
func (a *asm) LDYi(v int) { a.b(0xA0, byte(v)) }
func (a *asm) CMPi(v int) { a.b(0xC9, byte(v)) }
func (a *asm) CPXi(v int) { a.b(0xE0, byte(v)) }
func (a *asm) ANDi(v int) { a.b(0x29, byte(v)) }
func (a *asm) EORi(v int) { a.b(0x49, byte(v)) }
func (a *asm) ADCi(v int) { a.b(0x69, byte(v)) }

// Zero page.
func (a *asm) LDAz(z int)  { a.b(0xA5, byte(z)) }
func (a *asm) STAz(z int)  { a.b(0x85, byte(z)) }
func (a *asm) ADCz(z int)  { a.b(0x65, byte(z)) }
func (a *asm) SBCz(z int)  { a.b(0xE5, byte(z)) }
func (a *asm) INCz(z int)  { a.b(0xE6, byte(z)) }
func (a *asm) ROLz(z int)  { a.b(0x26, byte(z)) }
func (a *asm) STAzx(z int) { a.b(0x95, byte(z)) }

// Absolute.
func (a *asm) LDAa(v int)  { a.b(0xAD); a.w(v) }
func (a *asm) STAa(v int)  { a.b(0x8D); a.w(v) }
func (a *asm) STXa(v int)  { a.b(0x8E); a.w(v) }
func (a *asm) BITa(v int)  { a.b(0x2C); a.w(v) }
func (a *asm) STAax(v int) { a.b(0x9D); a.w(v) }

// LDAlx loads from a labelled table indexed by X.
func (a *asm) LDAlx(label string) { a.b(0xBD); a.ref(label, 'a') }

// Jumps and branches to labels.
func (a *asm) JMP(label string) { a.b(0x4C); a.ref(label, 'a') }
func (a *asm) JSR(label string) { a.b(0x20); a.ref(label, 'a') }
func (a *asm) BNE(label string) { a.b(0xD0); a.ref(label, 'r') }
func (a *asm) BEQ(label string) { a.b(0xF0); a.ref(label, 'r') }
func (a *asm) BPL(label string) { a.b(0x10); a.ref(label, 'r') }
func (a *asm) BCC(label string) { a.b(0x90); a.ref(label, 'r') }
func (a *asm) BCS(label string) { a.b(0xB0); a.ref(label, 'r') }
