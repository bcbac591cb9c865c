// Package storage keeps the bytes of stored files: a small interface with
// two backends, a local directory (the default) and an S3-compatible object
// store through minio-go. Metadata stays with the callers (bbolt); a
// backend only knows keys the caller generated and the bytes under them.
//
// Every write streams: a Writer takes the bytes as they arrive and nothing
// is visible under its key until Commit, so an interrupted upload never
// leaves a half object behind (the local backend writes a temp file and
// renames it; S3 completes a multipart upload, aborted on failure).
package storage

import (
	"context"
	"errors"
	"io"
)

// Backend names, as recorded with each file.
const (
	Local = "local"
	S3    = "s3"
)

// ErrNotFound means no object is stored under a key.
var ErrNotFound = errors.New("storage: no such object")

// Store is one backend.
type Store interface {
	// Name is Local or S3.
	Name() string
	// Create starts writing an object under key. size is the length when
	// known, or -1.
	Create(ctx context.Context, key string, size int64) (Writer, error)
	// Open opens an object for reading (seekable, so ranges are served
	// without reading what comes before) and returns its size. For the
	// local backend the reader is an *os.File, which lets the HTTP layer
	// use sendfile.
	Open(ctx context.Context, key string) (io.ReadSeekCloser, int64, error)
	// Stat returns an object's size, or ErrNotFound.
	Stat(ctx context.Context, key string) (int64, error)
	// Delete removes an object; a missing one is not an error.
	Delete(ctx context.Context, key string) error
	// List calls fn with every committed object's key, for sweeps.
	List(ctx context.Context, fn func(key string) error) error
	// SweepIncomplete removes what interrupted writes left behind (temp
	// files, unfinished multipart uploads) and returns how many. It runs
	// at start-up, before any upload is accepted.
	SweepIncomplete(ctx context.Context) (int, error)
}

// Writer receives an object's bytes. Exactly one of Commit or Abort ends
// it (Abort after Commit does nothing).
type Writer interface {
	io.Writer
	// Commit makes the bytes durable and visible under the key.
	Commit() error
	// Abort discards everything written.
	Abort()
}
