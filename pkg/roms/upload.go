package roms

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/devhub/devhub/pkg/internal/freespace"
	"github.com/devhub/devhub/pkg/store"
)

// ErrTooLarge: an uploaded ROM or cover is over its size limit; nothing was kept.
var ErrTooLarge error = store.Refuse(store.KindTooLarge, "upload too large")

// UploadInput is a ROM arriving as a stream (the games page's owner upload).
type UploadInput struct {
	// FileName is the ROM's file name as the browser gave it: a bare name,
	// never a path.
	FileName string
	// Console is a console id or alias; empty takes the one console whose
	// extensions include the file's.
	Console string
	// Name overrides the name taken from the file name.
	Name string
	// Body is the ROM's bytes, unless Staged is set.
	Body io.Reader
	// Staged is a file already on disk holding the ROM (a finished
	// resumable upload), used instead of Body: linked, not copied, into the
	// temp directory when both are on one file system. The caller deletes it.
	Staged string
	// MaxBytes bounds the body; a longer one is ErrTooLarge.
	MaxBytes int64
	// Replace puts the ROM in place of one of the same file name in the
	// console's folder (the game keeps its id); without it that ROM is an
	// *ExistsError.
	Replace bool
}

// ExistsError: the console's folder already holds a ROM of that file name.
// It is store.ErrConflict; the upload may be sent again under another name,
// or with Replace.
type ExistsError struct {
	Console, FileName string
}

func (e *ExistsError) Error() string {
	return fmt.Sprintf("%s: %s/%s", store.ErrConflict, e.Console, e.FileName)
}

func (e *ExistsError) Unwrap() error { return store.ErrConflict }

// checkUploadName refuses anything but a plain file name: no directories,
// no traversal, no hidden or control characters.
func checkUploadName(field, name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return store.Invalid(field, "required", "a file name is required")
	case len([]rune(name)) > 200:
		return store.Invalid(field, "too_long", "the file name must be at most 200 characters")
	case strings.ContainsAny(name, "/\\\x00") || name == "." || name == ".." || filepath.Base(name) != name:
		return store.Invalid(field, "invalid", "the file name must not contain a path")
	case strings.HasPrefix(name, "."):
		return store.Invalid(field, "invalid", "hidden files are not indexed")
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return store.Invalid(field, "invalid", "the file name has control characters")
		}
	}
	return nil
}

// ConsoleForFile is the one known console that runs files of name's
// extension; ok is false when none or several do (.bin, .iso, .zip).
func ConsoleForFile(name string) (Console, bool) {
	ext := strings.ToLower(filepath.Ext(name))
	var found []Console
	for _, c := range consoleTable {
		if slices.Contains(c.Extensions, ext) {
			found = append(found, c)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return Console{}, false
}

// spool copies body (at most max bytes) into dir/name, held to the
// free-space reserve; the caller removes dir whatever happens.
func (s *Service) spool(dir, name string, body io.Reader, max int64) (string, error) {
	p := filepath.Join(dir, name)
	f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return "", freespace.Wrap(err)
	}
	n, err := io.Copy(s.reserve.Writer(f, dir), io.LimitReader(body, max+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", freespace.Wrap(err)
	}
	if n > max {
		return "", ErrTooLarge
	}
	if n == 0 {
		return "", store.Invalid("file", "empty", "the file is empty")
	}
	return p, nil
}

// CheckUpload is everything Upload checks before it reads a byte: a plain
// file name, the console (given, else the one console of the extension),
// that the console runs the extension, and that the console's folder holds
// no ROM of that name yet (*ExistsError) — unless replace is set and what
// is there is a ROM file, not a folder or a link. It answers the console's
// id. The resumable upload calls it when the upload is created, so a
// refused ROM is refused before its bytes are sent; Upload calls it again
// at the end, when the folder may have changed.
func (s *Service) CheckUpload(fileName, console string, replace bool) (string, error) {
	if err := checkUploadName("file", fileName); err != nil {
		return "", err
	}
	if strings.TrimSpace(console) == "" {
		c, ok := ConsoleForFile(fileName)
		if !ok {
			return "", store.Invalid("console", "required",
				fmt.Sprintf("choose the console: no single console is known for %q files", filepath.Ext(fileName)))
		}
		console = c.ID
	}
	con, ok := LookupConsole(console)
	if !ok {
		return "", store.Invalid("console", "invalid", fmt.Sprintf("unknown console %q", console))
	}
	if !con.accepts(fileName) {
		return "", store.Invalid("file", "invalid",
			fmt.Sprintf("%s does not run %q files (it runs %s)", con.Name, filepath.Ext(fileName), strings.Join(con.Extensions, " ")))
	}
	if fi, err := os.Lstat(filepath.Join(s.root, con.ID, fileName)); err == nil && (!replace || !fi.Mode().IsRegular()) {
		return "", &ExistsError{Console: con.ID, FileName: fileName}
	}
	return con.ID, nil
}

// CheckSpace refuses (freespace.ErrNoSpace) a ROM or cover of n bytes that
// would leave less than the free-space reserve: spooled in the system's
// temp directory, then copied into roms/, and meanwhile waiting in each of
// also's (a resumable upload's staging).
func (s *Service) CheckSpace(n int64, also ...string) error {
	return s.reserve.Check(n, append(also, os.TempDir(), s.root)...)
}

// Upload streams a ROM into roms/<console>/ and indexes it, as `rom add`
// does for a file on disk. The bytes are spooled to a temp directory first,
// so a refused or broken upload leaves nothing in roms/. Both owner uploads
// end here: POST /api/games/roms with Body, a finished tus upload with
// Staged.
func (s *Service) Upload(ctx context.Context, in UploadInput) (Game, error) {
	console, err := s.CheckUpload(in.FileName, in.Console, in.Replace)
	if err != nil {
		return Game{}, err
	}
	tmp, err := os.MkdirTemp("", "devhub-rom-*")
	if err != nil {
		return Game{}, err
	}
	defer os.RemoveAll(tmp)
	var p string
	if in.Staged != "" {
		p, err = s.stage(tmp, in.FileName, in.Staged, in.MaxBytes)
	} else {
		p, err = s.spool(tmp, in.FileName, in.Body, in.MaxBytes)
	}
	if err != nil {
		return Game{}, err
	}
	return s.Add(ctx, AddInput{Source: p, Console: console, Name: in.Name, Replace: in.Replace})
}

// stage puts the file at staged into dir/name under the same limits as
// spool: a hard link when it can (no copy of a disc image), else a copy.
func (s *Service) stage(dir, name, staged string, max int64) (string, error) {
	fi, err := os.Stat(staged)
	switch {
	case err != nil:
		return "", err
	case !fi.Mode().IsRegular():
		return "", fmt.Errorf("roms: staged upload %s is not a regular file", staged)
	case fi.Size() > max:
		return "", ErrTooLarge
	case fi.Size() == 0:
		return "", store.Invalid("file", "empty", "the file is empty")
	}
	p := filepath.Join(dir, name)
	if err := os.Link(staged, p); err == nil {
		return p, nil
	}
	f, err := os.Open(staged)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return s.spool(dir, name, f, max)
}

// SetCover streams a cover (png, jpg or webp, by fileName's extension) for
// a game, replacing its old one.
func (s *Service) SetCover(ctx context.Context, id uint64, fileName string, body io.Reader, max int64) (Game, error) {
	if err := checkUploadName("file", fileName); err != nil {
		return Game{}, err
	}
	ext := strings.ToLower(filepath.Ext(fileName))
	if !slices.Contains(imageExtensions, ext) {
		return Game{}, store.Invalid("file", "invalid", "the cover must be a .png, .jpg or .webp file")
	}
	tmp, err := os.MkdirTemp("", "devhub-cover-*")
	if err != nil {
		return Game{}, err
	}
	defer os.RemoveAll(tmp)
	p, err := s.spool(tmp, "cover"+ext, body, max)
	if err != nil {
		return Game{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.idx.Load().byID[id]
	if !ok {
		return Game{}, store.ErrNotFound
	}
	dir := filepath.Join(s.root, filepath.FromSlash(filepath.Dir(e.rel)), "images")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Game{}, err
	}
	base := strings.TrimSuffix(filepath.Base(e.rel), filepath.Ext(e.rel))
	for _, x := range imageExtensions {
		_ = os.Remove(filepath.Join(dir, base+x))
	}
	if err := s.copyNew(p, filepath.Join(dir, base+ext)); err != nil {
		return Game{}, err
	}
	if _, err := s.scanLocked(ctx); err != nil {
		return Game{}, err
	}
	if e, ok := s.idx.Load().byID[id]; ok {
		return e.game, nil
	}
	return Game{}, store.ErrNotFound
}
