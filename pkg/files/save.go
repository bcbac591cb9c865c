package files

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"mime/multipart"
	"os"
	"strings"
	"sync"
	"syscall"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/random"
	"github.com/devhub/devhub/pkg/quota"
	"github.com/devhub/devhub/pkg/store"
)

// Names inside the uploads directory. Both patterns are generated here and
// nowhere else, which is what lets the start-up sweep delete leftovers
// without ever touching a file it did not create.
const (
	tempPrefix = ".upload-"
	tempSuffix = ".tmp"
	// storedNameLen is the length of a stored name: 16 random bytes in hex.
	storedNameLen = 32
)

// copyBufSize is the size of the pooled buffers bytes are copied through.
// Larger buffers mean fewer write(2) calls (notes/fiber-and-uploads.md), but
// every upload in progress holds one: at 1 MiB, 200 slow clients pinned
// 200 MiB. 128 KiB keeps a large upload near disk speed (the writeback below
// does the batching that matters) and a crowd of slow ones cheap.
const copyBufSize = 128 << 10

var bufPool = sync.Pool{New: func() any { b := make([]byte, copyBufSize); return &b }}

// writebackChunk is how many bytes are written before the kernel is asked
// to start writing them to disk, so the final fsync has little left to do
// and a large upload runs at disk speed instead of "network, then disk".
const writebackChunk = 16 << 20

func isTempName(name string) bool {
	return strings.HasPrefix(name, tempPrefix) && strings.HasSuffix(name, tempSuffix)
}

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

// pending is one file of an upload whose bytes are durable in a temp file
// but not yet renamed nor recorded.
type pending struct {
	temp   string
	stored string
	file   File
}

// Upload collects the files of one request (or one `devhub file add`) so
// that they are kept all together or not at all: each file goes to its own
// temp file first, and only Commit renames them and writes their records.
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
}

// Begin starts an upload by up.
func (s *Service) Begin(up Uploader) *Upload { return &Upload{s: s, up: up} }

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

// Add streams one file from r into a temp file inside the uploads
// directory: the bytes are counted against the upload limit, hashed and
// sniffed on the way, and fsync'd at the end. name is the client's file
// name, kept (sanitised) as metadata only.
func (u *Upload) Add(ctx context.Context, name string, r io.Reader) (err error) {
	if u.finished {
		return errors.New("files: upload already finished")
	}
	if err := u.checkRoom(u.total, true); err != nil {
		return err
	}
	temp := tempPrefix + random.Hex(16) + tempSuffix
	fh, err := u.s.root.OpenFile(temp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o640)
	if err != nil {
		return fmt.Errorf("files: create temp file: %w", err)
	}
	defer func() {
		if err != nil {
			fh.Close()
			u.s.root.Remove(temp)
		}
	}()

	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	buf := *bp
	h := sha256.New()
	var head []byte
	var size, synced int64
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
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
			h.Write(buf[:n])
			if _, err := fh.Write(buf[:n]); err != nil {
				return storageError("write", err)
			}
			size += int64(n)
			if size-synced >= writebackChunk {
				startWriteback(fh, synced, size-synced)
				synced = size
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return &readError{err: rerr}
		}
	}
	if err := fh.Sync(); err != nil {
		return storageError("fsync", err)
	}
	if err := fh.Close(); err != nil {
		return storageError("close", err)
	}
	original := SanitizeName(name)
	mt, typ := Detect(head, original)
	u.files = append(u.files, pending{
		temp:   temp,
		stored: random.Hex(storedNameLen / 2),
		file: File{
			OriginalName: original,
			Size:         size,
			MimeType:     mt,
			Type:         typ,
			SHA256:       hex.EncodeToString(h.Sum(nil)),
			UploaderID:   u.up.ID,
			Uploader:     u.up.Name,
		},
	})
	return nil
}

// Commit makes the upload visible: every temp file is renamed to its
// server-generated name, the directory is fsync'd, and only then are the
// records written, in one transaction. On failure nothing stays behind.
func (u *Upload) Commit() ([]File, error) {
	if u.finished {
		return nil, errors.New("files: upload already finished")
	}
	if len(u.files) == 0 {
		return nil, ErrNoFiles
	}
	u.finished = true
	renamed := 0
	fail := func(err error) ([]File, error) {
		for i, p := range u.files {
			if i < renamed {
				u.s.root.Remove(p.stored)
			} else {
				u.s.root.Remove(p.temp)
			}
		}
		return nil, err
	}
	for _, p := range u.files {
		if err := u.s.root.Rename(p.temp, p.stored); err != nil {
			return fail(fmt.Errorf("files: rename: %w", err))
		}
		renamed++
	}
	if err := u.s.syncDir(); err != nil {
		return fail(err)
	}
	now := u.s.now().UTC()
	out := make([]File, 0, len(u.files))
	record := func() error {
		err := u.s.st.Update(func(tx *bolt.Tx) error {
			b := tx.Bucket([]byte(bucketName))
			out = out[:0]
			for _, p := range u.files {
				id, err := b.NextSequence()
				if err != nil {
					return err
				}
				f := p.file
				f.ID, f.StoredName, f.UploadedAt = id, p.stored, now
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

// Abort deletes the temp files of an upload that will not be committed.
// It is safe to call after Commit (then it does nothing).
func (u *Upload) Abort() {
	if u.finished {
		return
	}
	u.finished = true
	for _, p := range u.files {
		u.s.root.Remove(p.temp)
	}
	u.files = nil
}

// Save stores one file from r in its own upload (the CLI's way).
func (s *Service) Save(ctx context.Context, name string, r io.Reader, up Uploader) (*File, error) {
	u := s.Begin(up)
	defer u.Abort()
	if err := u.Add(ctx, name, r); err != nil {
		return nil, err
	}
	out, err := u.Commit()
	if err != nil {
		return nil, err
	}
	return &out[0], nil
}

// storageError wraps a failure to store bytes; a full disk or quota is
// ErrNoSpace, so callers can tell the visitor (507) instead of failing
// blindly (500).
func storageError(op string, err error) error {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return fmt.Errorf("files: %s: %w (%w)", op, ErrNoSpace, err)
	}
	return fmt.Errorf("files: %s: %w", op, err)
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

// SaveMultipart reads a multipart/form-data body as a stream and stores
// every part of the form field `field` (the spec's repeated "files") as
// one upload: all files are kept, or none. Other fields are skipped. A
// body cut short (client gone), over the limit, with more than maxParts
// parts, or with a part whose Content-Disposition does not parse keeps
// nothing.
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
	return u.Commit()
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

// SweepTemps removes what an interrupted upload can leave in the uploads
// directory: temp files, and stored files that no record refers to (a crash
// between the rename and the commit). It runs at start-up, before uploads
// are accepted. Only names this package generates are ever removed, and
// removing a symlink never touches its target.
func (s *Service) SweepTemps() (int, error) {
	known := map[string]bool{}
	err := s.st.View(func(tx *bolt.Tx) error {
		return store.ForEachJSON(tx.Bucket([]byte(bucketName)), func(_ []byte, f *File) error {
			known[f.StoredName] = true
			return nil
		})
	})
	if err != nil {
		return 0, err
	}
	dir, err := s.root.Open(".")
	if err != nil {
		return 0, fmt.Errorf("files: open uploads directory: %w", err)
	}
	entries, err := dir.ReadDir(-1)
	dir.Close()
	if err != nil {
		return 0, fmt.Errorf("files: list uploads directory: %w", err)
	}
	removed := 0
	for _, e := range entries {
		name := e.Name()
		if !isTempName(name) && !(validStoredName(name) && !known[name]) {
			continue
		}
		if e.IsDir() {
			continue
		}
		if err := s.root.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			s.log.Warn("could not remove a leftover upload", slog.String("name", name), slog.Any("err", err))
			continue
		}
		removed++
	}
	return removed, nil
}

// syncDir makes renames in the uploads directory durable.
func (s *Service) syncDir() error {
	d, err := s.root.Open(".")
	if err != nil {
		return fmt.Errorf("files: open uploads directory: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("files: fsync uploads directory: %w", err)
	}
	return nil
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
