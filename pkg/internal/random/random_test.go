package random

import (
	"encoding/base64"
	"encoding/hex"
	"testing"
)

func TestTokens(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 100; i++ {
		tok, hx := Token(32), Hex(16)
		if b, err := base64.RawURLEncoding.DecodeString(tok); err != nil || len(b) != 32 {
			t.Fatalf("Token(32) = %q: %d bytes, %v", tok, len(b), err)
		}
		if b, err := hex.DecodeString(hx); err != nil || len(b) != 16 {
			t.Fatalf("Hex(16) = %q: %d bytes, %v", hx, len(b), err)
		}
		if seen[tok] || seen[hx] {
			t.Fatal("a token repeated")
		}
		seen[tok], seen[hx] = true, true
	}
	if len(Bytes(0)) != 0 || len(Token(0)) != 0 {
		t.Error("n = 0 must give nothing")
	}
}
