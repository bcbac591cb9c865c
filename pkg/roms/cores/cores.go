// Package cores is the catalog of emulator cores the games area offers: the
// ones built into the binary (site/scripts/fetch-cores.mjs → site/cores/dist,
// embedded with the embedsite tag) and the ones the owner put in config
// `emulator.extra_cores_dir` (same layout: <core>/<core>_libretro.js,
// <core>_libretro.wasm, license.txt; read at start-up, so a restart picks up
// a new core without rebuilding). An extra core of the same name replaces the
// built-in one.
//
// It knows what a core is (its manifest, its licence, the spec's names for
// what it runs, the JS adaptation the player needs) and nothing of HTTP:
// pkg/server serves the catalog under /cores/.
package cores

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/devhub/devhub/pkg/roms"
)

// Catalog is the set of installed cores and their files.
type Catalog struct {
	cores map[string]*Info
	files map[string]*File // by path below the cores folder, e.g. "fceumm/fceumm_libretro.js"
}

// Info is one core as /cores/index.json describes it. The URLs of its files
// carry ?v=<content hash>, so a file never changes under a URL the index
// hands out and can be cached immutably.
type Info struct {
	Name        string   `json:"name"`
	Version     string   `json:"version"`
	Licence     string   `json:"licence"`
	LicenceFile string   `json:"licenceFile"`
	Source      string   `json:"source,omitempty"`
	Extensions  []string `json:"extensions,omitempty"`
	JS          string   `json:"js"`
	Wasm        string   `json:"wasm"`
	// Extra is true for a core from emulator.extra_cores_dir.
	Extra bool `json:"extra"`
	// Aliases are the hub spec's core names this core runs (roms.SpecCoreNames:
	// nes for fceumm), which the player accepts as well as Name.
	Aliases []string `json:"aliases,omitempty"`
}

// File is one file of a core.
type File struct {
	fsys fs.FS
	name string // in fsys
	data []byte // set when the file is held in memory (an adapted JS)
	// Size is the file's size; GzSize and BrSize those of the .gz/.br
	// variants beside it, 0 when there is none.
	Size, GzSize, BrSize int64
	// Hash identifies the bytes: 24 hex digits of their SHA-256.
	Hash string
}

// manifest is site/cores/dist/<core>/manifest.json as the build step writes it.
type manifest struct {
	Name       string            `json:"name"`
	Version    string            `json:"version"`
	Licence    string            `json:"licence"`
	Source     string            `json:"source"`
	Extensions []string          `json:"extensions"`
	SHA256     map[string]string `json:"sha256"`
}

// Load reads the built-in cores (nil: none) and then the ones in extraDir
// (empty or missing: none). An extra directory is opened through os.Root,
// which stays open for the life of the process: its files cannot be reached
// from outside it.
func Load(builtin fs.FS, extraDir string) (*Catalog, error) {
	cat := &Catalog{cores: map[string]*Info{}, files: map[string]*File{}}
	if builtin != nil {
		if err := cat.add(builtin, false); err != nil {
			return nil, err
		}
	}
	if extraDir != "" {
		root, err := os.OpenRoot(extraDir)
		if errors.Is(err, os.ErrNotExist) {
			return cat, nil
		}
		if err != nil {
			return nil, err
		}
		if err := cat.add(root.FS(), true); err != nil {
			return nil, fmt.Errorf("emulator.extra_cores_dir: %w", err)
		}
	}
	return cat, nil
}

// List returns the installed cores by name.
func (cat *Catalog) List() []*Info {
	names := make([]string, 0, len(cat.cores))
	for n := range cat.cores {
		names = append(names, n)
	}
	slices.Sort(names)
	list := make([]*Info, len(names))
	for i, n := range names {
		list[i] = cat.cores[n]
	}
	return list
}

// File returns one core file by its path below the cores folder
// ("fceumm/fceumm_libretro.js"). Hidden files and the .gz/.br variants are
// not files of their own.
func (cat *Catalog) File(p string) (*File, bool) {
	f, ok := cat.files[p]
	return f, ok
}

// add registers every core folder of fsys.
func (cat *Catalog) add(fsys fs.FS, extra bool) error {
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	for _, e := range ents {
		name := e.Name()
		if !e.IsDir() || strings.HasPrefix(name, ".") {
			continue
		}
		jsName, wasmName := name+"_libretro.js", name+"_libretro.wasm"
		if _, err := fs.Stat(fsys, path.Join(name, jsName)); err != nil {
			continue
		}
		if _, err := fs.Stat(fsys, path.Join(name, wasmName)); err != nil {
			continue
		}
		var man manifest
		if raw, err := fs.ReadFile(fsys, path.Join(name, "manifest.json")); err == nil {
			if err := json.Unmarshal(raw, &man); err != nil {
				return fmt.Errorf("%s/manifest.json: %w", name, err)
			}
		}
		// Replace a core of the same name entirely.
		for p := range cat.files {
			if strings.HasPrefix(p, name+"/") {
				delete(cat.files, p)
			}
		}
		files, err := fs.ReadDir(fsys, name)
		if err != nil {
			return err
		}
		for _, f := range files {
			fn := f.Name()
			if !f.Type().IsRegular() || strings.HasPrefix(fn, ".") || strings.HasSuffix(fn, ".gz") || strings.HasSuffix(fn, ".br") {
				continue
			}
			cf, err := loadFile(fsys, path.Join(name, fn), man.SHA256[fn])
			if err != nil {
				return err
			}
			if fn == jsName && extra {
				if err := cf.adaptJS(name); err != nil {
					return err
				}
			}
			cat.files[name+"/"+fn] = cf
		}
		info := &Info{
			Name: name, Version: man.Version, Licence: man.Licence, Source: man.Source, Extensions: man.Extensions,
			JS:      "/cores/" + name + "/" + jsName + "?v=" + cat.files[name+"/"+jsName].version(),
			Wasm:    "/cores/" + name + "/" + wasmName + "?v=" + cat.files[name+"/"+wasmName].version(),
			Extra:   extra,
			Aliases: roms.SpecCoreNames(name),
		}
		if _, ok := cat.files[name+"/license.txt"]; ok {
			info.LicenceFile = "/cores/" + name + "/license.txt"
		}
		if info.Licence == "" {
			info.Licence = "see licence file"
		}
		cat.cores[name] = info
	}
	return nil
}

func loadFile(fsys fs.FS, name, sum string) (*File, error) {
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	cf := &File{fsys: fsys, name: name, Size: fi.Size()}
	if fi, err := fs.Stat(fsys, name+".gz"); err == nil {
		cf.GzSize = fi.Size()
	}
	if fi, err := fs.Stat(fsys, name+".br"); err == nil {
		cf.BrSize = fi.Size()
	}
	if sum == "" {
		h := sha256.New()
		f, err := fsys.Open(name)
		if err != nil {
			return nil, err
		}
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return nil, err
		}
		sum = hex.EncodeToString(h.Sum(nil))
	}
	cf.Hash = sum[:min(24, len(sum))]
	return cf, nil
}

// adaptJS applies the Nostalgist adaptation (see
// shared/notes/emulator-offline.md) to a core JS that lacks it: Nostalgist
// runs core JS as a module factory only when it mentions import.meta.url,
// and calls the factory named after the core.
func (cf *File) adaptJS(core string) error {
	raw, err := fs.ReadFile(cf.fsys, cf.name)
	if err != nil {
		return err
	}
	if strings.Contains(string(raw), "import.meta.url") {
		return nil
	}
	raw = append(raw, []byte("\n// devhub: served for Nostalgist, which expects an ES module build (import.meta.url)\nvar "+core+" = EJS_Runtime;\n")...)
	sum := sha256.Sum256(raw)
	cf.data, cf.Size, cf.GzSize, cf.BrSize = raw, int64(len(raw)), 0, 0
	cf.Hash = hex.EncodeToString(sum[:12])
	return nil
}

func (cf *File) version() string { return cf.Hash[:12] }

// Name is the file's name with its core folder ("fceumm/fceumm_libretro.js").
func (cf *File) Name() string { return cf.name }

// Bytes returns the file when it is held in memory (an adapted JS), else nil.
func (cf *File) Bytes() []byte { return cf.data }

// Open opens the file ("") or one of its precompressed variants (".gz",
// ".br"); a file held in memory has no variants.
func (cf *File) Open(variant string) (io.ReadCloser, error) {
	if cf.data != nil {
		if variant != "" {
			return nil, fs.ErrNotExist
		}
		return io.NopCloser(bytes.NewReader(cf.data)), nil
	}
	return cf.fsys.Open(cf.name + variant)
}
