package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// PartSize is the size of one part of a multipart upload to S3. minio-go
// reads a whole part into memory before sending it, and an upload sends
// partThreads parts at once so receiving overlaps sending: one upload in
// progress holds PartSize × partThreads (16 MiB). Objects may be up to
// 78 GiB (10 000 parts).
const PartSize = 8 << 20

// partThreads is how many parts of one upload are in memory (one filling,
// one on its way).
const partThreads = 2

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

// Create streams the bytes into a multipart upload as they are written,
// one part in memory at a time. The object appears only when Commit
// completes the upload; Abort (or any failure) aborts it.
func (s *S3Store) Create(ctx context.Context, key string, _ int64) (Writer, error) {
	if err := s.checkKey(key); err != nil {
		return nil, err
	}
	pr, pw := io.Pipe()
	w := &s3Writer{s: s, key: key, pw: pw, done: make(chan error, 1)}
	// The upload outlives a cancelled request only long enough to be
	// aborted cleanly: the writer's Abort closes the pipe with an error.
	ctx = context.WithoutCancel(ctx)
	go func() {
		// The size is always given as unknown and the parts streamed
		// concurrently: minio-go then holds exactly partThreads buffers of
		// PartSize, whatever the object's size.
		_, err := s.c.PutObject(ctx, s.bucket, key, pr, -1, minio.PutObjectOptions{
			PartSize: PartSize, ConcurrentStreamParts: true, NumThreads: partThreads,
			ContentType: "application/octet-stream", DisableContentSha256: true,
		})
		pr.CloseWithError(err)
		w.done <- err
	}()
	return w, nil
}

type s3Writer struct {
	s     *S3Store
	key   string
	pw    *io.PipeWriter
	done  chan error
	ended bool
}

func (w *s3Writer) Write(p []byte) (int, error) { return w.pw.Write(p) }

func (w *s3Writer) Commit() error {
	if w.ended {
		return errors.New("storage: write already ended")
	}
	w.ended = true
	w.pw.Close()
	if err := <-w.done; err != nil {
		return fmt.Errorf("storage: s3 upload: %w", err)
	}
	return nil
}

var errAborted = errors.New("upload aborted")

func (w *s3Writer) Abort() {
	if w.ended {
		return
	}
	w.ended = true
	w.pw.CloseWithError(errAborted)
	if err := <-w.done; err == nil {
		// The last part was already on its way: the object exists, remove it.
		w.s.c.RemoveObject(context.Background(), w.s.bucket, w.key, minio.RemoveObjectOptions{})
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
