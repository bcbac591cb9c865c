package files

import (
	"cmp"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"strings"
	"sync"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/freespace"
	"github.com/devhub/devhub/pkg/internal/random"
	"github.com/devhub/devhub/pkg/quota"
	"github.com/devhub/devhub/pkg/storage"
	"github.com/devhub/devhub/pkg/store"
)

// storedNameLen is the length of a stored name (the key of the bytes in a
// storage backend): 16 random bytes in hex, generated here and nowhere
// else, which is what lets the start-up sweep delete leftovers without ever
// touching anything it did not create.
const storedNameLen = 32

// copyBufSize is the size of the pooled buffers bytes are copied through.
// Larger buffers mean fewer write(2) calls (notes/fiber-and-uploads.md), but
// every upload in progress holds one: at 1 MiB, 200 slow clients pinned
// 200 MiB. 128 KiB keeps a large upload near disk speed (the local
// backend's writeback does the batching that matters) and a crowd of slow
// ones cheap.
const copyBufSize = 128 << 10

var bufPool = sync.Pool{New: func() any { b := make([]byte, copyBufSize); return &b }}

func validStoredName(name string) bool {
	if len(name) != storedNameLen {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// pending is one file of an upload whose bytes are stored under their
// key but not yet recorded.
type pending struct {
	store storage.Store
	file  File
}

// Upload collects the files of one request (or one `devhub file add`) so
// that they are kept all together or not at all: each file's bytes are
// stored under a fresh key as they arrive, and only Commit writes their
// records; a failed or aborted upload deletes the bytes it stored.
// A zero Upload is not usable; start one with Service.Begin and always call
// Abort (a no-op after a successful Commit).
type Upload struct {
	s        *Service
	up       Uploader
	total    int64
	files    []pending
	finished bool
	// room is what the uploader's quota leaves, read once at the first
	// file: it stops an upload early; Commit checks again under the lock.
	room    quota.Limit
	roomSet bool
	// visibility is what every file of the upload is recorded with
	// (Public unless SetVisibility said otherwise).
	visibility    string
	visibilitySet bool
}

// Begin starts an upload by up.
func (s *Service) Begin(up Uploader) *Upload { return &Upload{s: s, up: up, visibility: Public} }

// SetVisibility makes every file of the upload Public or Private from the
// moment it is recorded: a private file is never listed, not even for an
// instant. It may come before or after the files (the records are written
// only by Commit). Anything but Public or Private, or a second call that
// says otherwise than the first, is a *store.ValidationError.
func (u *Upload) SetVisibility(visibility string) error {
	if err := CheckVisibility(visibility); err != nil {
		return err
	}
	if u.visibilitySet && visibility != u.visibility {
		return store.Invalid("visibility", "conflict", "visibility was given twice with different values")
	}
	u.visibility, u.visibilitySet = visibility, true
	return nil
}

// checkRoom returns an *quota.ExceededError when adding bytes (and, with
// newFile, one more file) would go past what the quota left at the start.
func (u *Upload) checkRoom(bytes int64, newFile bool) error {
	if u.s.quota == nil {
		return nil
	}
	if !u.roomSet {
		room, err := u.s.quota.Room(u.up.ID)
		if err != nil {
			return err
		}
		u.room, u.roomSet = room, true
	}
	files := int64(len(u.files))
	if newFile {
		files++
	}
	if !u.room.Allows(quota.Amount{Bytes: bytes, Files: files}) {
		return u.exceeded()
	}
	return nil
}

// exceeded is the quota error with the uploader's current figures.
func (u *Upload) exceeded() error {
	r, err := u.s.quota.Report(u.up.ID)
	if err != nil {
		return err
	}
	return &quota.ExceededError{Used: r.Used, Limit: r.Limit}
}

// Add streams one file from r into the storage backend: the bytes are
// counted against the upload limit and the quota, hashed and sniffed on
// the way, and durable when Add returns. name is the client's file name,
// kept (sanitised) as metadata only.
func (u *Upload) Add(ctx context.Context, name string, r io.Reader) (err error) {
	if u.finished {
		return errors.New("files: upload already finished")
	}
	if err := u.checkRoom(u.total, true); err != nil {
		return err
	}
	be := u.s.primary
	// The bytes stream to the uploads directory (local) or elsewhere; the
	// store's disk is held to the reserve either way (the record goes there).
	dir := ""
	if be == storage.Store(u.s.local) {
		dir = u.s.dir
	}
	if err := u.s.reserve.Check(0, dir); err != nil {
		return err
	}
	key := random.Hex(storedNameLen / 2)
	w, err := be.Create(ctx, key, -1)
	if err != nil {
		return storageError("create", err)
	}
	out := u.s.reserve.Writer(w, dir)
	// Aborted on any error, and also when a panic unwinds past here (err is
	// still nil then): an S3 write holds its part buffers until it ends.
	committed := false
	defer func() {
		if err != nil || !committed {
			w.Abort()
		}
	}()

	hp := newHashPipe()
	defer hp.finish()
	var head []byte
	var size int64
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		buf := hp.buffer()
		n, rerr := readFull(r, buf)
		if n > 0 {
			if u.total+int64(n) > u.s.maxBytes {
				return ErrTooLarge
			}
			if err := u.checkRoom(u.total+int64(n), false); err != nil {
				return err
			}
			u.total += int64(n)
			if len(head) < sniffLen {
				head = append(head, buf[:min(n, sniffLen-len(head))]...)
			}
			if _, err := out.Write(buf[:n]); err != nil {
				return storageError("write", err)
			}
			size += int64(n)
		}
		hp.hash(buf[:n])
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return &readError{err: rerr}
		}
	}
	sum := hp.finish()
	if err := w.Commit(); err != nil {
		return storageError("commit", err)
	}
	committed = true
	original := SanitizeName(name)
	mt, typ := Detect(head, original)
	stored := ""
	if be.Name() != storage.Local {
		stored = be.Name()
	}
	u.files = append(u.files, pending{
		store: be,
		file: File{
			OriginalName: original,
			StoredName:   key,
			Storage:      stored,
			Size:         size,
			MimeType:     mt,
			Type:         typ,
			SHA256:       hex.EncodeToString(sum),
			UploaderID:   u.up.ID,
			Uploader:     u.up.Name,
		},
	})
	return nil
}

// discard deletes the stored bytes of every file of the upload.
func (u *Upload) discard() {
	for _, p := range u.files {
		if err := p.store.Delete(context.Background(), p.file.StoredName); err != nil {
			u.s.log.Warn("could not delete the bytes of an upload that was not kept; the next start-up sweep will",
				slog.String("stored_name", p.file.StoredName), slog.Any("err", err))
		}
	}
	u.files = nil
}

// Commit makes the upload visible: the records of every file are written
// in one transaction (under the quota's lock). On failure nothing stays
// behind; a ctx that is done by the time the quota's lock is held is such
// a failure.
func (u *Upload) Commit(ctx context.Context) ([]File, error) {
	if u.finished {
		return nil, errors.New("files: upload already finished")
	}
	if len(u.files) == 0 {
		return nil, ErrNoFiles
	}
	u.finished = true
	fail := func(err error) ([]File, error) {
		u.discard()
		return nil, err
	}
	now := u.s.now().UTC()
	out := make([]File, 0, len(u.files))
	record := func() error {
		if err := ctx.Err(); err != nil { // gone while waiting for the lock
			return err
		}
		err := u.s.st.Update(func(tx *bolt.Tx) error {
			b := tx.Bucket([]byte(bucketName))
			out = out[:0]
			for _, p := range u.files {
				id, err := b.NextSequence()
				if err != nil {
					return err
				}
				f := p.file
				f.ID, f.UploadedAt, f.Visibility = id, now, recordedVisibility(u.visibility)
				if err := store.PutJSON(b, store.Itob(id), f); err != nil {
					return err
				}
				out = append(out, f)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("files: record upload: %w", err)
		}
		for _, f := range out {
			u.s.ix.put(f)
		}
		return nil
	}
	var err error
	if u.s.quota != nil {
		err = u.s.quota.Within(u.up.ID, quota.Amount{Bytes: u.total, Files: int64(len(u.files))}, record)
	} else {
		err = record()
	}
	if err != nil {
		return fail(err)
	}
	u.s.added(out)
	return out, nil
}

// Abort deletes the stored bytes of an upload that will not be
// committed. It is safe to call after Commit (then it does nothing).
func (u *Upload) Abort() {
	if u.finished {
		return
	}
	u.finished = true
	u.discard()
}

// SaveOption adjusts the upload Save makes.
type SaveOption func(*Upload) error

// WithVisibility records the file as Public or Private (Upload.SetVisibility).
func WithVisibility(visibility string) SaveOption {
	return func(u *Upload) error { return u.SetVisibility(visibility) }
}

// Save stores one file from r in its own upload (the CLI's way, and a
// finished resumable upload's); it is public unless an option says
// otherwise.
func (s *Service) Save(ctx context.Context, name string, r io.Reader, up Uploader, opts ...SaveOption) (*File, error) {
	u := s.Begin(up)
	defer u.Abort()
	for _, o := range opts {
		if err := o(u); err != nil {
			return nil, err
		}
	}
	if err := u.Add(ctx, name, r); err != nil {
		return nil, err
	}
	out, err := u.Commit(ctx)
	if err != nil {
		return nil, err
	}
	return &out[0], nil
}

// storageError wraps a failure to store bytes; a full disk, a filesystem
// quota or the free-space reserve is ErrNoSpace, so callers can tell the
// visitor (507) instead of failing blindly (500).
func storageError(op string, err error) error {
	return fmt.Errorf("files: %s: %w", op, freespace.Wrap(err))
}

// readError marks a failure to read the incoming bytes (as opposed to
// storing them), so callers can tell a bad or cut-off body from a disk
// problem.
type readError struct{ err error }

func (e *readError) Error() string { return e.err.Error() }
func (e *readError) Unwrap() error { return e.err }

// MultipartError means the body could not be read as a multipart form:
// malformed, or cut off because the client went away.
type MultipartError struct{ Err error }

func (e *MultipartError) Error() string { return "malformed multipart body: " + e.Err.Error() }
func (e *MultipartError) Unwrap() error { return e.Err }

// VisibilityField is the multipart form field that makes the files of an
// upload Public or Private (public when absent).
const VisibilityField = "visibility"

// maxVisibilityField is the most a visibility field's value may hold
// (room for "private" with some white space around it).
const maxVisibilityField = 32

// SaveMultipart reads a multipart/form-data body as a stream and stores
// every part of the form field `field` (the spec's repeated "files") as
// one upload: all files are kept, or none. A VisibilityField part, before
// or after the files (records are written only once the body has ended),
// makes them all public or private; any other value of it is a
// *store.ValidationError at once. Other fields are skipped. A body cut
// short (client gone), over the limit, with more than maxParts parts, or
// with a part whose Content-Disposition does not parse keeps nothing.
func (s *Service) SaveMultipart(ctx context.Context, body io.Reader, boundary, field string, maxParts int, up Uploader) ([]File, error) {
	u := s.Begin(up)
	defer u.Abort()
	mr := multipart.NewReader(body, boundary)
	for parts := 0; ; parts++ {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			if errors.Is(err, ErrTooLarge) {
				return nil, ErrTooLarge
			}
			return nil, &MultipartError{Err: err}
		}
		if parts >= maxParts {
			part.Close()
			return nil, ErrTooManyParts
		}
		// A part whose disposition does not parse (a raw CR/LF in a file
		// name ends its header line early) is a broken request, not a part
		// to skip: skipping it would answer 201 for the files around it.
		if disp, _, err := parseDisposition(part.Header.Get("Content-Disposition")); err != nil || disp != "form-data" {
			part.Close()
			return nil, &MultipartError{Err: errors.New("a part without a valid form-data Content-Disposition")}
		}
		if part.FormName() == VisibilityField {
			err := readVisibility(u, part)
			part.Close()
			if err != nil {
				return nil, err
			}
			continue
		}
		if part.FormName() != field {
			// Not a file of ours: read past it (still counted by the caller's
			// body limit) and go on.
			if _, err := io.Copy(io.Discard, part); err != nil {
				part.Close()
				if errors.Is(err, ErrTooLarge) {
					return nil, ErrTooLarge
				}
				return nil, &MultipartError{Err: err}
			}
			part.Close()
			continue
		}
		// FileName() already drops directories with '/'; SanitizeName goes on
		// from the raw parameter so backslashes and control bytes are handled
		// the same way for every client.
		name := rawFileName(part)
		err = u.Add(ctx, name, part)
		part.Close()
		var re *readError
		switch {
		case err == nil:
		case errors.Is(err, ErrTooLarge):
			return nil, ErrTooLarge
		case errors.As(err, &re):
			return nil, &MultipartError{Err: re.err}
		default:
			return nil, err
		}
	}
	return u.Commit(ctx)
}

// readVisibility reads a VisibilityField part and sets u's visibility from
// it (surrounding white space ignored).
func readVisibility(u *Upload, part *multipart.Part) error {
	raw, err := io.ReadAll(io.LimitReader(part, maxVisibilityField+1))
	switch {
	case errors.Is(err, ErrTooLarge):
		return ErrTooLarge
	case err != nil:
		return &MultipartError{Err: err}
	case len(raw) > maxVisibilityField:
		return CheckVisibility(string(raw)) // never a valid value
	}
	return u.SetVisibility(strings.TrimSpace(string(raw)))
}

// rawFileName is the filename parameter of a part's Content-Disposition as
// the client sent it (decoded from RFC 2231 when so encoded), or "" when the
// part names none.
func rawFileName(p *multipart.Part) string {
	if name := p.FileName(); name == "" {
		return ""
	}
	_, params, err := parseDisposition(p.Header.Get("Content-Disposition"))
	if err != nil {
		return p.FileName()
	}
	return params["filename"]
}

// SweepTemps removes what an interrupted upload can leave in every
// backend: unfinished writes (temp files, open multipart uploads), and
// stored bytes that no record refers to (a crash between storing and
// recording). It runs at start-up, before uploads are accepted. Only keys
// this package generates are ever removed, and removing a symlink never
// touches its target. A ctx that ends (Ctrl-C during start-up) stops it
// between backends and between leftovers.
func (s *Service) SweepTemps(ctx context.Context) (int, error) {
	known := map[string]map[string]bool{}
	err := s.st.View(func(tx *bolt.Tx) error {
		return store.ForEachJSON(tx.Bucket([]byte(bucketName)), func(_ []byte, f *File) error {
			name := cmp.Or(f.Storage, storage.Local)
			if known[name] == nil {
				known[name] = map[string]bool{}
			}
			known[name][f.StoredName] = true
			return nil
		})
	})
	if err != nil {
		return 0, err
	}
	removed := 0
	for name, be := range s.stores {
		if err := ctx.Err(); err != nil {
			return removed, err
		}
		n, err := be.SweepIncomplete(ctx)
		removed += n
		if err != nil {
			return removed, err
		}
		var orphans []string
		if err := be.List(ctx, func(key string) error {
			if !known[name][key] {
				orphans = append(orphans, key)
			}
			return nil
		}); err != nil {
			return removed, err
		}
		for _, key := range orphans {
			if err := ctx.Err(); err != nil {
				return removed, err
			}
			if err := be.Delete(ctx, key); err != nil {
				s.log.Warn("could not remove a leftover upload", slog.String("backend", name), slog.String("name", key), slog.Any("err", err))
				continue
			}
			removed++
		}
	}
	return removed, nil
}

// readFull reads until buf is full or r ends. It returns io.EOF only with
// n == 0 at the end of r, and turns a short last read into (n, nil) so the
// caller handles those bytes first.
func readFull(r io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if err == io.EOF {
			if n == 0 {
				return 0, io.EOF
			}
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
