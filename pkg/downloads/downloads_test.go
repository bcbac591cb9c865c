package downloads

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"testing"
)

func TestCheckFileName(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"setup.exe", true}, {"Гра 1.0.zip", true}, {"..", false}, {".", false}, {"", false},
		{"../x.exe", false}, {`..\x.exe`, false}, {"a/b", false}, {"a\x00b", false}, {"a\nb", false},
		{"a\u202eexe.txt", false}, {" lead", false}, {"c:x", false}, {string(make([]byte, 201)), false},
	} {
		if err := CheckFileName(c.name); (err == nil) != c.ok {
			t.Errorf("%q: %v", c.name, err)
		}
	}
}

func TestKeysAreOwn(t *testing.T) {
	if k := newKey(); !IsKey(k) {
		t.Fatalf("%q", k)
	}
	for _, k := range []string{"0123456789abcdef0123456789abcdef", "dl0123", "dlXYZ3456789abcdef0123456789abcdef", "../dl0123456789abcdef0123456789abcdef"} {
		if IsKey(k) {
			t.Errorf("%q taken for ours", k)
		}
	}
}

func TestStoreFileHashesAndLimits(t *testing.T) {
	s, be := newLocalService(t)
	data := bytes.Repeat([]byte("devhub"), 1000)
	st, err := s.StoreFile(context.Background(), "a.bin", bytes.NewReader(data), 6000)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(data)
	if st.SHA256 != hex.EncodeToString(h[:]) || st.Size != 6000 {
		t.Fatalf("%+v", st)
	}
	if _, err := s.StoreFile(context.Background(), "b.bin", bytes.NewReader(data), 5999); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the limit: %v", err)
	}
	n := 0
	be.List(context.Background(), func(string) error { n++; return nil })
	if n != 1 {
		t.Fatalf("%d objects, want the first file's only", n)
	}
}
