package thumbs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/devhub/devhub/pkg/internal/random"
)

// Generation is part of every thumbnail's version: raising it (a new size
// or quality) gives every thumbnail a new name and URL, so browsers that
// keep the old ones forever (immutable caching) ask for the new ones, and
// the start-up pass makes them and removes the old.
const Generation = 1

// queueSize bounds the uploads waiting for a thumbnail. When it is full a
// new upload gets none until the next start-up pass makes it: uploads are
// never slowed down by thumbnails.
const queueSize = 1024

// Source is one image file: the file's id and a hash of its content (the
// hex SHA-256 the file store keeps). The hash names the thumbnail, so a
// thumbnail can never be served for other bytes under a reused id.
type Source struct {
	ID   uint64
	Hash string
}

// Version is the thumbnail's version, the same for the same content and
// Generation: it is in the thumbnail's file name and in its URL.
func (s Source) Version() string {
	h := s.Hash
	if len(h) > 16 {
		h = h[:16]
	}
	return h + "-" + strconv.Itoa(Generation)
}

func (s Source) name(ext string) string {
	return strconv.FormatUint(s.ID, 10) + "-" + s.Version() + ext
}

// Names inside the thumbnail directory: a thumbnail, the marker of an
// image that gets none (its content is the reason), a temp file.
const (
	extThumb   = ".jpg"
	extRefused = ".none"
	tempPrefix = ".tmp-"
)

// ErrNotFound means there is no thumbnail (not made yet, or refused).
var ErrNotFound = errors.New("no thumbnail")

// Opener opens a file's bytes by id. Only Read, Seek and Close are used,
// so any storage backend can provide them.
type Opener func(id uint64) (io.ReadSeekCloser, error)

// Service keeps thumbnails in a directory and makes them in the
// background, one at a time: decoding is the expensive part, and one at a
// time bounds both its CPU and its memory (Limits) whatever the uploads.
type Service struct {
	dir    string
	root   *os.Root
	open   Opener
	limits Limits
	log    *slog.Logger

	mu sync.Mutex
	// state is what the directory holds, by name: true for a thumbnail,
	// false for a refused image. It answers Has without touching the disk.
	state map[string]bool
	ver   atomic.Uint64

	work    sync.Mutex // one thumbnail at a time
	queue   chan Source
	pending sync.WaitGroup
	ctx     context.Context
	cancel  context.CancelFunc
	done    chan struct{}
	started bool
}

// New opens (creating) the thumbnail directory and reads what it holds;
// Start begins making thumbnails.
func New(dir string, open Opener, limits Limits, log *slog.Logger) (*Service, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// 0700 and 0600 inside: thumbnails show users' images, private ones
	// too. Earlier versions made the directory 0750.
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("thumbs: create directory: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("thumbs: directory mode: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("thumbs: open directory: %w", err)
	}
	s := &Service{dir: dir, root: root, open: open, limits: limits, log: log, state: map[string]bool{},
		queue: make(chan Source, queueSize), done: make(chan struct{})}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	entries, err := os.ReadDir(dir)
	if err != nil {
		root.Close()
		return nil, fmt.Errorf("thumbs: read directory: %w", err)
	}
	for _, e := range entries {
		n := e.Name()
		switch {
		case strings.HasPrefix(n, tempPrefix):
			root.Remove(n) // an interrupted write
		case strings.HasSuffix(n, extThumb):
			s.state[strings.TrimSuffix(n, extThumb)] = true
		case strings.HasSuffix(n, extRefused):
			s.state[strings.TrimSuffix(n, extRefused)] = false
		}
	}
	return s, nil
}

// Start runs the worker that makes the thumbnails of enqueued uploads.
func (s *Service) Start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return
	}
	s.started = true
	go func() {
		defer close(s.done)
		for {
			select {
			case <-s.ctx.Done():
				for {
					select {
					case <-s.queue:
						s.pending.Done()
					default:
						return
					}
				}
			case src := <-s.queue:
				s.makeOne(src)
				s.pending.Done()
			}
		}
	}()
}

// Close stops the work (a thumbnail being made is finished) and releases
// the directory.
func (s *Service) Close() error {
	s.cancel()
	s.mu.Lock()
	started := s.started
	s.mu.Unlock()
	if started {
		<-s.done
	}
	s.work.Lock() // a backfill between two images
	defer s.work.Unlock()
	return s.root.Close()
}

// Version changes whenever a thumbnail is made or removed: an answer that
// says which files have one stays right while it is the same.
func (s *Service) Version() uint64 { return s.ver.Load() }

// Has says whether src has a thumbnail.
func (s *Service) Has(src Source) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state[src.name("")]
}

// Open returns src's thumbnail (JPEG) and its size, or ErrNotFound.
func (s *Service) Open(src Source) (*os.File, int64, error) {
	if !s.Has(src) {
		return nil, 0, ErrNotFound
	}
	f, err := s.root.Open(src.name(extThumb))
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %v", ErrNotFound, err)
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, 0, ErrNotFound
	}
	return f, fi.Size(), nil
}

// Enqueue asks for src's thumbnail in the background and returns at once;
// false when the queue is full (the next start-up pass makes it) or the
// service is closed.
func (s *Service) Enqueue(src Source) bool {
	if s.ctx.Err() != nil {
		return false
	}
	s.pending.Add(1)
	select {
	case s.queue <- src:
		return true
	default:
		s.pending.Done()
		s.log.Warn("thumbnail queue full: made at the next start", slog.Uint64("id", src.ID))
		return false
	}
}

// Wait returns when every enqueued thumbnail is done (tests, shutdown).
func (s *Service) Wait() { s.pending.Wait() }

// Remove deletes src's thumbnail or refusal marker (the file was deleted).
func (s *Service) Remove(src Source) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.removeLocked(src.name(""))
}

func (s *Service) removeLocked(base string) bool {
	had, ok := s.state[base]
	if !ok {
		return false
	}
	ext := extRefused
	if had {
		ext = extThumb
	}
	if err := s.root.Remove(base + ext); err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.log.Warn("thumbnail not removed", slog.String("name", base+ext), slog.Any("err", err))
		return false
	}
	delete(s.state, base)
	s.ver.Add(1)
	return true
}

// Result counts what a Backfill did.
type Result struct {
	// Made thumbnails; Existing ones already there (or refused before).
	Made, Existing int
	// Refused images by reason (Reason).
	Refused map[string]int
}

// Sweep removes the thumbnails (and refusal markers) of every file not in
// keep — files deleted while the server was not running, or thumbnails of
// an older Generation — and returns how many. Run it before uploads are
// accepted: a thumbnail made meanwhile for a file not in keep would go. Like
// Backfill it stops early when ctx ends (Ctrl-C during start-up); what it
// left is swept at the next start.
func (s *Service) Sweep(ctx context.Context, keep []Source) int {
	want := make(map[string]bool, len(keep))
	for _, src := range keep {
		want[src.name("")] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var gone []string
	for base := range s.state {
		if !want[base] {
			gone = append(gone, base)
		}
	}
	sort.Strings(gone)
	n := 0
	for _, base := range gone {
		if ctx.Err() != nil {
			break
		}
		if s.removeLocked(base) {
			n++
		}
	}
	return n
}

// Backfill makes the missing thumbnails of srcs (every image file, at
// start-up), one at a time, without retrying images refused before. It
// stops early when the service closes or ctx ends.
func (s *Service) Backfill(ctx context.Context, srcs []Source) Result {
	res := Result{Refused: map[string]int{}}
	for _, src := range srcs {
		if ctx.Err() != nil || s.ctx.Err() != nil {
			break
		}
		s.mu.Lock()
		_, known := s.state[src.name("")]
		s.mu.Unlock()
		if known {
			res.Existing++
			continue
		}
		if err := s.makeOne(src); err != nil {
			res.Refused[Reason(err)]++
		} else {
			res.Made++
		}
	}
	return res
}

// Reason is a short, log-friendly reason for a refusal.
func Reason(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrTooLarge):
		return "too large"
	case errors.Is(err, ErrUnsupported):
		return "unsupported format"
	case errors.Is(err, ErrCorrupt):
		return "corrupt"
	case errors.Is(err, errPanic):
		return "decoder panic"
	}
	return "unreadable"
}

var errPanic = errors.New("panic while making a thumbnail")

// makeOne makes src's thumbnail (or records why there is none), one at a
// time; a panic in a decoder is recovered, logged and recorded as a
// refusal, never taking the process down. A file that cannot be opened is
// not recorded: the next start tries again.
func (s *Service) makeOne(src Source) (err error) {
	s.work.Lock()
	defer s.work.Unlock()
	if s.ctx.Err() != nil {
		return s.ctx.Err()
	}
	if s.Has(src) {
		return nil
	}
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("thumbnail: panic recovered", slog.Uint64("id", src.ID), slog.Any("panic", p),
				slog.String("stack", string(debug.Stack())))
			err = fmt.Errorf("%w: %v", errPanic, p)
			s.record(src, nil, err)
		}
	}()
	started := time.Now()
	r, err := s.open(src.ID)
	if err != nil {
		s.log.Warn("thumbnail: file not readable", slog.Uint64("id", src.ID), slog.Any("err", err))
		return err
	}
	defer r.Close()
	data, err := Make(r, s.limits)
	if err != nil {
		s.log.Info("no thumbnail for image", slog.Uint64("id", src.ID), slog.String("reason", Reason(err)), slog.Any("err", err))
	} else {
		s.log.Debug("thumbnail made", slog.Uint64("id", src.ID), slog.Int("bytes", len(data)),
			slog.Duration("took", time.Since(started)))
	}
	if rerr := s.record(src, data, err); rerr != nil {
		s.log.Warn("thumbnail not written", slog.Uint64("id", src.ID), slog.Any("err", rerr))
		if err == nil {
			err = rerr
		}
	}
	return err
}

// record writes a thumbnail (or, for a refused image, a marker holding the
// reason) atomically: a temp file renamed into place, so a reader sees the
// whole thumbnail or none. No fsync: a cache lost in a crash is remade.
func (s *Service) record(src Source, data []byte, refusal error) error {
	base, ext := src.name(""), extThumb
	if refusal != nil {
		ext, data = extRefused, []byte(refusal.Error()+"\n")
	}
	tmp := tempPrefix + random.Hex(8)
	f, err := s.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = s.root.Rename(tmp, base+ext)
	}
	if werr != nil {
		s.root.Remove(tmp)
		return werr
	}
	s.mu.Lock()
	s.state[base] = refusal == nil
	s.mu.Unlock()
	s.ver.Add(1)
	return nil
}

// Path is where src's thumbnail is (for messages and tests).
func (s *Service) Path(src Source) string { return filepath.Join(s.dir, src.name(extThumb)) }
