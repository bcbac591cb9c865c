package blog

import (
	"math/bits"
	"unicode"
	"unicode/utf8"
)

// bloom is a one-hash Bloom filter over the 1-, 2- and 3-rune sequences of
// a folded text (sequences with white space are left out: search terms
// never contain any). If a term occurs in the text, all of the term's
// sequences are in the filter; so a missing one proves the term absent. It
// is sized at about two bits per rune of text (at least 512, at most 2^17
// bits), which keeps false positives for a 3-letter sequence near one in
// five and for a whole word far lower, at a quarter of the text's size.
type bloom struct {
	words []uint64
	shift uint8 // 64 - log2(number of bits)
}

const (
	bloomMinBits = 9
	bloomMaxBits = 17
)

func newBloom(text string) bloom {
	n := utf8.RuneCountInString(text) * 2
	lg := bits.Len(uint(n))
	lg = max(bloomMinBits, min(bloomMaxBits, lg))
	b := bloom{words: make([]uint64, (1<<lg)/64), shift: uint8(64 - lg)}
	var r1, r2 rune = -1, -1 // the two runes before the current one (-1: none)
	for _, r := range text {
		if unicode.IsSpace(r) {
			r1, r2 = -1, -1
			continue
		}
		b.add(gramHash(r, -1, -1))
		if r1 >= 0 {
			b.add(gramHash(r1, r, -1))
			if r2 >= 0 {
				b.add(gramHash(r2, r1, r))
			}
		}
		r2, r1 = r1, r
	}
	return b
}

func (b *bloom) add(h uint64) {
	i := h >> b.shift
	b.words[i/64] |= 1 << (i % 64)
}

func (b *bloom) mayContain(hashes []uint64) bool {
	for _, h := range hashes {
		i := h >> b.shift
		if b.words[i/64]&(1<<(i%64)) == 0 {
			return false
		}
	}
	return true
}

// gramHash maps a sequence of up to three runes (-1 for absent) to a
// well-mixed 64-bit value; the filter uses its top bits.
func gramHash(a, b, c rune) uint64 {
	k := uint64(a&0x1fffff)<<42 | uint64(b&0x1fffff)<<21 | uint64(c&0x1fffff)
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}

// termHashes are the sequences a term's filter test needs: its trigrams,
// or for shorter terms the term itself as one sequence.
func termHashes(term string) []uint64 {
	rs := []rune(term)
	switch len(rs) {
	case 0:
		return nil
	case 1:
		return []uint64{gramHash(rs[0], -1, -1)}
	case 2:
		return []uint64{gramHash(rs[0], rs[1], -1)}
	}
	out := make([]uint64, 0, len(rs)-2)
	for i := 0; i+2 < len(rs); i++ {
		out = append(out, gramHash(rs[i], rs[i+1], rs[i+2]))
	}
	return out
}
