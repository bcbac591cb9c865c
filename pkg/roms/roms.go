package roms

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/freespace"
	"github.com/devhub/devhub/pkg/internal/paging"
	"github.com/devhub/devhub/pkg/internal/text"
	"github.com/devhub/devhub/pkg/store"
)

// Buckets: one record per ROM keyed by its path relative to roms/ (so a
// rescan finds the same record, and the same id, for the same file), and a
// small meta bucket with the list of console folders (so empty folders are
// listed before the next scan).
var (
	bucketRoms = []byte("roms")
	bucketMeta = []byte("roms_meta")
	keyFolders = []byte("folders")
)

// Paging of the games list (spec: games page size 100): a limit above
// MaxLimit is capped, a page or limit below 1 is the default.
const (
	DefaultLimit = 100
	MaxLimit     = 500
)

var gamesRule = paging.Rule{Default: DefaultLimit, Max: MaxLimit, Over: paging.Cap}

// Game is one ROM as the games page sees it. Path and ImagePath start with
// "/" and are relative to the ROM service base: the ROM is /romserv+Path.
type Game struct {
	ID        uint64 `json:"id"`
	Name      string `json:"name"`
	Path      string `json:"path"`
	Console   string `json:"console"`
	HasImage  bool   `json:"hasImage"`
	ImagePath string `json:"imagePath"`
}

// ConsoleStats is a console of the library with its game count.
type ConsoleStats struct {
	Console
	Games int
}

// Query selects one page of a console's games.
type Query struct {
	Page, Limit int
	// Search keeps games whose name contains every word of it, compared
	// with Unicode case folding ("марио" finds "Марио").
	Search string
}

// Page is one page of games and the number of games the query matched,
// with the page and limit it answers (the ROM service's meta).
type Page struct {
	Games []Game
	Total int
	Page  int
	Limit int
}

func newPage(p paging.Page[Game]) Page {
	return Page{Games: p.Items, Total: p.Total, Page: p.Page, Limit: p.Limit}
}

// Skipped is a file or folder a scan did not index, and why.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// ScanReport says what a scan changed.
type ScanReport struct {
	Added   int       `json:"added"`
	Updated int       `json:"updated"`
	Removed int       `json:"removed"`
	Total   int       `json:"total"`
	Skipped []Skipped `json:"skipped"`
}

// record is what the store keeps per ROM.
type record struct {
	ID      uint64 `json:"id"`
	Path    string `json:"path"` // relative to roms/, slash-separated: "nes/game.nes"
	Console string `json:"console"`
	// Name is set only when the owner named the game (rom add --name);
	// otherwise the name comes from the file name.
	Name    string `json:"name,omitempty"`
	Size    int64  `json:"size"`
	ModTime int64  `json:"mtime"`
	Image   string `json:"image,omitempty"` // relative to roms/
}

// Service is the ROM library of one roms/ directory and one store.
type Service struct {
	st   *store.Store
	root string
	// mu serialises scans, adds and removals; readers use the index
	// snapshot in idx without locking.
	mu  sync.Mutex
	idx atomic.Pointer[index]
	// reserve, when set, is the free space ROM writes leave on the disks
	// (UseReserve).
	reserve *freespace.Reserve
}

// UseReserve holds the ROMs and covers written into roms/ (and spooled
// before) to the free-space reserve: an upload whose announced length
// would go below it is refused (CheckSpace), and a copy that would cross it
// stops there, keeping nothing; both are freespace.ErrNoSpace.
func (s *Service) UseReserve(r *freespace.Reserve) { s.reserve = r }

// New opens the library: it creates its buckets and loads the index from the
// store (it does not scan; serve and `rom scan` do).
func New(st *store.Store, romsDir string) (*Service, error) {
	if err := st.EnsureBuckets(string(bucketRoms), string(bucketMeta)); err != nil {
		return nil, err
	}
	s := &Service{st: st, root: romsDir}
	if err := s.reload(); err != nil {
		return nil, err
	}
	return s, nil
}

// Root is the roms/ directory the service scans and the server serves.
func (s *Service) Root() string { return s.root }

// reload rebuilds the in-memory index from the store.
func (s *Service) reload() error {
	return s.st.View(func(tx *bolt.Tx) error {
		recs, folders, err := readAll(tx)
		if err != nil {
			return err
		}
		s.idx.Store(buildIndex(recs, folders))
		return nil
	})
}

func readAll(tx *bolt.Tx) ([]record, []string, error) {
	var recs []record
	err := store.ForEachJSON(tx.Bucket(bucketRoms), func(_ []byte, r *record) error {
		recs = append(recs, *r)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	var folders []string
	if raw := tx.Bucket(bucketMeta).Get(keyFolders); raw != nil {
		if err := json.Unmarshal(raw, &folders); err != nil {
			return nil, nil, fmt.Errorf("decode rom folders: %w", err)
		}
	}
	return recs, folders, nil
}

// found is a ROM file seen on disk by a scan.
type found struct {
	console string
	size    int64
	mtime   int64
	image   string
}

// Scan indexes roms/ into the store: new files get a new id, files already
// known keep theirs (the key is the relative path), removed files disappear,
// files with an extension the console does not run are reported and skipped.
// A cancelled ctx stops the walk between files and changes nothing.
func (s *Service) Scan(ctx context.Context) (ScanReport, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.scanLocked(ctx)
}

func (s *Service) scanLocked(ctx context.Context) (ScanReport, error) {
	files, folders, skipped, err := walkRoms(ctx, s.root)
	if err != nil {
		return ScanReport{}, err
	}
	rep := ScanReport{Skipped: skipped}
	var recs []record
	err = s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketRoms)
		var stale [][]byte
		var changed []record
		seen := make(map[string]bool, len(files))
		err := store.ForEachJSON(b, func(k []byte, r *record) error {
			f, ok := files[r.Path]
			if !ok {
				stale = append(stale, append([]byte(nil), k...))
				return nil
			}
			seen[r.Path] = true
			if r.Console != f.console || r.Size != f.size || r.ModTime != f.mtime || r.Image != f.image {
				r.Console, r.Size, r.ModTime, r.Image = f.console, f.size, f.mtime, f.image
				// Writing during ForEach is not allowed; rewrite below.
				changed = append(changed, *r)
			}
			recs = append(recs, *r)
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range stale {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		for _, r := range changed {
			if err := store.PutJSON(b, []byte(r.Path), r); err != nil {
				return err
			}
		}
		rep.Removed, rep.Updated = len(stale), len(changed)
		// New files get ids in path order, so a first scan numbers them
		// as the directory listing reads.
		newPaths := make([]string, 0, len(files)-len(seen))
		for p := range files {
			if !seen[p] {
				newPaths = append(newPaths, p)
			}
		}
		slices.Sort(newPaths)
		for _, p := range newPaths {
			f := files[p]
			id, err := b.NextSequence()
			if err != nil {
				return err
			}
			r := record{ID: id, Path: p, Console: f.console, Size: f.size, ModTime: f.mtime, Image: f.image}
			if err := store.PutJSON(b, []byte(p), r); err != nil {
				return err
			}
			recs = append(recs, r)
		}
		rep.Added = len(newPaths)
		raw, err := json.Marshal(folders)
		if err != nil {
			return err
		}
		return tx.Bucket(bucketMeta).Put(keyFolders, raw)
	})
	if err != nil {
		return ScanReport{}, err
	}
	rep.Total = len(recs)
	s.idx.Store(buildIndex(recs, folders))
	return rep, nil
}

// walkRoms lists roms/: console folders at the top, ROM files anywhere
// below them, covers in <console>/images/. A missing roms/ is an empty
// library, not an error.
func walkRoms(ctx context.Context, root string) (map[string]found, []string, []Skipped, error) {
	files := map[string]found{}
	var folders []string
	var skipped []Skipped
	top, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return files, folders, skipped, nil
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("read roms directory: %w", err)
	}
	for _, e := range top {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		if !e.IsDir() {
			reason := "not inside a console folder"
			if e.Type()&os.ModeSymlink != 0 {
				reason = "symbolic links are not followed"
			}
			skipped = append(skipped, Skipped{Path: name, Reason: reason})
			continue
		}
		con, ok := consoleForFolder(name)
		if !ok {
			skipped = append(skipped, Skipped{Path: name, Reason: "folder name is not a console id (lower-case letters, digits, - and _)"})
			continue
		}
		folders = append(folders, name)
		if err := walkConsole(ctx, root, name, con, files, &skipped); err != nil {
			return nil, nil, nil, err
		}
	}
	return files, folders, skipped, nil
}

func walkConsole(ctx context.Context, root, folder string, con Console, files map[string]found, skipped *[]Skipped) error {
	dir := filepath.Join(root, folder)
	images := map[string]string{} // rom base name → cover path relative to roms/
	if ents, err := os.ReadDir(filepath.Join(dir, "images")); err == nil {
		for _, e := range ents {
			if !e.Type().IsRegular() {
				continue
			}
			ext := strings.ToLower(path.Ext(e.Name()))
			rank := slices.Index(imageExtensions, ext)
			if rank < 0 {
				continue
			}
			base := strings.TrimSuffix(e.Name(), path.Ext(e.Name()))
			if prev, ok := images[base]; ok && slices.Index(imageExtensions, strings.ToLower(path.Ext(prev))) <= rank {
				continue
			}
			images[base] = folder + "/images/" + e.Name()
		}
	}
	return filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("scan %s: %w", p, err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if p == dir {
			return nil
		}
		name := d.Name()
		if strings.HasPrefix(name, ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if rel == folder+"/images" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			*skipped = append(*skipped, Skipped{Path: rel, Reason: "not a regular file (symbolic links are not followed)"})
			return nil
		}
		if !con.accepts(name) {
			*skipped = append(*skipped, Skipped{Path: rel, Reason: fmt.Sprintf("unknown extension %q for console %s", path.Ext(name), con.ID)})
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return fmt.Errorf("scan %s: %w", p, err)
		}
		files[rel] = found{
			console: con.ID,
			size:    info.Size(),
			mtime:   info.ModTime().UnixNano(),
			image:   images[strings.TrimSuffix(name, path.Ext(name))],
		}
		return nil
	})
}

// Consoles lists the library's consoles: every console folder of roms/
// (aliases merged into their console), in the table's order, then unknown
// folders by name.
func (s *Service) Consoles() []ConsoleStats {
	return slices.Clone(s.idx.Load().consoles)
}

// Console returns one console of the library, or store.ErrNotFound.
func (s *Service) Console(id string) (ConsoleStats, error) {
	for _, c := range s.idx.Load().consoles {
		if c.ID == id {
			return c, nil
		}
	}
	return ConsoleStats{}, store.ErrNotFound
}

// Games returns one page of a console's games sorted by name; an unknown
// console is store.ErrNotFound.
func (s *Service) Games(consoleID string, q Query) (Page, error) {
	idx := s.idx.Load()
	if _, ok := idx.consoleSet[consoleID]; !ok {
		return Page{}, store.ErrNotFound
	}
	pq, _ := gamesRule.Normalize(paging.Query{Page: q.Page, Limit: q.Limit}) // lenient: never refuses
	all := idx.byConsole[consoleID]
	game := func(e *entry) Game { return e.game }
	words := text.Words(q.Search)
	if len(words) == 0 {
		return newPage(paging.Map(all, pq, game)), nil
	}
	// Relevance first, as in the blog: names that hold the search as a
	// phrase of whole words, then the other names holding every word; by
	// name inside each (the list is already in name order).
	var phrase, rest []*entry
	for _, e := range all {
		if !text.ContainsAll(e.fold, words) {
			continue
		}
		if text.PhraseIn(words, e.words) {
			phrase = append(phrase, e)
		} else {
			rest = append(rest, e)
		}
	}
	return newPage(paging.Map(append(phrase, rest...), pq, game)), nil
}

// All lists every game (of one console when consoleID is not empty), by
// console then name: the CLI's `rom list`.
func (s *Service) All(consoleID string) ([]Game, error) {
	idx := s.idx.Load()
	out := []Game{}
	for _, c := range idx.consoles {
		if consoleID != "" && c.ID != consoleID {
			continue
		}
		for _, e := range idx.byConsole[c.ID] {
			out = append(out, e.game)
		}
	}
	if consoleID != "" {
		if _, ok := idx.consoleSet[consoleID]; !ok {
			return nil, store.ErrNotFound
		}
	}
	return out, nil
}

// Get returns one game by id, or store.ErrNotFound.
func (s *Service) Get(id uint64) (Game, error) {
	if e, ok := s.idx.Load().byID[id]; ok {
		return e.game, nil
	}
	return Game{}, store.ErrNotFound
}

// AddInput describes a ROM to copy into the library.
type AddInput struct {
	// Source is the ROM file to copy.
	Source string
	// Console is a console id or alias from the table.
	Console string
	// Name overrides the name taken from the file name.
	Name string
	// Image is an optional cover (png, jpg or webp) copied to
	// <console>/images/<rom base name>.<ext>.
	Image string
	// Replace puts the ROM in place of a ROM file of the same name (its
	// record, id and display name stay, unless Name is given).
	Replace bool
}

// Add copies a ROM (and its cover) into roms/<console>/ and indexes it. A
// ROM of the same file name already there is an *ExistsError
// (store.ErrConflict) unless in.Replace is set. A cancelled
// ctx changes nothing; once the copy is made, the index is brought up to
// date regardless.
func (s *Service) Add(ctx context.Context, in AddInput) (Game, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return Game{}, err
	}
	var v store.Validator
	con, ok := LookupConsole(in.Console)
	switch {
	case strings.TrimSpace(in.Console) == "":
		v.Add("console", "required", "console is required")
	case !ok:
		ids := make([]string, len(consoleTable))
		for i, c := range consoleTable {
			ids[i] = c.ID
		}
		v.Add("console", "invalid", fmt.Sprintf("unknown console %q; known: %s", in.Console, strings.Join(ids, ", ")))
	}
	base := filepath.Base(in.Source)
	if fi, err := os.Stat(in.Source); err != nil {
		v.Add("file", "invalid", fmt.Sprintf("cannot read %s: %v", in.Source, err))
	} else if !fi.Mode().IsRegular() {
		v.Add("file", "invalid", in.Source+" is not a regular file")
	} else if ok && !con.accepts(base) {
		v.Add("file", "invalid", fmt.Sprintf("%s does not run %q files (it runs %s)", con.Name, path.Ext(base), strings.Join(con.Extensions, " ")))
	} else if strings.HasPrefix(base, ".") {
		v.Add("file", "invalid", "hidden files are not indexed")
	}
	imgExt := strings.ToLower(filepath.Ext(in.Image))
	if in.Image != "" {
		if !slices.Contains(imageExtensions, imgExt) {
			v.Add("image", "invalid", "the cover must be a .png, .jpg or .webp file")
		} else if fi, err := os.Stat(in.Image); err != nil || !fi.Mode().IsRegular() {
			v.Add("image", "invalid", "cannot read "+in.Image)
		}
	}
	if len([]rune(in.Name)) > 200 {
		v.Add("name", "too_long", "name must be at most 200 characters")
	}
	if err := v.Err(); err != nil {
		return Game{}, err
	}
	dir := filepath.Join(s.root, con.ID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Game{}, err
	}
	dest := filepath.Join(dir, base)
	copyROM := s.copyNew
	if in.Replace {
		copyROM = s.copyOver
	}
	if err := copyROM(in.Source, dest); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return Game{}, &ExistsError{Console: con.ID, FileName: base}
		}
		return Game{}, err
	}
	romBase := strings.TrimSuffix(base, filepath.Ext(base))
	if in.Image != "" {
		imgDir := filepath.Join(dir, "images")
		if err := os.MkdirAll(imgDir, 0o755); err != nil {
			return Game{}, err
		}
		for _, ext := range imageExtensions {
			_ = os.Remove(filepath.Join(imgDir, romBase+ext))
		}
		if err := s.copyNew(in.Image, filepath.Join(imgDir, romBase+imgExt)); err != nil {
			return Game{}, err
		}
	}
	if _, err := s.scanLocked(context.WithoutCancel(ctx)); err != nil {
		return Game{}, err
	}
	rel := con.ID + "/" + base
	if name := strings.TrimSpace(in.Name); name != "" {
		if err := s.setName(rel, name); err != nil {
			return Game{}, err
		}
	}
	for _, e := range s.idx.Load().byConsole[con.ID] {
		if e.rel == rel {
			return e.game, nil
		}
	}
	return Game{}, fmt.Errorf("added %s but the scan did not index it", rel)
}

func (s *Service) setName(rel, name string) error {
	err := s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketRoms)
		var r record
		if err := store.GetJSON(b, []byte(rel), &r); err != nil {
			return err
		}
		r.Name = name
		return store.PutJSON(b, []byte(rel), r)
	})
	if err != nil {
		return err
	}
	return s.reload()
}

// copyNew copies src to dest, refusing to replace an existing dest
// (store.ErrConflict, naming dest inside roms/: the message reaches the
// API). The copy is written to a temp file, held to the free-space reserve,
// and linked into place, so a failed copy never leaves a partial ROM
// behind.
func (s *Service) copyNew(src, dest string) error {
	conflict := func() error {
		rel, err := filepath.Rel(s.root, dest)
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = filepath.Base(dest)
		}
		return fmt.Errorf("%w: %s", store.ErrConflict, filepath.ToSlash(rel))
	}
	if _, err := os.Lstat(dest); err == nil {
		return conflict()
	}
	tmp, err := s.copyTemp(src, filepath.Dir(dest))
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, dest); err != nil {
		if errors.Is(err, os.ErrExist) {
			return conflict()
		}
		return err
	}
	return nil
}

// copyOver copies src to dest, replacing a regular file there in one
// rename: a player loading dest meanwhile gets the old bytes or the new,
// never a mix. Anything else at dest (a folder, a link) is
// store.ErrConflict.
func (s *Service) copyOver(src, dest string) error {
	if fi, err := os.Lstat(dest); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%w: %s", store.ErrConflict, filepath.Base(dest))
	}
	tmp, err := s.copyTemp(src, filepath.Dir(dest))
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	return os.Rename(tmp, dest)
}

// copyTemp copies src into a new hidden temp file (mode 0644) in dir, which
// the scan skips, held to the free-space reserve, and answers its path; the
// caller moves it into place and removes it either way.
func (s *Service) copyTemp(src, dir string) (string, error) {
	in, err := os.Open(src)
	if err != nil {
		return "", err
	}
	defer in.Close()
	tmp, err := os.CreateTemp(dir, ".devhub-add-*")
	if err != nil {
		return "", err
	}
	_, err = io.Copy(s.reserve.Writer(tmp, dir), in)
	if err != nil {
		err = freespace.Wrap(err)
	} else {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

// Remove deletes a ROM file from roms/ (and its cover when no other ROM of
// the console uses it) and drops it from the index, so a rescan does not
// bring it back. A cancelled ctx changes nothing; once the file is gone,
// the index is brought up to date regardless.
func (s *Service) Remove(ctx context.Context, id uint64) (Game, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return Game{}, err
	}
	e, ok := s.idx.Load().byID[id]
	if !ok {
		return Game{}, store.ErrNotFound
	}
	root, err := os.OpenRoot(s.root)
	if err != nil {
		return Game{}, err
	}
	defer root.Close()
	if err := root.Remove(filepath.FromSlash(e.rel)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return Game{}, fmt.Errorf("remove %s: %w", e.rel, err)
	}
	if e.image != "" {
		shared := false
		for _, o := range s.idx.Load().byConsole[e.game.Console] {
			if o.game.ID != id && o.image == e.image {
				shared = true
				break
			}
		}
		if !shared {
			_ = root.Remove(filepath.FromSlash(e.image))
		}
	}
	if _, err := s.scanLocked(context.WithoutCancel(ctx)); err != nil {
		return Game{}, err
	}
	return e.game, nil
}

// index is an immutable snapshot of the library for lock-free reads.
type index struct {
	consoles   []ConsoleStats
	consoleSet map[string]struct{}
	byConsole  map[string][]*entry
	byID       map[uint64]*entry
}

type entry struct {
	game  Game
	fold  string   // folded name for search (text.Fold)
	words []string // fold's words, for the phrase rank
	rel   string
	image string
}

func buildIndex(recs []record, folders []string) *index {
	idx := &index{
		consoleSet: map[string]struct{}{},
		byConsole:  map[string][]*entry{},
		byID:       make(map[uint64]*entry, len(recs)),
	}
	cons := map[string]Console{}
	for _, f := range folders {
		if c, ok := consoleForFolder(f); ok {
			cons[c.ID] = c
		}
	}
	for _, r := range recs {
		c, ok := cons[r.Console]
		if !ok {
			c, _ = consoleForFolder(r.Console)
			if c.ID == "" {
				continue
			}
			cons[c.ID] = c
		}
		name := r.Name
		if name == "" {
			name = nameFromFile(r.Path)
		}
		e := &entry{
			game: Game{ID: r.ID, Name: name, Path: "/" + r.Path, Console: c.ID},
			fold: text.Fold(name),
			rel:  r.Path,
		}
		e.words = strings.Fields(e.fold)
		if r.Image != "" {
			e.image = r.Image
			e.game.HasImage = true
			e.game.ImagePath = "/" + r.Image
		}
		idx.byConsole[c.ID] = append(idx.byConsole[c.ID], e)
		idx.byID[r.ID] = e
	}
	for id, list := range idx.byConsole {
		slices.SortFunc(list, func(a, b *entry) int {
			return cmp.Or(strings.Compare(a.fold, b.fold), strings.Compare(a.rel, b.rel))
		})
		idx.byConsole[id] = list
	}
	for id, c := range cons {
		idx.consoleSet[id] = struct{}{}
		idx.consoles = append(idx.consoles, ConsoleStats{Console: c, Games: len(idx.byConsole[id])})
	}
	slices.SortFunc(idx.consoles, func(a, b ConsoleStats) int {
		ai, aok := consoleByID[a.ID]
		bi, bok := consoleByID[b.ID]
		switch {
		case aok && bok:
			return cmp.Compare(ai, bi)
		case aok:
			return -1
		case bok:
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	return idx
}

// nameFromFile makes a display name from a ROM's file name: no folder, no
// extension, underscores as spaces.
func nameFromFile(rel string) string {
	base := path.Base(rel)
	base = strings.TrimSuffix(base, path.Ext(base))
	return strings.TrimSpace(strings.ReplaceAll(base, "_", " "))
}
