// Package downloads is the download catalogue behind /programs and /alavar:
// entries (a program or a game) with their texts, systems, icon and
// screenshots, and their releases, each with files whose bytes live in a
// storage backend under keys this package generates. The SHA-256 of every
// file is computed here while its bytes are stored, never taken from a
// client. Downloads belong to the site, not to an account: they count to
// no user's quota. Deleting an entry deletes its bytes and nothing else's.
package downloads

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/random"
	"github.com/devhub/devhub/pkg/storage"
	"github.com/devhub/devhub/pkg/store"
)

// bucketName holds one JSON Entry per slug.
const bucketName = "downloads"

// Sections of the catalogue.
const (
	SectionPrograms = "programs"
	SectionAlavar   = "alavar"
)

// Sections lists every section.
var Sections = []string{SectionPrograms, SectionAlavar}

// Systems an entry runs on.
var Systems = []string{"windows-7", "windows-10", "windows-11", "windows-xp", "macos", "linux", "android", "dos"}

// FileSystems are what one file is built for; "any" runs everywhere (a
// portable archive, a script).
var FileSystems = []string{"windows", "macos", "linux", "android", "dos", "any"}

// Archs are a file's processor architectures.
var Archs = []string{"x64", "x86", "arm64", "any"}

// Languages in which an entry's texts may be translated.
var Languages = []string{"uk", "ru", "en"}

// Sorts of the list.
const (
	SortName    = "name"
	SortNewest  = "newest"
	SortPopular = "popular"
)

// Limits of the texts.
const (
	maxName        = 120
	maxSummary     = 300
	maxDescription = 64 << 10
	maxNotes       = 32 << 10
	maxShort       = 2000
	maxVersion     = 40
	maxFileName    = 200
	maxScreenshots = 20
)

// Translation is an entry's texts in one more language.
type Translation struct {
	Summary     string `json:"summary,omitempty"`
	Description string `json:"description,omitempty"`
}

// Media is an icon or a screenshot: an image stored with the entry.
type Media struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Size     int64  `json:"size"`
	MimeType string `json:"mimeType"`
	Key      string `json:"key"`
	Storage  string `json:"storage,omitempty"`
}

// File is one downloadable file of a release.
type File struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	System    string `json:"system"`
	Arch      string `json:"arch"`
	Size      int64  `json:"size"`
	SHA256    string `json:"sha256"`
	Downloads int64  `json:"downloads"`
	Key       string `json:"key"`
	Storage   string `json:"storage,omitempty"`
}

// Release is one version with its notes and files.
type Release struct {
	Version string    `json:"version"`
	Notes   string    `json:"notes"`
	Date    time.Time `json:"date"`
	Files   []File    `json:"files"`
}

// Entry is one program or game.
type Entry struct {
	Section      string                 `json:"section"`
	Slug         string                 `json:"slug"`
	Name         string                 `json:"name"`
	Summary      string                 `json:"summary"`
	Description  string                 `json:"description"`
	Translations map[string]Translation `json:"translations,omitempty"`
	Systems      []string               `json:"systems"`
	Requirements string                 `json:"requirements"`
	Licence      string                 `json:"licence"`
	Homepage     string                 `json:"homepage"`
	Icon         *Media                 `json:"icon,omitempty"`
	Screenshots  []Media                `json:"screenshots"`
	Hidden       bool                   `json:"hidden"`
	Order        int                    `json:"order"`
	// Releases are newest first.
	Releases  []Release `json:"releases"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	// Example marks an entry seeded from content/ as an example to replace.
	Example bool `json:"example,omitempty"`
}

// Latest is the newest release, or nil.
func (e *Entry) Latest() *Release {
	if len(e.Releases) == 0 {
		return nil
	}
	return &e.Releases[0]
}

// TotalDownloads is the sum of every file's count.
func (e *Entry) TotalDownloads() int64 {
	var n int64
	for _, r := range e.Releases {
		for _, f := range r.Files {
			n += f.Downloads
		}
	}
	return n
}

// keys of every stored object the entry owns.
func (e *Entry) objects() []Media {
	var out []Media
	if e.Icon != nil {
		out = append(out, *e.Icon)
	}
	out = append(out, e.Screenshots...)
	for _, r := range e.Releases {
		for _, f := range r.Files {
			out = append(out, Media{Key: f.Key, Storage: f.Storage})
		}
	}
	return out
}

// keyPrefix starts every object key this package generates; the file
// cloud's keys are 32 hex digits alone, so neither ever lists, sweeps or
// deletes the other's objects in a shared directory or bucket.
const keyPrefix = "dl"

// IsKey tells this package's object keys from anything else.
func IsKey(k string) bool {
	if len(k) != len(keyPrefix)+32 || !strings.HasPrefix(k, keyPrefix) {
		return false
	}
	return strings.Trim(k[len(keyPrefix):], "0123456789abcdef") == ""
}

func newKey() string { return keyPrefix + random.Hex(16) }

// Service keeps the catalogue: records in bbolt, an in-memory copy that
// lists and searches answer from, bytes in a storage backend.
type Service struct {
	st  *store.Store
	be  storage.Store
	log *slog.Logger
	now func() time.Time

	mu      sync.RWMutex
	entries map[string]*indexed
	// seen are the visitors counted today, per file (CountDownload).
	seenMu  sync.Mutex
	seenDay string
	seen    map[string]struct{}
}

// New opens the catalogue on st, its bytes in be.
func New(st *store.Store, be storage.Store, log *slog.Logger) (*Service, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := st.EnsureBuckets(bucketName); err != nil {
		return nil, err
	}
	s := &Service{st: st, be: be, log: log, now: time.Now, entries: map[string]*indexed{}, seen: map[string]struct{}{}}
	err := st.View(func(tx *bolt.Tx) error {
		return store.ForEachJSON(tx.Bucket([]byte(bucketName)), func(_ []byte, e *Entry) error {
			s.entries[e.Slug] = index(*e)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("downloads: load: %w", err)
	}
	return s, nil
}

// SetClock replaces the clock (tests).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// Backend is where the bytes are.
func (s *Service) Backend() storage.Store { return s.be }

// Get returns a copy of the entry slug, or store.ErrNotFound.
func (s *Service) Get(slug string) (*Entry, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ix, ok := s.entries[slug]
	if !ok {
		return nil, fmt.Errorf("download %q: %w", slug, store.ErrNotFound)
	}
	e := clone(ix.e)
	return &e, nil
}

// Count is the number of entries.
func (s *Service) Count() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.entries)
}

func clone(e Entry) Entry {
	e.Systems = slices.Clone(e.Systems)
	e.Screenshots = slices.Clone(e.Screenshots)
	if e.Icon != nil {
		ic := *e.Icon
		e.Icon = &ic
	}
	rs := make([]Release, len(e.Releases))
	for i, r := range e.Releases {
		r.Files = slices.Clone(r.Files)
		rs[i] = r
	}
	e.Releases = rs
	if e.Translations != nil {
		t := make(map[string]Translation, len(e.Translations))
		for k, v := range e.Translations {
			t[k] = v
		}
		e.Translations = t
	}
	return e
}

// put writes e and refreshes the index.
func (s *Service) put(e *Entry) error {
	err := s.st.Update(func(tx *bolt.Tx) error {
		return store.PutJSON(tx.Bucket([]byte(bucketName)), []byte(e.Slug), e)
	})
	if err != nil {
		return err
	}
	s.entries[e.Slug] = index(clone(*e))
	return nil
}

// Create adds an entry; its slug must be free.
func (s *Service) Create(e Entry) (*Entry, error) {
	e.Releases, e.Icon, e.Screenshots = nil, nil, nil
	if err := Check(&e); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.entries[e.Slug]; ok {
		return nil, &store.ValidationError{Message: "an entry with this slug already exists",
			Fields: map[string]store.FieldError{"slug": {Code: "taken", Message: "slug is taken"}}}
	}
	now := s.now().UTC()
	e.CreatedAt, e.UpdatedAt = now, now
	e.Screenshots, e.Releases = []Media{}, []Release{}
	if e.Order == 0 {
		e.Order = s.maxOrderLocked(e.Section) + 1
	}
	if err := s.put(&e); err != nil {
		return nil, err
	}
	out := clone(e)
	return &out, nil
}

func (s *Service) maxOrderLocked(section string) int {
	m := 0
	for _, ix := range s.entries {
		if ix.e.Section == section {
			m = max(m, ix.e.Order)
		}
	}
	return m
}

// Change edits an entry's texts and flags through fn, then checks it.
// The slug, releases and media are not fn's to change.
func (s *Service) Change(slug string, fn func(e *Entry)) (*Entry, error) {
	return s.update(context.Background(), slug, func(e *Entry, _ time.Time) ([]Media, error) {
		was := clone(*e)
		fn(e)
		e.Slug, e.Releases, e.Icon, e.Screenshots, e.CreatedAt = was.Slug, was.Releases, was.Icon, was.Screenshots, was.CreatedAt
		return nil, Check(e)
	})
}

// update changes entry slug through fn under the lock: fn edits a copy,
// given the time of the change, and returns the objects it let go; an
// error from fn changes nothing. The entry is stored with UpdatedAt the
// time of the change, and then, outside the lock, the bytes of the objects
// let go are deleted. It returns a copy of the changed entry.
func (s *Service) update(ctx context.Context, slug string, fn func(e *Entry, now time.Time) ([]Media, error)) (*Entry, error) {
	s.mu.Lock()
	ix, ok := s.entries[slug]
	if !ok {
		s.mu.Unlock()
		return nil, fmt.Errorf("download %q: %w", slug, store.ErrNotFound)
	}
	e := clone(ix.e)
	now := s.now().UTC()
	gone, err := fn(&e, now)
	if err == nil {
		e.UpdatedAt = now
		err = s.put(&e)
	}
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if len(gone) > 0 {
		s.deleteObjects(ctx, gone)
	}
	out := clone(e)
	return &out, nil
}

// Delete removes an entry and then every object it owned.
func (s *Service) Delete(ctx context.Context, slug string) (*Entry, error) {
	s.mu.Lock()
	ix, ok := s.entries[slug]
	if !ok {
		s.mu.Unlock()
		return nil, fmt.Errorf("download %q: %w", slug, store.ErrNotFound)
	}
	err := s.st.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte(bucketName)).Delete([]byte(slug)) })
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	delete(s.entries, slug)
	e := clone(ix.e)
	s.mu.Unlock()
	s.deleteObjects(ctx, e.objects())
	return &e, nil
}

func (s *Service) deleteObjects(ctx context.Context, objs []Media) {
	for _, o := range objs {
		if err := s.be.Delete(context.WithoutCancel(ctx), o.Key); err != nil {
			s.log.Warn("download bytes not deleted", slog.String("key", o.Key), slog.Any("err", err))
		}
	}
}

// Stored is one file whose bytes were stored (StoreFile) and are not yet
// part of a release.
type Stored struct {
	Name   string
	Size   int64
	SHA256 string
	Key    string
	// Head is the first bytes, for sniffing an image's type.
	Head []byte
}

// ErrTooLarge means a file went past the size limit; nothing was kept.
var ErrTooLarge error = store.Refuse(store.KindTooLarge, "download file exceeds the maximum size")

// StoreFile streams r into the backend under a new key, hashing it on the
// way; more than maxBytes is ErrTooLarge and nothing stays. The name is
// checked (CheckFileName) first.
func (s *Service) StoreFile(ctx context.Context, name string, r io.Reader, maxBytes int64) (*Stored, error) {
	if err := CheckFileName(name); err != nil {
		return nil, err
	}
	key := newKey()
	w, err := s.be.Create(ctx, key, -1)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	head := &headWriter{max: 512}
	n, err := io.Copy(io.MultiWriter(w, h, head), io.LimitReader(r, maxBytes+1))
	if err == nil && n > maxBytes {
		err = ErrTooLarge
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		w.Abort()
		return nil, err
	}
	if err := w.Commit(); err != nil {
		return nil, err
	}
	return &Stored{Name: name, Size: n, SHA256: hex.EncodeToString(h.Sum(nil)), Key: key, Head: head.b}, nil
}

// Discard deletes stored bytes that will not be recorded.
func (s *Service) Discard(ctx context.Context, st []*Stored) {
	for _, f := range st {
		if f != nil {
			s.be.Delete(context.WithoutCancel(ctx), f.Key)
		}
	}
}

type headWriter struct {
	b   []byte
	max int
}

func (h *headWriter) Write(p []byte) (int, error) {
	if room := h.max - len(h.b); room > 0 {
		h.b = append(h.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// NewFile is a stored file with what it is built for.
type NewFile struct {
	Stored *Stored
	System string
	Arch   string
}

// AddRelease records a release of the stored files; its version must be
// new for the entry. On any refusal the caller discards the files.
func (s *Service) AddRelease(slug, version, notes string, fs []NewFile) (*Entry, error) {
	version = strings.TrimSpace(version)
	var v store.Validator
	checkLine(&v, "version", version, maxVersion, true)
	if len(notes) > maxNotes {
		v.Add("notes", "too_long", fmt.Sprintf("notes are longer than %d bytes", maxNotes))
	}
	if !utf8.ValidString(notes) {
		v.Add("notes", "invalid", "notes are not valid UTF-8")
	}
	if len(fs) == 0 {
		v.Add("files", "required", "a release needs at least one file")
	}
	names := map[string]bool{}
	for _, f := range fs {
		if !slices.Contains(FileSystems, f.System) {
			v.Add("system", "invalid", "system must be one of "+strings.Join(FileSystems, ", "))
		}
		if !slices.Contains(Archs, f.Arch) {
			v.Add("arch", "invalid", "arch must be one of "+strings.Join(Archs, ", "))
		}
		if names[f.Stored.Name] {
			v.Add("files", "duplicate", "two files of the release have the same name")
		}
		names[f.Stored.Name] = true
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return s.update(context.Background(), slug, func(e *Entry, now time.Time) ([]Media, error) {
		for _, r := range e.Releases {
			if r.Version == version {
				return nil, store.Refuse(store.KindConflict, "release "+version+" already exists")
			}
		}
		r := Release{Version: version, Notes: notes, Date: now, Files: []File{}}
		for _, f := range fs {
			r.Files = append(r.Files, File{ID: random.Hex(6), Name: f.Stored.Name, System: f.System, Arch: f.Arch,
				Size: f.Stored.Size, SHA256: f.Stored.SHA256, Key: f.Stored.Key, Storage: s.be.Name()})
		}
		e.Releases = append([]Release{r}, e.Releases...)
		return nil, nil
	})
}

// DeleteRelease removes one release and its bytes.
func (s *Service) DeleteRelease(ctx context.Context, slug, version string) (*Entry, error) {
	return s.update(ctx, slug, func(e *Entry, _ time.Time) ([]Media, error) {
		i := slices.IndexFunc(e.Releases, func(r Release) bool { return r.Version == version })
		if i < 0 {
			return nil, fmt.Errorf("release %q: %w", version, store.ErrNotFound)
		}
		var objs []Media
		for _, f := range e.Releases[i].Files {
			objs = append(objs, Media{Key: f.Key})
		}
		e.Releases = slices.Delete(e.Releases, i, i+1)
		return objs, nil
	})
}

// imageTypes are the image types an icon or screenshot may be: shown
// inline, so never SVG.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/webp": true, "image/gif": true}

// ImageType is the MIME type of an image by its first bytes, or "".
func ImageType(head []byte) string {
	switch {
	case len(head) >= 8 && string(head[:8]) == "\x89PNG\r\n\x1a\n":
		return "image/png"
	case len(head) >= 3 && head[0] == 0xFF && head[1] == 0xD8 && head[2] == 0xFF:
		return "image/jpeg"
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return "image/webp"
	case len(head) >= 6 && (string(head[:6]) == "GIF87a" || string(head[:6]) == "GIF89a"):
		return "image/gif"
	}
	return ""
}

// AddMedia records a stored image as the entry's icon (replacing the old
// one, whose bytes go) or as one more screenshot. Anything but a PNG,
// JPEG, WebP or GIF is refused.
func (s *Service) AddMedia(ctx context.Context, slug, kind string, st *Stored) (*Entry, error) {
	mt := ImageType(st.Head)
	if !imageTypes[mt] {
		return nil, store.Invalid("files", "type", "icons and screenshots must be PNG, JPEG, WebP or GIF images")
	}
	if kind != "icon" && kind != "screenshot" {
		return nil, store.Invalid("kind", "invalid", "kind must be icon or screenshot")
	}
	m := Media{ID: random.Hex(6), Name: st.Name, Size: st.Size, MimeType: mt, Key: st.Key, Storage: s.be.Name()}
	return s.update(ctx, slug, func(e *Entry, _ time.Time) ([]Media, error) {
		if kind == "icon" {
			old := e.Icon
			e.Icon = &m
			if old != nil {
				return []Media{*old}, nil
			}
			return nil, nil
		}
		if len(e.Screenshots) >= maxScreenshots {
			return nil, store.Invalid("files", "too_many", fmt.Sprintf("an entry has at most %d screenshots", maxScreenshots))
		}
		e.Screenshots = append(e.Screenshots, m)
		return nil, nil
	})
}

// DeleteMedia removes the icon or a screenshot by id, and its bytes.
func (s *Service) DeleteMedia(ctx context.Context, slug, id string) (*Entry, error) {
	return s.update(ctx, slug, func(e *Entry, _ time.Time) ([]Media, error) {
		if e.Icon != nil && e.Icon.ID == id {
			gone := *e.Icon
			e.Icon = nil
			return []Media{gone}, nil
		}
		i := slices.IndexFunc(e.Screenshots, func(m Media) bool { return m.ID == id })
		if i < 0 {
			return nil, fmt.Errorf("image %q: %w", id, store.ErrNotFound)
		}
		gone := e.Screenshots[i]
		e.Screenshots = slices.Delete(e.Screenshots, i, i+1)
		return []Media{gone}, nil
	})
}

// Reorder gives the entries of a section the order of slugs (first is
// shown first); entries not named keep their place after them.
func (s *Service) Reorder(section string, slugs []string) error {
	if !slices.Contains(Sections, section) {
		return store.Invalid("section", "invalid", "section must be one of "+strings.Join(Sections, ", "))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sl := range slugs {
		if ix, ok := s.entries[sl]; !ok || ix.e.Section != section {
			return fmt.Errorf("download %q in %s: %w", sl, section, store.ErrNotFound)
		}
	}
	for i, sl := range slugs {
		e := clone(s.entries[sl].e)
		e.Order = i + 1
		if err := s.put(&e); err != nil {
			return err
		}
	}
	return nil
}

// FindFile returns the entry's file id and its release.
func (e *Entry) FindFile(id string) (*Release, *File) {
	for i := range e.Releases {
		for j := range e.Releases[i].Files {
			if e.Releases[i].Files[j].ID == id {
				return &e.Releases[i], &e.Releases[i].Files[j]
			}
		}
	}
	return nil, nil
}

// FindMedia returns the entry's icon or screenshot id.
func (e *Entry) FindMedia(id string) *Media {
	if e.Icon != nil && e.Icon.ID == id {
		return e.Icon
	}
	for i := range e.Screenshots {
		if e.Screenshots[i].ID == id {
			return &e.Screenshots[i]
		}
	}
	return nil
}

// Open opens an object's bytes (seekable; an *os.File on the local
// backend) and checks its size.
func (s *Service) Open(key string, size int64) (io.ReadSeekCloser, error) {
	// Not a request's context: the reader outlives the handler.
	r, n, err := s.be.Open(context.Background(), key)
	if err != nil {
		return nil, fmt.Errorf("download content: %w (%v)", store.ErrNotFound, err)
	}
	if n != size {
		r.Close()
		return nil, fmt.Errorf("download content has %d bytes, record says %d: %w", n, size, store.ErrNotFound)
	}
	return r, nil
}

// CountDownload counts one download of file id of entry slug by visitor
// (an address, an account), once per visitor and file per UTC day. It
// reports whether this one counted.
func (s *Service) CountDownload(slug, fileID, visitor string) (bool, error) {
	now := s.now().UTC()
	day := now.Format(time.DateOnly)
	k := slug + "\x00" + fileID + "\x00" + visitor
	s.seenMu.Lock()
	if s.seenDay != day {
		s.seenDay, s.seen = day, map[string]struct{}{}
	}
	if _, ok := s.seen[k]; ok {
		s.seenMu.Unlock()
		return false, nil
	}
	s.seen[k] = struct{}{}
	s.seenMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	ix, ok := s.entries[slug]
	if !ok {
		return false, store.ErrNotFound
	}
	e := clone(ix.e)
	_, f := e.FindFile(fileID)
	if f == nil {
		return false, store.ErrNotFound
	}
	f.Downloads++
	return true, s.put(&e)
}

// slugRe is an entry's slug: lower-case letters, digits and single
// hyphens, which is all a URL path segment of it may hold.
var slugRe = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// CheckSlug validates a slug.
func CheckSlug(slug string) error {
	if len(slug) < 2 || len(slug) > 64 || !slugRe.MatchString(slug) {
		return store.Invalid("slug", "invalid", "slug must be 2–64 lower-case letters, digits and single hyphens")
	}
	return nil
}

// CheckFileName validates a file's name as shown and offered for saving:
// one path segment, no control characters, not "." or "..".
func CheckFileName(name string) error {
	bad := name == "" || name == "." || name == ".." || len(name) > maxFileName || !utf8.ValidString(name) ||
		strings.ContainsAny(name, `/\:*?"<>|`) || strings.TrimSpace(name) != name || path.Base(name) != name
	for _, r := range name {
		if unicode.IsControl(r) || r == 0x7f || unicode.Is(unicode.Cf, r) {
			bad = true
		}
	}
	if bad {
		return store.Invalid("files", "invalid_name", "a file name must be one plain name (no path, no control characters, no \\ / : * ? \" < > |), at most 200 bytes")
	}
	return nil
}

// checkLine validates a one-line text.
func checkLine(v *store.Validator, field, s string, maxLen int, required bool) {
	switch {
	case required && strings.TrimSpace(s) == "":
		v.Add(field, "required", field+" is required")
	case len(s) > maxLen:
		v.Add(field, "too_long", fmt.Sprintf("%s is longer than %d bytes", field, maxLen))
	case !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) }):
		v.Add(field, "invalid", field+" must be one line without control characters")
	}
}

func checkText(v *store.Validator, field, s string, maxLen int) {
	switch {
	case len(s) > maxLen:
		v.Add(field, "too_long", fmt.Sprintf("%s is longer than %d bytes", field, maxLen))
	case !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\r' && r != '\t' }):
		v.Add(field, "invalid", field+" must be text without control characters")
	}
}

// Check validates an entry's fields and tidies them (trimmed texts,
// systems in their canonical order).
func Check(e *Entry) error {
	var v store.Validator
	if !slices.Contains(Sections, e.Section) {
		v.Add("section", "invalid", "section must be one of "+strings.Join(Sections, ", "))
	}
	if err := CheckSlug(e.Slug); err != nil {
		v.Add("slug", "invalid", err.(*store.ValidationError).Fields["slug"].Message)
	}
	e.Name, e.Summary = strings.TrimSpace(e.Name), strings.TrimSpace(e.Summary)
	checkLine(&v, "name", e.Name, maxName, true)
	checkLine(&v, "summary", e.Summary, maxSummary, false)
	checkText(&v, "description", e.Description, maxDescription)
	checkText(&v, "requirements", e.Requirements, maxShort)
	checkLine(&v, "licence", e.Licence, maxName, false)
	checkLine(&v, "homepage", e.Homepage, maxShort, false)
	if e.Homepage != "" && !strings.HasPrefix(e.Homepage, "https://") && !strings.HasPrefix(e.Homepage, "http://") {
		v.Add("homepage", "invalid", "homepage must be an http:// or https:// address")
	}
	for lang, t := range e.Translations {
		if !slices.Contains(Languages, lang) {
			v.Add("translations", "invalid", "translations are for "+strings.Join(Languages, ", "))
			continue
		}
		checkLine(&v, "translations", t.Summary, maxSummary, false)
		checkText(&v, "translations", t.Description, maxDescription)
	}
	var systems []string
	for _, sys := range Systems {
		if slices.Contains(e.Systems, sys) {
			systems = append(systems, sys)
		}
	}
	for _, sys := range e.Systems {
		if !slices.Contains(Systems, sys) {
			v.Add("systems", "invalid", "systems must be among "+strings.Join(Systems, ", "))
		}
	}
	if systems == nil {
		systems = []string{}
	}
	e.Systems = systems
	if e.Order < 0 {
		v.Add("order", "invalid", "order must not be negative")
	}
	return v.Err()
}
