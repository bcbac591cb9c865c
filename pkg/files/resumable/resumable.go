// Package resumable keeps the file cloud's unfinished resumable uploads
// (tus): their staged bytes and records, their expiry, and what they hold of
// their owners' quotas. It is the data store the HTTP layer hands tusd; the
// protocol itself (the routes, the hooks that turn a finished upload into a
// file or a game) stays with the adapter.
//
// Unfinished uploads are staged on local disk in one directory, laid out as
// tusd's filestore lays them out: <id> holds the bytes, <id>.info the
// upload's record. An S3 object cannot be appended to, so staging keeps the
// protocol simple and the bytes reach the storage layer exactly once, when
// the upload ends. The directory is on the uploads' disk (Dir), never beside
// the store, which a full disk would leave without room for sign-ins.
//
// Devhub's rules for staged bytes:
//   - files 0600 in a 0700 directory: they are users' bytes, readable by no
//     one else on the machine, before they become files;
//   - a PATCH is held to the free-space reserve (storage.min_free_bytes): one
//     whose remaining length would go below it is refused before a byte is
//     written, and one that would cross it while streaming stops there;
//   - a write that fails on the server's side (the disk, not the client) ends
//     the upload: its bytes are deleted at once, not kept for the expiry,
//     where a full disk stayed full. A body that breaks off keeps what
//     arrived, so the client resumes from there;
//   - an upload whose bytes last changed more than the expiry ago is gone:
//     the request that finds it removes it, and a sweep reclaims the ones
//     nobody asks for;
//   - tusd never gets an error with a path in it: the cause goes through
//     Options.Fail, which logs it and gives the caller's answer.
package resumable

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	tusd "github.com/tus/tusd/v2/pkg/handler"

	"github.com/devhub/devhub/pkg/internal/freespace"
	"github.com/devhub/devhub/pkg/internal/random"
	"github.com/devhub/devhub/pkg/quota"
)

// Metadata keys the server sets on every upload (client values replaced):
// the owner and the file name, and for a ROM the target and console (the
// one resolved at creation) and the display name.
const (
	MetaUser     = "devhub-user"
	MetaFilename = "filename"
	MetaTarget   = "target"
	MetaConsole  = "console"
	MetaName     = "name"
	// MetaVisibility is the file's visibility, public or private, as the
	// client asked at creation (checked then; absent: public).
	MetaVisibility = "visibility"
	// MetaReplace is "true" on a ROM upload that replaces the ROM of its
	// file name (checked at creation).
	MetaReplace = "replace"
)

// TargetROM is the target of an admin's ROM upload (no target: a file of
// the file cloud). A ROM is not counted in the file quota.
const TargetROM = "rom"

// DefaultExpiry is how long an idle upload is kept when files.tus_expiry
// does not say.
const DefaultExpiry = 24 * time.Hour

// Dir is where the unfinished uploads of the uploads directory uploadsDir
// are staged: a hidden directory in it, so they fill the uploads' disk,
// never the store's. The file cloud lists, sweeps and migrates only the
// names it generates, and the backup is the store alone, so none of them
// meets it.
func Dir(uploadsDir string) string { return filepath.Join(uploadsDir, ".tus") }

// DropLegacy deletes the unfinished uploads an older version staged in dir
// (beside the store: their clients start them again, and a resume answers
// 404), and the directory once empty: they held the store's disk, and one
// that filled it kept every sign-in failing across restarts. Only staged
// names (ValidID, with .info) are removed.
func DropLegacy(dir string, log *slog.Logger) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	n := 0
	for _, e := range entries {
		id := strings.TrimSuffix(e.Name(), ".info")
		if !e.Type().IsRegular() || !ValidID(id) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err == nil && e.Name() == id {
			n++
		}
	}
	os.Remove(dir) // only when empty
	if n > 0 {
		log.Info("deleted unfinished resumable uploads staged beside the store by an older version", slog.Int("uploads", n))
	}
}

// Options configure New.
type Options struct {
	// Dir is the staging directory (Dir of the uploads directory).
	Dir string
	// Expiry is how long an upload is kept after its bytes last changed
	// (files.tus_expiry); 0 is DefaultExpiry.
	Expiry time.Duration
	// Reserve is the free space kept on the disks (nil keeps none).
	Reserve *freespace.Reserve
	// Quota is every account's storage quota; nil leaves storage unlimited.
	Quota *quota.Service
	Log   *slog.Logger
	// Fail turns an error met while serving tusd into the answer tusd
	// gives; nil hands it on as it is.
	Fail func(error) error
}

// Staging is the unfinished uploads of one directory: tusd's data store
// (NewUpload, GetUpload, AsTerminatableUpload) and devhub's view of them.
type Staging struct {
	dir     string
	expiry  time.Duration
	reserve *freespace.Reserve
	quota   *quota.Service
	log     *slog.Logger
	fail    func(error) error
}

// New opens the staging directory, making it (0700) when missing and
// tightening one earlier versions made 0750.
func New(o Options) (*Staging, error) {
	if err := os.MkdirAll(o.Dir, 0o700); err != nil {
		return nil, err
	}
	if err := os.Chmod(o.Dir, 0o700); err != nil {
		return nil, err
	}
	s := &Staging{dir: o.Dir, expiry: o.Expiry, reserve: o.Reserve, quota: o.Quota, log: o.Log, fail: o.Fail}
	if s.expiry <= 0 {
		s.expiry = DefaultExpiry
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.fail == nil {
		s.fail = func(err error) error { return err }
	}
	return s, nil
}

// ValidID is the shape of the ids staged uploads get (32 hex digits);
// anything else never reaches the directory, so no path can be made from a
// request.
func ValidID(id string) bool {
	if len(id) != 32 {
		return false
	}
	for _, c := range id {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// Dir is the staging directory (for the free-space check of a new upload,
// whose staged bytes take room there).
func (s *Staging) Dir() string { return s.dir }

// Path is where an upload's bytes are (the finished upload is read from
// there).
func (s *Staging) Path(id string) string { return filepath.Join(s.dir, id) }

func (s *Staging) infoPath(id string) string { return filepath.Join(s.dir, id+".info") }

// Expires is when an upload whose bytes last changed at modified expires.
func (s *Staging) Expires(modified time.Time) time.Time { return modified.Add(s.expiry) }

// Expired reports whether an upload whose bytes last changed at modified
// has expired.
func (s *Staging) Expired(modified time.Time) bool { return time.Now().After(s.Expires(modified)) }

// Info reads an upload's record and when its bytes last changed.
func (s *Staging) Info(ctx context.Context, id string) (tusd.FileInfo, time.Time, error) {
	up, err := s.GetUpload(ctx, id)
	if err != nil {
		return tusd.FileInfo{}, time.Time{}, err
	}
	info, err := up.GetInfo(ctx)
	if err != nil {
		return tusd.FileInfo{}, time.Time{}, err
	}
	fi, err := os.Stat(s.Path(id))
	if err != nil {
		return tusd.FileInfo{}, time.Time{}, err
	}
	return info, fi.ModTime(), nil
}

// Remove deletes an upload's bytes and record.
func (s *Staging) Remove(id string) {
	for _, p := range []string{s.Path(id), s.infoPath(id)} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			s.log.Warn("could not remove an unfinished upload", slog.String("path", p), slog.Any("err", err))
		}
	}
}

// Sweep deletes unfinished uploads that expired, and stray files; it logs
// and returns how many uploads went.
func (s *Staging) Sweep() int {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		s.log.Warn("tus sweep", slog.Any("err", err))
		return 0
	}
	n := 0
	for _, e := range entries {
		id := strings.TrimSuffix(e.Name(), ".info")
		fi, err := os.Stat(s.Path(id))
		switch {
		case !ValidID(id):
			continue
		case err == nil && !s.Expired(fi.ModTime()):
			continue
		case errors.Is(err, os.ErrNotExist) && e.Name() == id+".info":
			// A record whose bytes are gone is only worth keeping while it is
			// young (tusd writes the record first).
			if info, ierr := e.Info(); ierr == nil && !s.Expired(info.ModTime()) {
				continue
			}
		}
		if e.Name() == id { // count each upload once
			n++
		}
		s.Remove(id)
	}
	if n > 0 {
		s.log.Info("deleted expired unfinished uploads", slog.Int("uploads", n))
	}
	return n
}

// SweepEvery sweeps every few minutes (a quarter of the expiry, at most
// ten minutes) until stop is closed.
func (s *Staging) SweepEvery(stop <-chan struct{}) {
	tick := time.NewTicker(min(s.expiry/4, 10*time.Minute))
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			s.Sweep()
		}
	}
}

// CheckQuota refuses an upload of size bytes (except: its own id, when it
// exists) with a *quota.ExceededError when the user's quota has no room for
// it beside what the user's other unfinished uploads may still bring, and
// says what those hold. Staged bytes are not stored files, but they fill the
// server's disk all the same: without counting them, one account could
// stage any number of uploads each just under its quota and keep them for
// the expiry.
func (s *Staging) CheckQuota(ctx context.Context, userID uint64, except string, size int64) (held quota.Amount, err error) {
	if s.quota == nil {
		return held, nil
	}
	if l, err := s.quota.Limit(userID); err == nil && l.Bytes == nil && l.Files == nil {
		return held, nil // unlimited: no need to read the staged uploads' records
	}
	held = s.held(ctx, userID, except)
	return held, s.quota.Check(userID, quota.Amount{Bytes: size, Files: 1}.Add(held))
}

// Counted reports whether an upload counts in its owner's file quota (a
// ROM does not).
func (s *Staging) Counted(info tusd.FileInfo) bool {
	return s.quota != nil && info.MetaData[MetaTarget] != TargetROM
}

// held is what a user's unfinished uploads of files (not ROMs, not expired,
// not except) may still bring: their announced lengths, one file each.
func (s *Staging) held(ctx context.Context, userID uint64, except string) quota.Amount {
	var a quota.Amount
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return a
	}
	owner := strconv.FormatUint(userID, 10)
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".info")
		if !ok || id == except || !ValidID(id) {
			continue
		}
		info, modified, err := s.Info(ctx, id)
		if err != nil || info.MetaData[MetaUser] != owner || info.MetaData[MetaTarget] == TargetROM || s.Expired(modified) {
			continue
		}
		a = a.Add(quota.Amount{Bytes: info.Size, Files: 1})
	}
	return a
}

// NewUpload creates an upload's (empty) bytes and its record under a new id
// of ValidID's shape.
func (s *Staging) NewUpload(_ context.Context, info tusd.FileInfo) (tusd.Upload, error) {
	info.ID = random.Hex(16)
	info.Storage = nil
	u := &staged{s: s, info: info}
	f, err := os.OpenFile(s.Path(info.ID), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		err = f.Close()
	}
	if err == nil {
		err = u.writeInfo()
	}
	if err != nil {
		u.discard()
		return nil, s.fail(freespace.Wrap(err))
	}
	return u, nil
}

// GetUpload reads an upload's record; its offset is the length of its bytes.
func (s *Staging) GetUpload(_ context.Context, id string) (tusd.Upload, error) {
	if !ValidID(id) {
		return nil, tusd.ErrNotFound
	}
	data, err := os.ReadFile(s.infoPath(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, tusd.ErrNotFound
	} else if err != nil {
		return nil, s.fail(err)
	}
	var info tusd.FileInfo
	if err := json.Unmarshal(data, &info); err != nil || info.ID != id {
		return nil, s.fail(errors.New("tus: the record of upload " + id + " is damaged"))
	}
	fi, err := os.Stat(s.Path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, tusd.ErrNotFound
	} else if err != nil {
		return nil, s.fail(err)
	}
	info.Offset = fi.Size()
	return &staged{s: s, info: info}, nil
}

// AsTerminatableUpload: every staged upload can be cancelled.
func (s *Staging) AsTerminatableUpload(u tusd.Upload) tusd.TerminatableUpload {
	return u.(*staged)
}

// staged is one staged upload.
type staged struct {
	s    *Staging
	info tusd.FileInfo
}

func (u *staged) GetInfo(context.Context) (tusd.FileInfo, error) { return u.info, nil }

func (u *staged) writeInfo() error {
	data, err := json.Marshal(u.info)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(u.s.infoPath(u.info.ID), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// WriteChunk appends src to the upload's bytes (tusd has checked the offset
// and bounds src to what the upload has left).
func (u *staged) WriteChunk(_ context.Context, offset int64, src io.Reader) (int64, error) {
	if err := u.s.reserve.Check(u.info.Size-offset, u.s.dir); err != nil {
		u.discard()
		return 0, u.s.fail(err)
	}
	f, err := os.OpenFile(u.s.Path(u.info.ID), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return 0, u.s.fail(err)
	}
	body := &readFailure{r: src}
	n, err := io.Copy(u.s.reserve.Writer(f, u.s.dir), body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	u.info.Offset = offset + n
	switch {
	case err == nil:
		return n, nil
	case body.err != nil:
		// The body broke off (or tusd cut it at the upload's length): what
		// arrived stays, and the client resumes from the new offset.
		return n, body.err
	}
	u.discard()
	return 0, u.s.fail(freespace.Wrap(err))
}

func (u *staged) GetReader(context.Context) (io.ReadCloser, error) {
	return os.Open(u.s.Path(u.info.ID))
}

func (u *staged) FinishUpload(context.Context) error { return nil }

// Terminate deletes the upload's bytes and record.
func (u *staged) Terminate(context.Context) error {
	for _, p := range []string{u.s.Path(u.info.ID), u.s.infoPath(u.info.ID)} {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return u.s.fail(err)
		}
	}
	return nil
}

// discard deletes what the upload staged, after a write the server failed.
func (u *staged) discard() {
	if err := u.Terminate(context.Background()); err != nil {
		u.s.log.Warn("could not delete a failed unfinished upload; the expiry sweep will", slog.String("upload", u.info.ID))
	}
}

// readFailure remembers an error reading the request body, so a failed
// copy tells the client's side from the disk's.
type readFailure struct {
	r   io.Reader
	err error
}

func (r *readFailure) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		r.err = err
	}
	return n, err
}
