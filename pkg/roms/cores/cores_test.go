package cores

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func TestLoad(t *testing.T) {
	builtin := fstest.MapFS{
		"fceumm/fceumm_libretro.js":     {Data: []byte("export default import.meta.url")},
		"fceumm/fceumm_libretro.js.br":  {Data: []byte("br")},
		"fceumm/fceumm_libretro.wasm":   {Data: []byte("\x00asm")},
		"fceumm/license.txt":            {Data: []byte("GPL")},
		"fceumm/.stamp":                 {Data: []byte("x")},
		"fceumm/manifest.json":          {Data: []byte(`{"version":"4.2.3","licence":"GPL-2.0"}`)},
		"snes9x/snes9x_libretro.js":     {Data: []byte("builtin snes9x")},
		"snes9x/snes9x_libretro.wasm":   {Data: []byte("\x00asm")},
		"nowasm/nowasm_libretro.js":     {Data: []byte("js only")},
		".hidden/.hidden_libretro.js":   {Data: []byte("x")},
		".hidden/.hidden_libretro.wasm": {Data: []byte("x")},
	}
	extra := t.TempDir()
	for name, body := range map[string]string{
		"snes9x/snes9x_libretro.js":   "var EJS_Runtime = 1;",
		"snes9x/snes9x_libretro.wasm": "\x00asm extra",
	} {
		p := filepath.Join(extra, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cat, err := Load(builtin, extra)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cat.List() {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, " "); got != "fceumm snes9x" {
		t.Fatalf("cores = %q", got)
	}
	fc, sn := cat.List()[0], cat.List()[1]
	if fc.Version != "4.2.3" || fc.Licence != "GPL-2.0" || fc.LicenceFile != "/cores/fceumm/license.txt" || fc.Extra ||
		strings.Join(fc.Aliases, ",") != "nes" || !strings.HasPrefix(fc.JS, "/cores/fceumm/fceumm_libretro.js?v=") {
		t.Errorf("fceumm = %+v", fc)
	}
	if !sn.Extra || sn.Licence != "see licence file" || sn.LicenceFile != "" || strings.Join(sn.Aliases, ",") != "snes" {
		t.Errorf("snes9x = %+v", sn)
	}
	read := func(p, variant string) string {
		t.Helper()
		f, ok := cat.File(p)
		if !ok {
			t.Fatalf("no file %s", p)
		}
		r, err := f.Open(variant)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		b, _ := io.ReadAll(r)
		return string(b)
	}
	// The extra core replaced the built-in one, and its JS is adapted.
	if got, want := read("snes9x/snes9x_libretro.js", ""), "var EJS_Runtime = 1;\n// devhub: served for Nostalgist, which expects an ES module build (import.meta.url)\nvar snes9x = EJS_Runtime;\n"; got != want {
		t.Errorf("adapted js = %q, want %q", got, want)
	}
	if f, _ := cat.File("snes9x/snes9x_libretro.js"); f.Bytes() == nil || int(f.Size) != len(f.Bytes()) || !strings.Contains(sn.JS, "?v="+f.Hash[:12]) {
		t.Errorf("adapted file = %+v, index %s", f, sn.JS)
	}
	// A module build is left alone and keeps its variants.
	if got := read("fceumm/fceumm_libretro.js", ""); got != "export default import.meta.url" {
		t.Errorf("fceumm js = %q", got)
	}
	if f, _ := cat.File("fceumm/fceumm_libretro.js"); f.BrSize != 2 || f.GzSize != 0 || read("fceumm/fceumm_libretro.js", ".br") != "br" {
		t.Errorf("variants: %+v", f)
	}
	for _, p := range []string{"fceumm/.stamp", "fceumm/fceumm_libretro.js.br", "nowasm/nowasm_libretro.js", "../x", "fceumm/manifest.json.gz"} {
		if _, ok := cat.File(p); ok {
			t.Errorf("%s is a file of the catalog", p)
		}
	}
}

func TestLoadMissingExtraDir(t *testing.T) {
	cat, err := Load(nil, filepath.Join(t.TempDir(), "none"))
	if err != nil || len(cat.List()) != 0 {
		t.Fatalf("Load = %v, %v", cat, err)
	}
}
