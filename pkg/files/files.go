// Package files is the file cloud: uploads streamed straight into the
// uploads directory under server-generated names, their metadata in bbolt,
// and the grouping of files by type. It knows nothing about HTTP: the API
// and the `devhub file` commands call the same methods.
//
// Every access inside the uploads directory goes through an os.Root, so a
// symlink planted there (or a name that tries to climb out) can never make
// the service read, write or delete anything outside it.
package files

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/freespace"
	"github.com/devhub/devhub/pkg/quota"
	"github.com/devhub/devhub/pkg/storage"
	"github.com/devhub/devhub/pkg/store"
)

// bucketName holds one JSON record per file, keyed by its id.
const bucketName = "files"

// ErrTooLarge means an upload went past files.max_upload_bytes; nothing of
// it was kept.
var ErrTooLarge error = store.Refuse(store.KindTooLarge, "upload exceeds the maximum upload size")

// ErrNoSpace means the disk (or the user's filesystem quota) is full, or
// the upload would go below the free-space reserve: nothing of it is kept.
// It is freespace.ErrNoSpace, the one sentinel of every such refusal.
var ErrNoSpace = freespace.ErrNoSpace

// ErrTooManyParts means a multipart upload had more parts than allowed;
// nothing of it is kept.
var ErrTooManyParts = errors.New("too many parts in the upload")

// ErrNoFiles means an upload carried no file at all.
var ErrNoFiles = errors.New("no files in the upload")

// Type groups, as the spec names them on a file.
const (
	TypeImage    = "image"
	TypeVideo    = "video"
	TypeAudio    = "audio"
	TypeDocument = "document"
	TypeOther    = "other"
)

// File is the metadata of one stored file. The bytes live in the uploads
// directory under StoredName, which the server generated; OriginalName is
// only ever shown, never used as a path.
type File struct {
	ID           uint64 `json:"id"`
	OriginalName string `json:"original_name"`
	StoredName   string `json:"stored_name"`
	// Storage is the backend holding the bytes (storage.Local when empty).
	Storage    string    `json:"storage,omitempty"`
	Size       int64     `json:"size"`
	MimeType   string    `json:"mime_type"`
	Type       string    `json:"type"`
	SHA256     string    `json:"sha256"`
	UploaderID uint64    `json:"uploader_id"`
	Uploader   string    `json:"uploader"`
	UploadedAt time.Time `json:"uploaded_at"`
	// Visibility is "" (public, also every record older than the field)
	// or Private (visibility.go).
	Visibility string `json:"visibility,omitempty"`
}

// Uploader says who added a file: a signed-in user, or the owner on the CLI
// (ID 0).
type Uploader struct {
	ID   uint64
	Name string
}

// Groups is the list grouped the way the file cloud page shows it.
type Groups struct {
	Images    []File `json:"images"`
	Videos    []File `json:"videos"`
	Audio     []File `json:"audio"`
	Documents []File `json:"documents"`
	Other     []File `json:"other"`
}

// Service stores and serves the file cloud.
type Service struct {
	st       *store.Store
	dir      string
	maxBytes int64
	log      *slog.Logger
	now      func() time.Time
	ix       *index
	// local is the uploads directory, always open: the default backend,
	// and where files stored before another backend was chosen stay until
	// `devhub storage migrate` moves them.
	local *storage.LocalStore
	// primary receives new uploads; stores holds every backend by name.
	primary storage.Store
	stores  map[string]storage.Store
	// quota, when set, bounds what each uploader stores.
	quota *quota.Service
	// reserve, when set, is the free space uploads leave on the disks
	// (UseReserve).
	reserve *freespace.Reserve
	// hooks are told about committed changes (SetHooks).
	hooks atomic.Pointer[Hooks]
}

// AddBackend makes another backend's files readable (and a target for
// Migrate).
func (s *Service) AddBackend(st storage.Store) { s.stores[st.Name()] = st }

// UseBackend makes the named backend (added before, or storage.Local) the
// one new uploads go to: storage.backend.
func (s *Service) UseBackend(name string) error {
	st, ok := s.stores[name]
	if !ok {
		return fmt.Errorf("files: storage backend %q: %w", name, ErrBackendMissing)
	}
	s.primary = st
	return nil
}

// storeOf is the backend holding f's bytes.
func (s *Service) storeOf(f *File) (storage.Store, error) {
	name := f.Storage
	if name == "" {
		name = storage.Local
	}
	st, ok := s.stores[name]
	if !ok {
		return nil, fmt.Errorf("file %d is stored in %q, which is not configured (storage.backend): %w", f.ID, name, ErrBackendMissing)
	}
	return st, nil
}

// IsStoredName tells a key this package generated from anything else that
// may sit in a backend (the backends only ever list and sweep those).
func IsStoredName(key string) bool { return validStoredName(key) }

// PingStorage is the readiness of the backend new uploads go to: it
// answers a lookup of an object that is not there (local directory or
// object store alike).
func (s *Service) PingStorage(ctx context.Context) error {
	probe := strings.Repeat("0", storedNameLen)
	if _, err := s.primary.Stat(ctx, probe); err != nil && !errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("the %s storage does not answer", s.primary.Name())
	}
	return nil
}

// ErrBackendMissing means a file's bytes live in a backend this instance
// is not configured for.
var ErrBackendMissing = errors.New("storage backend not configured")

// UseQuota makes every upload count against its uploader's quota, and
// counts the file cloud in that quota.
func (s *Service) UseQuota(q *quota.Service) {
	s.quota = q
	q.AddMeter(s.Usage)
}

// UseReserve holds every upload to the free-space reserve: refused
// (ErrNoSpace) when its announced length would go below it (CheckSpace),
// stopped when its bytes would cross it.
func (s *Service) UseReserve(r *freespace.Reserve) { s.reserve = r }

// CheckSpace refuses (ErrNoSpace) an upload of n bytes that would leave
// less than the free-space reserve: on the uploads directory's disk when
// new uploads go there, and on each of also's (where the bytes wait
// meanwhile: a resumable upload's staging).
func (s *Service) CheckSpace(n int64, also ...string) error {
	dirs := also
	if s.primary == storage.Store(s.local) {
		dirs = append(dirs, s.dir)
	}
	return s.reserve.Check(n, dirs...)
}

// Usage is what one uploader stores in the file cloud.
func (s *Service) Usage(uploaderID uint64) quota.Amount {
	u := s.ix.usageOf(uploaderID)
	return quota.Amount{Bytes: u.bytes, Files: u.files}
}

// New opens the uploads directory (creating it) and the files bucket.
// maxBytes bounds one upload (all files of one request or command); log
// (may be nil) receives what the service cleans up behind the scenes.
func New(st *store.Store, uploadsDir string, maxBytes int64, log *slog.Logger) (*Service, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if maxBytes <= 0 {
		return nil, fmt.Errorf("files: max upload bytes must be positive, got %d", maxBytes)
	}
	local, err := storage.NewLocal(uploadsDir, validStoredName)
	if err != nil {
		return nil, fmt.Errorf("files: %w", err)
	}
	if err := st.EnsureBuckets(bucketName); err != nil {
		local.Close()
		return nil, err
	}
	s := &Service{st: st, dir: uploadsDir, local: local, primary: local, stores: map[string]storage.Store{storage.Local: local},
		maxBytes: maxBytes, log: log, now: time.Now, ix: newIndex()}
	err = st.View(func(tx *bolt.Tx) error {
		return store.ForEachJSON(tx.Bucket([]byte(bucketName)), func(_ []byte, f *File) error {
			s.ix.put(*f)
			return nil
		})
	})
	if err != nil {
		local.Close()
		return nil, fmt.Errorf("files: load the file list: %w", err)
	}
	return s, nil
}

// Close releases the uploads directory handle.
func (s *Service) Close() error { return s.local.Close() }

// MaxBytes is the upload size limit.
func (s *Service) MaxBytes() int64 { return s.maxBytes }

// Dir is the uploads directory (for messages and tests).
func (s *Service) Dir() string { return s.dir }

// Get returns one file's metadata or store.ErrNotFound.
func (s *Service) Get(id uint64) (*File, error) {
	f, ok := s.ix.get(id)
	if !ok {
		return nil, fmt.Errorf("file %d: %w", id, store.ErrNotFound)
	}
	return &f, nil
}

// List returns every file, newest first.
func (s *Service) List() ([]File, error) {
	out := make([]File, 0, s.ix.len())
	for _, g := range groupTypes {
		page, _ := s.ix.page(g.Group, 1, math.MaxInt32)
		out = append(out, page...)
	}
	// Ids grow with time; newest first is reverse id order.
	sort.Slice(out, func(i, j int) bool { return out[i].ID > out[j].ID })
	return out, nil
}

// Count is the number of files.
func (s *Service) Count() int { return s.ix.len() }

// ListVersion changes whenever the file list does (an upload, a delete):
// an answer built from the list stays right while it is the same.
func (s *Service) ListVersion() uint64 { return s.ix.ver() }

// Grouped returns every file in its type group, newest first; every group
// is a (possibly empty) list, never null.
func (s *Service) Grouped() (*Groups, error) {
	all, err := s.List()
	if err != nil {
		return nil, err
	}
	g := &Groups{Images: []File{}, Videos: []File{}, Audio: []File{}, Documents: []File{}, Other: []File{}}
	for _, f := range all {
		switch f.Type {
		case TypeImage:
			g.Images = append(g.Images, f)
		case TypeVideo:
			g.Videos = append(g.Videos, f)
		case TypeAudio:
			g.Audio = append(g.Audio, f)
		case TypeDocument:
			g.Documents = append(g.Documents, f)
		default:
			g.Other = append(g.Other, f)
		}
	}
	return g, nil
}

// Open returns a file's metadata and its bytes, seekable (ranges), from
// the backend that holds them; the caller closes them. From the local
// directory they are an *os.File opened inside it (sendfile). A record
// whose bytes are missing, are not a regular file, sit behind a symlink
// out of the directory, or do not have the recorded size is reported as
// store.ErrNotFound.
func (s *Service) Open(id uint64) (*File, io.ReadSeekCloser, error) {
	f, err := s.Get(id)
	if err != nil {
		return nil, nil, err
	}
	be, err := s.storeOf(f)
	if err != nil {
		return nil, nil, err
	}
	// Not the caller's context: the reader outlives the handler that asked
	// (the response streams after it returns), and a backend ties its reads
	// to the context it was opened with (S3's object reads).
	r, size, err := be.Open(context.Background(), f.StoredName)
	if err != nil {
		return nil, nil, fmt.Errorf("file %d content: %w (%v)", id, store.ErrNotFound, err)
	}
	// The size on record is what clients are promised (Content-Length);
	// bytes changed behind our back are not served.
	if size != f.Size {
		r.Close()
		return nil, nil, fmt.Errorf("file %d content has %d bytes, record says %d: %w", id, size, f.Size, store.ErrNotFound)
	}
	return f, r, nil
}

// DeleteUploadedBy deletes every file uploader id added (an account being
// deleted with its files) and returns how many; a ctx that ends stops it
// between files.
func (s *Service) DeleteUploadedBy(ctx context.Context, uploaderID uint64) (int, error) {
	return s.forUploadedBy(uploaderID, func(f File) error {
		if _, err := s.Delete(ctx, f.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		return nil
	})
}

// forUploadedBy runs do on each file uploaderID added and returns on how
// many; it stops at do's first error.
func (s *Service) forUploadedBy(uploaderID uint64, do func(f File) error) (int, error) {
	all, err := s.List()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, f := range all {
		if f.UploaderID != uploaderID {
			continue
		}
		if err := do(f); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// Delete removes the record, then the bytes. If removing the bytes fails
// the file is an orphan that the next start-up sweep deletes; the record is
// gone either way, so the file is no longer offered and the call succeeds.
// A ctx that is done stops it before the record goes; once it has gone, the
// bytes are removed whatever becomes of ctx.
func (s *Service) Delete(ctx context.Context, id uint64) (*File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var f File
	err := s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketName))
		if err := store.GetJSON(b, store.Itob(id), &f); err != nil {
			return err
		}
		return b.Delete(store.Itob(id))
	})
	if err != nil {
		return nil, err
	}
	s.ix.remove(id)
	s.deleted(f)
	be, err := s.storeOf(&f)
	if err == nil {
		err = be.Delete(context.WithoutCancel(ctx), f.StoredName)
	}
	if err != nil {
		s.log.Warn("file record deleted, its bytes stay until the next start-up sweep",
			slog.Uint64("id", id), slog.String("stored_name", f.StoredName), slog.Any("err", err))
	}
	return &f, nil
}
