// Package backup writes and restores devhub's backups. A backup is one tar
// stream: a consistent copy of the bbolt store (bbolt's Tx.WriteTo inside one
// read transaction, so writers wait at most for the store's own copy), then
// every file of the site's directories (uploaded files on local storage,
// ROMs, save states, the content directory), then manifest.json with the
// SHA-256 and size of each and the store's schema version.
//
// A restore reads the stream into staging copies beside the live data,
// checks every file against the manifest and the store's schema version
// against this binary's, and only then swaps the staged copies into place;
// the previous data is kept aside until every swap succeeded and put back
// when one fails.
package backup

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
)

// Archive layout.
const (
	// Format names the manifest's kind of archive.
	Format = "devhub-backup"
	// FormatVersion is the layout this binary writes and reads.
	FormatVersion = 1
	// StoreEntry is the store's copy inside the archive.
	StoreEntry = "store/devhub.db"
	// ManifestEntry is the manifest, the archive's last entry.
	ManifestEntry = "manifest.json"
)

// Tree is one directory of the site whose files a backup holds, under Name/
// in the archive.
type Tree struct {
	// Name is the archive folder: uploads, roms, gamestates, content.
	Name string
	// Dir is the directory on disk.
	Dir string
}

// Source is what a backup copies.
type Source struct {
	Store *store.Store
	Trees []Tree
	// Storage is the backend of new uploads (local or s3), recorded in the
	// manifest: files kept on S3 stay there and are not in the archive.
	Storage string
}

// Entry is one file of the archive as the manifest lists it.
type Entry struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Manifest describes an archive; it is its last entry.
type Manifest struct {
	Format        string    `json:"format"`
	Version       int       `json:"version"`
	SchemaVersion int       `json:"schemaVersion"`
	CreatedAt     time.Time `json:"createdAt"`
	Storage       string    `json:"storage,omitempty"`
	Entries       []Entry   `json:"entries"`
}

// Bytes is the total size of the archived files.
func (m *Manifest) Bytes() int64 {
	var n int64
	for _, e := range m.Entries {
		n += e.Size
	}
	return n
}

// skipName tells the files a backup leaves out: hidden names (temp files of
// writes in progress, unfinished resumable uploads, a restore's staging) and
// anything that is not a regular file or a directory.
func skipName(name string) bool { return strings.HasPrefix(name, ".") }

// Write streams a backup of src into w and returns its manifest. The store
// is copied first, in one read transaction; the files after it.
func Write(ctx context.Context, w io.Writer, src Source) (*Manifest, error) {
	tw := tar.NewWriter(w)
	m := &Manifest{Format: Format, Version: FormatVersion, SchemaVersion: store.SchemaVersion,
		CreatedAt: time.Now().UTC().Truncate(time.Second), Storage: src.Storage}
	var err error
	m.SchemaVersion, err = src.Store.SchemaVersionOf()
	if err != nil {
		return nil, fmt.Errorf("backup: read schema version: %w", err)
	}
	err = src.Store.View(func(tx *bolt.Tx) error {
		h := sha256.New()
		size := tx.Size()
		if err := tw.WriteHeader(&tar.Header{Name: StoreEntry, Mode: 0o600, Size: size, ModTime: m.CreatedAt,
			Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
			return err
		}
		n, err := tx.WriteTo(io.MultiWriter(tw, h))
		if err != nil {
			return err
		}
		m.Entries = append(m.Entries, Entry{Path: StoreEntry, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("backup: copy the store: %w", err)
	}
	for _, t := range src.Trees {
		if err := writeTree(ctx, tw, t, m); err != nil {
			return nil, fmt.Errorf("backup: %s: %w", t.Name, err)
		}
	}
	raw, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := tw.WriteHeader(&tar.Header{Name: ManifestEntry, Mode: 0o600, Size: int64(len(raw)), ModTime: m.CreatedAt,
		Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	if _, err := tw.Write(raw); err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	if err := tw.Close(); err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	return m, nil
}

// writeTree adds every regular file under t.Dir (a missing directory holds
// none). Symbolic links are not followed.
func writeTree(ctx context.Context, tw *tar.Writer, t Tree, m *Manifest) error {
	if t.Dir == "" {
		return nil
	}
	if _, err := os.Stat(t.Dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	root, err := os.OpenRoot(t.Dir)
	if err != nil {
		return err
	}
	defer root.Close()
	return fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if p != "." && skipName(d.Name()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		return writeFile(tw, root, p, t.Name+"/"+p, m)
	})
}

func writeFile(tw *tar.Writer, root *os.Root, p, name string, m *Manifest) error {
	f, err := root.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // deleted since the walk listed it
	}
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: fi.Size(), ModTime: fi.ModTime(),
		Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
		return err
	}
	h := sha256.New()
	n, err := io.CopyN(io.MultiWriter(tw, h), f, fi.Size())
	if err != nil {
		return fmt.Errorf("%s: %w (%d of %d bytes)", p, err, n, fi.Size())
	}
	m.Entries = append(m.Entries, Entry{Path: name, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))})
	return nil
}

// readArchive reads the tar stream, hands each file to create (area, the
// path inside it) and checks the whole against the manifest at the end.
func readArchive(r io.Reader, create func(area, rel string) (io.WriteCloser, error)) (*Manifest, error) {
	tr := tar.NewReader(r)
	got := map[string]Entry{}
	var m *Manifest
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, errors.New("restore: the backup is cut short")
		}
		if err != nil {
			return nil, fmt.Errorf("restore: not a readable backup: %w", err)
		}
		if m != nil {
			return nil, errors.New("restore: the backup has entries after its manifest")
		}
		if h.Typeflag != tar.TypeReg {
			return nil, fmt.Errorf("restore: the backup holds %q, which is not a plain file", h.Name)
		}
		if h.Name == ManifestEntry {
			if h.Size > 64<<20 {
				return nil, errors.New("restore: the backup's manifest is too large")
			}
			m = &Manifest{}
			if err := json.NewDecoder(tr).Decode(m); err != nil {
				return nil, fmt.Errorf("restore: the backup's manifest is unreadable: %w", err)
			}
			continue
		}
		area, rel, err := splitEntry(h.Name)
		if err != nil {
			return nil, err
		}
		if _, dup := got[h.Name]; dup {
			return nil, fmt.Errorf("restore: the backup holds %q twice", h.Name)
		}
		w, err := create(area, rel)
		if err != nil {
			return nil, err
		}
		hs := sha256.New()
		n, err := io.Copy(io.MultiWriter(w, hs), tr)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("restore: the backup is cut short (in %s)", h.Name)
		}
		if err != nil {
			return nil, fmt.Errorf("restore: %s: %w", h.Name, err)
		}
		got[h.Name] = Entry{Path: h.Name, Size: n, SHA256: hex.EncodeToString(hs.Sum(nil))}
	}
	if m == nil {
		return nil, errors.New("restore: the backup has no manifest (cut short?)")
	}
	if m.Format != Format || m.Version != FormatVersion {
		return nil, fmt.Errorf("restore: not a devhub backup of a version this binary reads (%q version %d)", m.Format, m.Version)
	}
	if m.SchemaVersion > store.SchemaVersion {
		return nil, fmt.Errorf("restore: the backup's store has schema version %d, newer than this binary understands (%d); restore it with a newer devhub",
			m.SchemaVersion, store.SchemaVersion)
	}
	listed := map[string]bool{}
	for _, e := range m.Entries {
		listed[e.Path] = true
		g, ok := got[e.Path]
		switch {
		case !ok:
			return nil, fmt.Errorf("restore: %s is listed in the manifest but missing from the backup", e.Path)
		case g.Size != e.Size || g.SHA256 != e.SHA256:
			return nil, fmt.Errorf("restore: %s does not match its checksum in the manifest: the backup is damaged", e.Path)
		}
	}
	for p := range got {
		if !listed[p] {
			return nil, fmt.Errorf("restore: %s is not listed in the manifest", p)
		}
	}
	if !listed[StoreEntry] {
		return nil, errors.New("restore: the backup holds no store")
	}
	return m, nil
}

// splitEntry checks an archive path and splits it into its area and the
// path inside it; a path that would leave its area is refused.
func splitEntry(name string) (area, rel string, err error) {
	if name == StoreEntry {
		return "store", "devhub.db", nil
	}
	area, rel, ok := strings.Cut(name, "/")
	clean := path.Clean(rel)
	if !ok || rel == "" || clean != rel || clean == "." || strings.HasPrefix(clean, "../") || clean == ".." ||
		strings.Contains(rel, "\\") || path.IsAbs(rel) {
		return "", "", fmt.Errorf("restore: the backup holds an unsafe or unknown path %q", name)
	}
	return area, rel, nil
}

// Restore reads the archive r and puts it in place of the store at dbPath
// and of each tree's directory. The server must not be running. Nothing
// changes unless the whole archive matched its manifest; then each
// directory and the store are swapped by rename, with the previous data
// kept aside until every swap succeeded.
func Restore(ctx context.Context, r io.Reader, dbPath string, trees []Tree) (*Manifest, error) {
	stamp := time.Now().UTC().Format("20060102T150405")
	stagedDB := dbPath + ".restore-" + stamp
	type staged struct {
		live, staging string
		root          *os.Root
	}
	var areas = map[string]*staged{}
	cleanup := func() {
		os.Remove(stagedDB)
		for _, a := range areas {
			if a.root != nil {
				a.root.Close()
			}
			os.RemoveAll(a.staging)
		}
	}
	for _, t := range trees {
		live := filepath.Clean(t.Dir)
		s := &staged{live: live, staging: filepath.Join(filepath.Dir(live), "."+filepath.Base(live)+".restore-"+stamp)}
		areas[t.Name] = s
		if err := os.MkdirAll(s.staging, 0o700); err != nil {
			cleanup()
			return nil, fmt.Errorf("restore: %w", err)
		}
		root, err := os.OpenRoot(s.staging)
		if err != nil {
			cleanup()
			return nil, fmt.Errorf("restore: %w", err)
		}
		s.root = root
	}
	if err := os.MkdirAll(filepath.Dir(dbPath), 0o700); err != nil {
		cleanup()
		return nil, fmt.Errorf("restore: %w", err)
	}
	m, err := readArchive(r, func(area, rel string) (io.WriteCloser, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if area == "store" {
			f, err := os.OpenFile(stagedDB, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
			if err != nil {
				return nil, err
			}
			return syncCloser{f}, nil
		}
		a, ok := areas[area]
		if !ok {
			return nil, fmt.Errorf("restore: the backup holds %s/, which this configuration has no directory for", area)
		}
		if d := path.Dir(rel); d != "." {
			if err := a.root.MkdirAll(d, 0o700); err != nil {
				return nil, err
			}
		}
		// Made durable all at once below (syncTree).
		return a.root.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	})
	for _, a := range areas {
		if err == nil {
			err = syncTree(a.staging)
		}
	}
	if err == nil {
		err = checkStagedStore(stagedDB)
	}
	if err != nil {
		cleanup()
		return nil, err
	}
	for _, a := range areas {
		a.root.Close()
		a.root = nil
	}
	// Swap: every live copy aside, the staged one in its place; undone in
	// reverse order when one step fails.
	type move struct{ from, to string }
	var done []move
	rename := func(from, to string) error {
		if err := os.Rename(from, to); err != nil {
			return err
		}
		done = append(done, move{from, to})
		return nil
	}
	var aside []string
	swap := func(live, staging string) error {
		old := filepath.Join(filepath.Dir(live), "."+filepath.Base(live)+".before-restore-"+stamp)
		if _, err := os.Lstat(live); err == nil {
			if err := rename(live, old); err != nil {
				return err
			}
			aside = append(aside, old)
		}
		return rename(staging, live)
	}
	names := make([]string, 0, len(areas))
	for n := range areas {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err = swap(areas[n].live, areas[n].staging); err != nil {
			break
		}
	}
	if err == nil {
		err = swap(dbPath, stagedDB)
	}
	if err != nil {
		for i := len(done) - 1; i >= 0; i-- {
			os.Rename(done[i].to, done[i].from)
		}
		cleanup()
		return nil, fmt.Errorf("restore: put the backup in place: %w (the previous data is back in place)", err)
	}
	for _, old := range aside {
		os.RemoveAll(old)
	}
	return m, nil
}

// checkStagedStore opens the restored store read-only: it must be a bbolt
// file whose schema this binary understands.
func checkStagedStore(p string) error {
	v, err := store.SchemaVersionOfFile(p)
	if err != nil {
		return fmt.Errorf("restore: the backup's store does not open: %w", err)
	}
	if v > store.SchemaVersion {
		return fmt.Errorf("restore: the backup's store has schema version %d, newer than this binary understands (%d); restore it with a newer devhub",
			v, store.SchemaVersion)
	}
	return nil
}

// syncCloser makes a restored file durable before it counts as written.
type syncCloser struct{ f *os.File }

func (s syncCloser) Write(p []byte) (int, error) { return s.f.Write(p) }
func (s syncCloser) Close() error {
	err := s.f.Sync()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	return err
}
