package server

import (
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

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/roms"
)

// coreCatalog is the set of emulator cores this server offers under
// /cores/: the ones built into the binary (site/scripts/fetch-cores.mjs →
// site/cores/dist, embedded with the embedsite tag) and the ones the owner put in
// config `emulator.extra_cores_dir` (same layout: <core>/<core>_libretro.js,
// <core>_libretro.wasm, license.txt; read at start-up, so a restart picks
// up a new core without rebuilding). An extra core of the same name
// replaces the built-in one.
//
// Core files never change under a URL the index hands out: the index adds
// ?v=<content hash>, so the files are cached immutably.
type coreCatalog struct {
	cores map[string]*coreInfo
	files map[string]*coreFile // by path below /cores/, e.g. "fceumm/fceumm_libretro.js"
}

// coreInfo is one core as /cores/index.json describes it.
type coreInfo struct {
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

type coreFile struct {
	fsys        fs.FS
	name        string // in fsys
	data        []byte // set when the file is served from memory (an adapted JS)
	size        int64
	gz, br      int64 // sizes of the .gz/.br variants beside it; 0 when absent
	etag        string
	contentType string
}

// coreManifest is site/cores/dist/<core>/manifest.json as the build step writes it.
type coreManifest struct {
	Name       string            `json:"name"`
	Version    string            `json:"version"`
	Licence    string            `json:"licence"`
	Source     string            `json:"source"`
	Extensions []string          `json:"extensions"`
	SHA256     map[string]string `json:"sha256"`
}

func loadCores(builtin fs.FS, extraDir string) (*coreCatalog, error) {
	cat := &coreCatalog{cores: map[string]*coreInfo{}, files: map[string]*coreFile{}}
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
		// The root stays open for the life of the process: its fs.FS
		// serves the extra cores' files and cannot leave the directory.
		if err := cat.add(root.FS(), true); err != nil {
			return nil, fmt.Errorf("emulator.extra_cores_dir: %w", err)
		}
	}
	return cat, nil
}

// add registers every core folder of fsys.
func (cat *coreCatalog) add(fsys fs.FS, extra bool) error {
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
		var man coreManifest
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
			cf, err := loadCoreFile(fsys, path.Join(name, fn), man.SHA256[fn])
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
		info := &coreInfo{
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

func loadCoreFile(fsys fs.FS, name, sum string) (*coreFile, error) {
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	cf := &coreFile{fsys: fsys, name: name, size: fi.Size(), contentType: contentTypeOf(name)}
	if fi, err := fs.Stat(fsys, name+".gz"); err == nil {
		cf.gz = fi.Size()
	}
	if fi, err := fs.Stat(fsys, name+".br"); err == nil {
		cf.br = fi.Size()
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
	cf.etag = `"` + sum[:min(24, len(sum))] + `"`
	return cf, nil
}

// adaptJS applies the Nostalgist adaptation (see
// shared/notes/emulator-offline.md) to a core JS that lacks it: Nostalgist
// runs core JS as a module factory only when it mentions import.meta.url,
// and calls the factory named after the core.
func (cf *coreFile) adaptJS(core string) error {
	raw, err := fs.ReadFile(cf.fsys, cf.name)
	if err != nil {
		return err
	}
	if strings.Contains(string(raw), "import.meta.url") {
		return nil
	}
	raw = append(raw, []byte("\n// devhub: served for Nostalgist, which expects an ES module build (import.meta.url)\nvar "+core+" = EJS_Runtime;\n")...)
	sum := sha256.Sum256(raw)
	cf.data, cf.size, cf.gz, cf.br = raw, int64(len(raw)), 0, 0
	cf.etag = `"` + hex.EncodeToString(sum[:12]) + `"`
	return nil
}

func (cf *coreFile) version() string { return strings.Trim(cf.etag, `"`)[:12] }

// index answers /cores/index.json: which cores this server has and the URLs
// of their files.
func (cat *coreCatalog) index(c fiber.Ctx) error {
	names := make([]string, 0, len(cat.cores))
	for n := range cat.cores {
		names = append(names, n)
	}
	slices.Sort(names)
	list := make([]*coreInfo, len(names))
	for i, n := range names {
		list[i] = cat.cores[n]
	}
	c.Set(fiber.HeaderAccessControlAllowOrigin, "*")
	c.Set(fiber.HeaderCacheControl, cacheNoCache)
	return c.JSON(fiber.Map{"cores": list})
}

// file serves one core file, precompressed when the client accepts it.
func (cat *coreCatalog) file(c fiber.Ctx) error {
	cf, ok := cat.files[c.Params("+")]
	if !ok {
		return NewError(fiber.StatusNotFound, "no such core file")
	}
	c.Set(fiber.HeaderAccessControlAllowOrigin, "*")
	ct := content{contentType: cf.contentType, cacheControl: cacheImmutable, etag: cf.etag, identity: cf.payload(cf.name, cf.size)}
	if cf.data != nil {
		ct.identity = memory(cf.data)
	}
	var br, gz payload
	if cf.br > 0 {
		br, ct.br = cf.payload(cf.name+".br", cf.br), &br
	}
	if cf.gz > 0 {
		gz, ct.gz = cf.payload(cf.name+".gz", cf.gz), &gz
	}
	return sendContent(c, &ct)
}

// payload is one of the core file's encodings, opened when it is sent.
func (cf *coreFile) payload(name string, size int64) payload {
	return payload{size: size, open: func() (io.ReadCloser, error) { return cf.fsys.Open(name) }}
}
