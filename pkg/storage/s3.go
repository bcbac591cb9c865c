package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// PartSize is the size of one part of a multipart upload to S3. A write in
// progress holds at most two part buffers — one filling from the client
// while the other is on its way to the store — so receiving overlaps
// sending in 2 × PartSize = 10 MiB, whatever the object's size (the
// server's whole budget during a 1 GiB upload is 64 MiB). 5 MiB is S3's
// smallest part; objects may be up to 48 GiB (10 000 parts), far above
// files.max_upload_bytes' default of 4 GiB.
const PartSize = 5 << 20

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
	return &S3Store{c: c, bucket: cfg.Bucket, validKey: validKey}, nil
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
// about 30 MiB for a single upload; this writer holds exactly two parts.
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

	// bufs are the writer's two part buffers, made when first needed and
	// used in turn for its whole life (a pool shared between uploads was
	// emptied by every collection, and each refill left garbage behind).
	bufs     [2][]byte
	next     int    // which of bufs the next part fills
	cur      []byte // the part filling (nil until the first byte)
	n        int    // bytes in cur
	uploadID string
	parts    []minio.CompletePart
	inFlight chan partResult // the part on its way, if any
	err      error
	ended    bool
}

type partResult struct {
	part minio.CompletePart
	err  error
}

func (w *s3Writer) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		if w.err != nil {
			return written, w.err
		}
		if w.cur == nil {
			if w.bufs[w.next] == nil {
				w.bufs[w.next] = make([]byte, PartSize)
			}
			w.cur, w.n = w.bufs[w.next], 0
			w.next = 1 - w.next
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

// sendPart starts sending the filled part, after the one before it has
// arrived (so at most two buffers exist).
func (w *s3Writer) sendPart() {
	if w.wait(); w.err != nil {
		return
	}
	if w.uploadID == "" {
		id, err := w.core.NewMultipartUpload(w.ctx, w.s.bucket, w.key, minio.PutObjectOptions{ContentType: "application/octet-stream"})
		if err != nil {
			w.err = fmt.Errorf("storage: s3 start upload: %w", err)
			return
		}
		w.uploadID = id
	}
	buf, n, num := w.cur, w.n, len(w.parts)+1
	w.cur, w.n = nil, 0
	done := make(chan partResult, 1)
	w.inFlight = done
	go func() {
		op, err := w.core.PutObjectPart(w.ctx, w.s.bucket, w.key, w.uploadID, num,
			bytes.NewReader(buf[:n]), int64(n), minio.PutObjectPartOptions{DisableContentSha256: true})
		done <- partResult{part: minio.CompletePart{PartNumber: num, ETag: op.ETag}, err: err}
	}()
}

// wait collects the part on its way, if any.
func (w *s3Writer) wait() {
	if w.inFlight == nil {
		return
	}
	r := <-w.inFlight
	w.inFlight = nil
	if r.err != nil && w.err == nil {
		w.err = fmt.Errorf("storage: s3 upload part %d: %w", r.part.PartNumber, r.err)
	}
	if r.err == nil {
		w.parts = append(w.parts, r.part)
	}
}

func (w *s3Writer) Commit() error {
	if w.ended {
		return errors.New("storage: write already ended")
	}
	w.ended = true
	if w.uploadID == "" && w.err == nil {
		// Everything fitted in one part: one PUT.
		var body []byte
		if w.cur != nil {
			body = w.cur[:w.n]
		}
		_, err := w.s.c.PutObject(w.ctx, w.s.bucket, w.key, bytes.NewReader(body), int64(len(body)),
			minio.PutObjectOptions{ContentType: "application/octet-stream", DisableContentSha256: true})
		if err != nil {
			return fmt.Errorf("storage: s3 put: %w", err)
		}
		return nil
	}
	if w.n > 0 {
		w.sendPart()
	}
	w.wait()
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
	w.wait()
	w.abortUpload()
}

func (w *s3Writer) abortUpload() {
	if w.uploadID != "" {
		w.core.AbortMultipartUpload(context.Background(), w.s.bucket, w.key, w.uploadID)
	}
}

// Open reads the object through; a seek makes the next read a ranged GET.
func (s *S3Store) Open(ctx context.Context, key string) (io.ReadSeekCloser, int64, error) {
	if err := s.checkKey(key); err != nil {
		return nil, 0, err
	}
	obj, err := s.c.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, 0, s.notFound(err)
	}
	st, err := obj.Stat()
	if err != nil {
		obj.Close()
		return nil, 0, s.notFound(err)
	}
	return obj, st.Size, nil
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
