package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
	"golang.org/x/net/http/httpproxy"
)

// PartSize is the size of one part of a multipart upload to S3: S3's
// smallest. Objects may be up to 48 GiB (10 000 parts), far above
// files.max_upload_bytes' default of 4 GiB.
const PartSize = 5 << 20

// partsHeld is how many part buffers one upload holds: one filling from
// the client while the others are on their way to the store. Measured with
// MinIO on the same two cores (make bench): with one part in flight the
// store worked on one part at a time and devhub reached 0.55× of minio-go
// sending two at once; with two in flight devhub keeps pace. Memory stays
// bounded at partsHeld × PartSize = 15 MiB per upload, outside the Go heap
// (see allocPart), whatever the object's size.
const partsHeld = 3

// S3Config locates a bucket on an S3-compatible service.
type S3Config struct {
	// Endpoint is host[:port], or a URL whose scheme chooses TLS
	// ("http://127.0.0.1:9000" for a local MinIO; no scheme means https).
	Endpoint  string
	Bucket    string
	Region    string
	PathStyle bool
	AccessKey string
	SecretKey string
}

// S3Store keeps objects in one bucket.
type S3Store struct {
	c      *minio.Client
	bucket string
	// validKey says which object names are ours (the bucket may be shared).
	validKey func(string) bool
	// plainHTTP: the endpoint has no TLS and is reached without a proxy,
	// so GETs can have connections of their own (see s3Reader.CopyTo).
	plainHTTP bool
}

// NewS3 connects to the bucket, creating it when missing.
func NewS3(ctx context.Context, cfg S3Config, validKey func(string) bool) (*S3Store, error) {
	host, secure := cfg.Endpoint, true
	if u, err := url.Parse(cfg.Endpoint); err == nil && u.Host != "" {
		host, secure = u.Host, u.Scheme != "http"
	}
	if host == "" || cfg.Bucket == "" {
		return nil, errors.New("storage: s3 needs storage.s3.endpoint and storage.s3.bucket")
	}
	lookup := minio.BucketLookupAuto
	if cfg.PathStyle {
		lookup = minio.BucketLookupPath
	}
	c, err := minio.New(host, &minio.Options{
		Creds:        credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""),
		Secure:       secure,
		Region:       cfg.Region,
		BucketLookup: lookup,
	})
	if err != nil {
		return nil, fmt.Errorf("storage: s3 client: %w", err)
	}
	ok, err := c.BucketExists(ctx, cfg.Bucket)
	if err != nil {
		return nil, fmt.Errorf("storage: s3 bucket %q at %s: %w", cfg.Bucket, host, err)
	}
	if !ok {
		if err := c.MakeBucket(ctx, cfg.Bucket, minio.MakeBucketOptions{Region: cfg.Region}); err != nil {
			return nil, fmt.Errorf("storage: create s3 bucket %q: %w", cfg.Bucket, err)
		}
	}
	// minio-go's transport goes through HTTP_PROXY when the environment names
	// one for this host; a GET of devhub's own would not.
	proxy, _ := httpproxy.FromEnvironment().ProxyFunc()(&url.URL{Scheme: "http", Host: host})
	return &S3Store{c: c, bucket: cfg.Bucket, validKey: validKey, plainHTTP: !secure && proxy == nil}, nil
}

// Name is S3.
func (s *S3Store) Name() string { return S3 }

func (s *S3Store) checkKey(key string) error {
	if !s.validKey(key) {
		return fmt.Errorf("storage: invalid key %q: %w", key, ErrNotFound)
	}
	return nil
}

// Create collects the bytes into parts and sends each as soon as it is
// full, while the next one fills. Nothing is visible under key until
// Commit: a small object is one PUT then, a larger one a multipart upload
// completed then. Abort, or any failure, aborts the multipart upload.
//
// minio-go's own streaming PutObject was measured first: one part at a
// time cannot overlap receiving with sending, and its concurrent mode held
// about 30 MiB on the heap for a single upload; this writer holds exactly
// partsHeld buffers off the heap.
func (s *S3Store) Create(ctx context.Context, key string, _ int64) (Writer, error) {
	if err := s.checkKey(key); err != nil {
		return nil, err
	}
	// The upload outlives a cancelled request only long enough to be
	// completed or aborted cleanly.
	return &s3Writer{s: s, core: minio.Core{Client: s.c}, key: key, ctx: context.WithoutCancel(ctx)}, nil
}

type s3Writer struct {
	s    *S3Store
	core minio.Core
	key  string
	ctx  context.Context

	// bufs are the writer's part buffers, made when first needed and
	// reused in turn for its whole life, freed when it ends.
	bufs     [][]byte
	cur      []byte // the part filling (nil until the first byte)
	n        int    // bytes in cur
	uploadID string
	parts    []minio.CompletePart
	inFlight []chan partResult // parts on their way, oldest first
	readers  []*partReader     // every part body handed to the HTTP client
	err      error
	ended    bool
}

type partResult struct {
	part minio.CompletePart
	buf  []byte
	err  error
}

func (w *s3Writer) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		if w.err != nil {
			return written, w.err
		}
		if w.cur == nil {
			if w.cur = w.freeBuffer(); w.cur == nil {
				return written, w.err
			}
			w.n = 0
		}
		c := copy(w.cur[w.n:], p)
		w.n += c
		written += c
		p = p[c:]
		if w.n == PartSize {
			w.sendPart()
		}
	}
	return written, w.err
}

// freeBuffer returns a buffer for the next part: a new one while fewer than
// partsHeld exist, else the oldest part's once it has arrived.
func (w *s3Writer) freeBuffer() []byte {
	if len(w.bufs) < partsHeld {
		b, err := allocPart()
		if err != nil {
			w.err = fmt.Errorf("storage: s3 part buffer: %w", err)
			return nil
		}
		w.bufs = append(w.bufs, b)
		return b
	}
	buf := w.collectOldest()
	if w.err != nil {
		return nil
	}
	return buf
}

// sendPart starts sending the filled part.
func (w *s3Writer) sendPart() {
	if w.uploadID == "" {
		id, err := w.core.NewMultipartUpload(w.ctx, w.s.bucket, w.key, minio.PutObjectOptions{ContentType: "application/octet-stream"})
		if err != nil {
			w.err = fmt.Errorf("storage: s3 start upload: %w", err)
			return
		}
		w.uploadID = id
	}
	buf, n, num := w.cur, w.n, len(w.parts)+len(w.inFlight)+1
	w.cur, w.n = nil, 0
	body := &partReader{b: buf[:n]}
	w.readers = append(w.readers, body)
	done := make(chan partResult, 1)
	w.inFlight = append(w.inFlight, done)
	go func() {
		op, err := w.core.PutObjectPart(w.ctx, w.s.bucket, w.key, w.uploadID, num,
			body, int64(n), minio.PutObjectPartOptions{DisableContentSha256: true})
		done <- partResult{part: minio.CompletePart{PartNumber: num, ETag: op.ETag}, buf: buf, err: err}
	}()
}

// collectOldest waits for the oldest part on its way and returns its
// buffer. Parts are collected in the order they were sent, so w.parts stays
// in ascending order as CompleteMultipartUpload needs.
func (w *s3Writer) collectOldest() []byte {
	r := <-w.inFlight[0]
	w.inFlight = w.inFlight[1:]
	if r.err != nil && w.err == nil {
		w.err = fmt.Errorf("storage: s3 upload part %d: %w", r.part.PartNumber, r.err)
	}
	if r.err == nil {
		w.parts = append(w.parts, r.part)
	}
	return r.buf
}

// end waits for every part on its way and frees the buffers.
func (w *s3Writer) end() {
	for len(w.inFlight) > 0 {
		w.collectOldest()
	}
	for _, r := range w.readers {
		r.close()
	}
	for _, b := range w.bufs {
		freePart(b)
	}
	w.bufs, w.cur, w.readers = nil, nil, nil
}

// partReader is a part's body for the HTTP client. net/http may go on
// reading a request body after RoundTrip has returned (when the server
// answers early, with an error), and a part's buffer is unmapped when the
// upload ends: close makes any later read fail instead of touching it.
type partReader struct {
	mu     sync.Mutex
	b      []byte
	off    int
	closed bool
}

// writeChunk bounds how long close may wait for a write in progress, while
// keeping the system calls per part few (net/http would copy a body that
// only has Read in 4 KiB steps).
const writeChunk = 256 << 10

func (r *partReader) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return 0, errPartClosed
	}
	if r.off >= len(r.b) {
		return 0, io.EOF
	}
	n := copy(p, r.b[r.off:])
	r.off += n
	return n, nil
}

// WriteTo hands the body to w in chunks of writeChunk.
func (r *partReader) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for {
		r.mu.Lock()
		if r.closed {
			r.mu.Unlock()
			return total, errPartClosed
		}
		if r.off >= len(r.b) {
			r.mu.Unlock()
			return total, nil
		}
		chunk := r.b[r.off:min(r.off+writeChunk, len(r.b))]
		n, err := w.Write(chunk)
		r.off += n
		r.mu.Unlock()
		total += int64(n)
		if err != nil {
			return total, err
		}
	}
}

// Seek rewinds the body for minio-go's retries.
func (r *partReader) Seek(offset int64, whence int) (int64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var abs int64
	switch whence {
	case io.SeekStart:
		abs = offset
	case io.SeekCurrent:
		abs = int64(r.off) + offset
	case io.SeekEnd:
		abs = int64(len(r.b)) + offset
	default:
		return 0, errors.New("storage: part seek: bad whence")
	}
	if abs < 0 || abs > int64(len(r.b)) {
		return 0, errors.New("storage: part seek: out of range")
	}
	r.off = int(abs)
	return abs, nil
}

func (r *partReader) close() {
	r.mu.Lock()
	r.closed = true
	r.b = nil
	r.mu.Unlock()
}

var errPartClosed = errors.New("storage: part body read after its upload ended")

func (w *s3Writer) Commit() error {
	if w.ended {
		return errors.New("storage: write already ended")
	}
	w.ended = true
	defer w.end()
	if w.uploadID == "" && w.err == nil {
		// Everything fitted in one part: one PUT.
		body := &partReader{}
		if w.cur != nil {
			body.b = w.cur[:w.n]
		}
		w.readers = append(w.readers, body)
		_, err := w.s.c.PutObject(w.ctx, w.s.bucket, w.key, body, int64(len(body.b)),
			minio.PutObjectOptions{ContentType: "application/octet-stream", DisableContentSha256: true})
		if err != nil {
			return fmt.Errorf("storage: s3 put: %w", err)
		}
		return nil
	}
	if w.n > 0 && w.err == nil {
		w.sendPart()
	}
	for len(w.inFlight) > 0 {
		w.collectOldest()
	}
	if w.err == nil {
		_, err := w.core.CompleteMultipartUpload(w.ctx, w.s.bucket, w.key, w.uploadID, w.parts, minio.PutObjectOptions{})
		if err != nil {
			w.err = fmt.Errorf("storage: s3 complete upload: %w", err)
		}
	}
	if w.err != nil {
		w.abortUpload()
		return w.err
	}
	return nil
}

func (w *s3Writer) Abort() {
	if w.ended {
		return
	}
	w.ended = true
	w.end()
	w.abortUpload()
}

func (w *s3Writer) abortUpload() {
	if w.uploadID != "" {
		w.core.AbortMultipartUpload(context.Background(), w.s.bucket, w.key, w.uploadID)
	}
}

// Open reads the object through: one GET whose answer gives the size and
// the bytes; a seek elsewhere makes the next read a ranged GET.
//
// The GET's body is read directly. minio-go's Object (measured first) hands
// every read to a goroutine of its own and back: two channel rounds and a
// thread wake-up per socket read, which a 1 GiB download felt (make bench).
func (s *S3Store) Open(ctx context.Context, key string) (io.ReadSeekCloser, int64, error) {
	if err := s.checkKey(key); err != nil {
		return nil, 0, err
	}
	body, size, err := s.get(ctx, key, 0)
	if err != nil {
		return nil, 0, err
	}
	return &s3Reader{s: s, ctx: ctx, key: key, size: size, body: body}, size, nil
}

// get starts a GET of the object from off to its end and returns the body
// and the object's size. Over plain HTTP the GET has a connection of its
// own, so that CopyTo can splice it (see spliceGet); over TLS it goes
// through minio-go's pooled connections.
func (s *S3Store) get(ctx context.Context, key string, off int64) (io.ReadCloser, int64, error) {
	if s.plainHTTP {
		return s.spliceGet(ctx, key, off)
	}
	opts := minio.GetObjectOptions{}
	if off > 0 {
		if err := opts.SetRange(off, 0); err != nil {
			return nil, 0, err
		}
	}
	body, info, _, err := minio.Core{Client: s.c}.GetObject(ctx, s.bucket, key, opts)
	if err != nil {
		return nil, 0, s.notFound(err)
	}
	return body, off + info.Size, nil
}

// s3Reader reads an object from off; body, when open, answers from pos.
type s3Reader struct {
	s        *S3Store
	ctx      context.Context
	key      string
	size     int64
	off, pos int64
	body     io.ReadCloser
	closed   bool
}

func (r *s3Reader) Read(p []byte) (int, error) {
	if r.off >= r.size && !r.closed {
		return 0, io.EOF
	}
	if err := r.at(); err != nil {
		return 0, err
	}
	n, err := r.body.Read(p)
	r.off += int64(n)
	r.pos += int64(n)
	if err == io.EOF && r.off < r.size {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// at makes body answer from off: the GET in progress when it is there,
// else a new one.
func (r *s3Reader) at() error {
	if r.closed {
		return errors.New("storage: s3 read after close")
	}
	if r.body != nil && r.pos != r.off {
		r.body.Close()
		r.body = nil
	}
	if r.body == nil {
		body, _, err := r.s.get(r.ctx, r.key, r.off)
		if err != nil {
			return err
		}
		r.body, r.pos = body, r.off
	}
	return nil
}

// Seek moves where the next read starts; the GET in progress is dropped
// only when that read comes and it is elsewhere.
func (r *s3Reader) Seek(offset int64, whence int) (int64, error) {
	var abs int64
	switch whence {
	case io.SeekStart:
		abs = offset
	case io.SeekCurrent:
		abs = r.off + offset
	case io.SeekEnd:
		abs = r.size + offset
	default:
		return 0, errors.New("storage: s3 seek: bad whence")
	}
	if abs < 0 {
		return 0, errors.New("storage: s3 seek: negative position")
	}
	r.off = abs
	return abs, nil
}

func (r *s3Reader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	if r.body != nil {
		return r.body.Close()
	}
	return nil
}

func (s *S3Store) notFound(err error) error {
	if minio.ToErrorResponse(err).Code == minio.NoSuchKey {
		return fmt.Errorf("%w (%v)", ErrNotFound, err)
	}
	return fmt.Errorf("storage: s3: %w", err)
}

// Stat returns the object's size.
func (s *S3Store) Stat(ctx context.Context, key string) (int64, error) {
	if err := s.checkKey(key); err != nil {
		return 0, err
	}
	st, err := s.c.StatObject(ctx, s.bucket, key, minio.StatObjectOptions{})
	if err != nil {
		return 0, s.notFound(err)
	}
	return st.Size, nil
}

// Delete removes the object (S3 answers a missing one with success).
func (s *S3Store) Delete(ctx context.Context, key string) error {
	if err := s.checkKey(key); err != nil {
		return err
	}
	if err := s.c.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{}); err != nil {
		return fmt.Errorf("storage: s3 delete %s: %w", key, err)
	}
	return nil
}

// List calls fn for every object in the bucket whose name is one of our
// keys.
func (s *S3Store) List(ctx context.Context, fn func(key string) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for obj := range s.c.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Recursive: true}) {
		if obj.Err != nil {
			return fmt.Errorf("storage: s3 list: %w", obj.Err)
		}
		if strings.Contains(obj.Key, "/") || !s.validKey(obj.Key) {
			continue
		}
		if err := fn(obj.Key); err != nil {
			return err
		}
	}
	return nil
}

// SweepIncomplete aborts multipart uploads a killed process left open:
// they hold parts (and storage costs) but no object.
func (s *S3Store) SweepIncomplete(ctx context.Context) (int, error) {
	n := 0
	for up := range s.c.ListIncompleteUploads(ctx, s.bucket, "", true) {
		if up.Err != nil {
			return n, fmt.Errorf("storage: s3 list incomplete uploads: %w", up.Err)
		}
		if !s.validKey(up.Key) {
			continue
		}
		if err := s.c.RemoveIncompleteUpload(ctx, s.bucket, up.Key); err != nil {
			return n, fmt.Errorf("storage: s3 abort %s: %w", up.Key, err)
		}
		n++
	}
	return n, nil
}
