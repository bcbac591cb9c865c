package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	tusd "github.com/tus/tusd/v2/pkg/handler"

	"github.com/devhub/devhub/pkg/internal/freespace"
	"github.com/devhub/devhub/pkg/internal/random"
)

// tusStaging keeps unfinished resumable uploads in one directory, laid out
// as tusd's filestore lays them out (<id> holds the bytes, <id>.info the
// upload's record; the expiry sweep and the quota's count of held uploads
// read them so), with devhub's rules for staged bytes:
//   - files 0600 in a 0700 directory: they are users' bytes, readable by
//     no one else on the machine, before they become files;
//   - a PATCH is held to the free-space reserve (storage.min_free_bytes):
//     one whose remaining length would go below it is refused before a byte
//     is written, and one that would cross it while streaming stops there;
//   - a write that fails on the server's side (the disk, not the client)
//     ends the upload: its bytes are deleted at once, not kept for
//     files.tus_expiry, where a full disk stayed full; the answer is 507
//     when there was no room, else 500. A body that breaks off keeps what
//     arrived, so the client resumes from there;
//   - tusd never gets an error with a path in it: the cause is logged and
//     the answer is the API's (fail).
type tusStaging struct {
	dir     string
	reserve *freespace.Reserve
	log     *slog.Logger
	// fail turns an error into tusd's answer in the API's error shape.
	fail func(error) error
}

func (s *tusStaging) binPath(id string) string  { return filepath.Join(s.dir, id) }
func (s *tusStaging) infoPath(id string) string { return filepath.Join(s.dir, id+".info") }

// NewUpload creates an upload's (empty) bytes and its record under a new id
// of validTusID's shape.
func (s *tusStaging) NewUpload(_ context.Context, info tusd.FileInfo) (tusd.Upload, error) {
	info.ID = random.Hex(16)
	info.Storage = nil
	u := &tusStaged{s: s, info: info}
	f, err := os.OpenFile(s.binPath(info.ID), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
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
func (s *tusStaging) GetUpload(_ context.Context, id string) (tusd.Upload, error) {
	if !validTusID(id) {
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
	fi, err := os.Stat(s.binPath(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, tusd.ErrNotFound
	} else if err != nil {
		return nil, s.fail(err)
	}
	info.Offset = fi.Size()
	return &tusStaged{s: s, info: info}, nil
}

// AsTerminatableUpload: every staged upload can be cancelled.
func (s *tusStaging) AsTerminatableUpload(u tusd.Upload) tusd.TerminatableUpload {
	return u.(*tusStaged)
}

// tusStaged is one staged upload.
type tusStaged struct {
	s    *tusStaging
	info tusd.FileInfo
}

func (u *tusStaged) GetInfo(context.Context) (tusd.FileInfo, error) { return u.info, nil }

func (u *tusStaged) writeInfo() error {
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
func (u *tusStaged) WriteChunk(_ context.Context, offset int64, src io.Reader) (int64, error) {
	if err := u.s.reserve.Check(u.info.Size-offset, u.s.dir); err != nil {
		u.discard()
		return 0, u.s.fail(err)
	}
	f, err := os.OpenFile(u.s.binPath(u.info.ID), os.O_WRONLY|os.O_APPEND, 0)
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

func (u *tusStaged) GetReader(context.Context) (io.ReadCloser, error) {
	return os.Open(u.s.binPath(u.info.ID))
}

func (u *tusStaged) FinishUpload(context.Context) error { return nil }

// Terminate deletes the upload's bytes and record.
func (u *tusStaged) Terminate(context.Context) error {
	for _, p := range []string{u.s.binPath(u.info.ID), u.s.infoPath(u.info.ID)} {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return u.s.fail(err)
		}
	}
	return nil
}

// discard deletes what the upload staged, after a write the server failed.
func (u *tusStaged) discard() {
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
