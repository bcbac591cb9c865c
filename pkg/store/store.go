// Package store owns devhub's single bbolt database: opening it safely,
// versioning its schema, and the small JSON and key helpers every domain
// package uses. Domain packages keep their own buckets; this package knows
// nothing about users, articles, files or ROMs.
package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Sentinel errors shared by every domain package, so the HTTP layer can map
// them to status codes without knowing which package produced them.
var (
	ErrNotFound = errors.New("not found")
	ErrConflict = errors.New("already exists")
	// ErrInUse means another process holds the database lock and did not
	// answer on the owner socket.
	ErrInUse = errors.New("store is in use by another process")
)

// SchemaVersion is the version this binary writes. Migrations bring older
// stores up to it when they are opened.
const SchemaVersion = 1

var (
	metaBucket       = []byte("meta")
	schemaVersionKey = []byte("schema_version")
)

// migrations[i] upgrades a store from version i to i+1. Version 0 is an
// empty file; migration 0 only creates the meta bucket.
var migrations = []func(tx *bolt.Tx) error{
	func(tx *bolt.Tx) error { _, err := tx.CreateBucketIfNotExists(metaBucket); return err },
}

// Store is an open devhub database.
type Store struct {
	db   *bolt.DB
	path string
	// probeMu serialises Ping.
	probeMu sync.Mutex
}

// Open opens (creating if needed) the database at path with mode 0600. If
// another process holds the file lock for longer than timeout it returns an
// error wrapping ErrInUse instead of hanging.
func Open(path string, timeout time.Duration) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout})
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) {
			return nil, fmt.Errorf("%w: %s is locked (is another devhub running without its owner socket?)", ErrInUse, path)
		}
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	s := &Store{db: db, path: path}
	if err := s.migrate(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) migrate() error {
	return s.db.Update(func(tx *bolt.Tx) error {
		v := 0
		if b := tx.Bucket(metaBucket); b != nil {
			if raw := b.Get(schemaVersionKey); raw != nil {
				v = int(Btoi(raw))
			}
		}
		if v > SchemaVersion {
			return fmt.Errorf("store schema version %d is newer than this binary understands (%d)", v, SchemaVersion)
		}
		for ; v < SchemaVersion; v++ {
			if err := migrations[v](tx); err != nil {
				return fmt.Errorf("migrate store to version %d: %w", v+1, err)
			}
		}
		return tx.Bucket(metaBucket).Put(schemaVersionKey, Itob(uint64(SchemaVersion)))
	})
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// DB exposes bbolt for domain packages, which run their own transactions.
func (s *Store) DB() *bolt.DB { return s.db }

// Check runs bbolt's consistency check over the whole file (every page
// reachable once, free list and tree agree) and returns the first problems
// it finds, joined. serve runs it at start, so a damaged store is reported
// before requests are served from it rather than in the middle of one.
func (s *Store) Check() error {
	var problems []error
	err := s.db.View(func(tx *bolt.Tx) error {
		for e := range tx.Check() {
			if len(problems) < 10 {
				problems = append(problems, e)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		return fmt.Errorf("store %s is damaged: %w", s.path, errors.Join(problems...))
	}
	return nil
}

// readyProbeKey is the meta key Ping writes.
const readyProbeKey = "ready_probe"

// Ping is the store's readiness: a write (committed to disk) and a read of
// what was written.
func (s *Store) Ping() error {
	// One probe at a time: two at once would each read the other's stamp.
	s.probeMu.Lock()
	defer s.probeMu.Unlock()
	stamp := Itob(uint64(time.Now().UnixNano()))
	if err := s.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(metaBucket).Put([]byte(readyProbeKey), stamp) }); err != nil {
		return errors.New("the store refuses writes")
	}
	got, err := s.Meta(readyProbeKey)
	if err != nil || !bytes.Equal(got, stamp) {
		return errors.New("the store does not read back what it wrote")
	}
	return nil
}

// Close releases the file lock.
func (s *Store) Close() error { return s.db.Close() }

// Update runs fn in a read-write transaction.
func (s *Store) Update(fn func(tx *bolt.Tx) error) error { return s.db.Update(fn) }

// View runs fn in a read-only transaction.
func (s *Store) View(fn func(tx *bolt.Tx) error) error { return s.db.View(fn) }

// EnsureBuckets creates the named buckets if missing; domain services call
// it once from their constructors.
func (s *Store) EnsureBuckets(names ...string) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		for _, n := range names {
			if _, err := tx.CreateBucketIfNotExists([]byte(n)); err != nil {
				return fmt.Errorf("create bucket %s: %w", n, err)
			}
		}
		return nil
	})
}

// Meta reads a value from the meta bucket; nil when absent.
func (s *Store) Meta(key string) ([]byte, error) {
	var out []byte
	err := s.db.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(metaBucket).Get([]byte(key)); v != nil {
			out = append([]byte(nil), v...)
		}
		return nil
	})
	return out, err
}

// MetaOrInit returns the meta value under key, creating it with gen() in the
// same transaction when it is absent (used for generated secrets).
func (s *Store) MetaOrInit(key string, gen func() ([]byte, error)) ([]byte, error) {
	var out []byte
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(metaBucket)
		if v := b.Get([]byte(key)); v != nil {
			out = append([]byte(nil), v...)
			return nil
		}
		v, err := gen()
		if err != nil {
			return err
		}
		out = v
		return b.Put([]byte(key), v)
	})
	return out, err
}

// SchemaVersionOf reads the stored schema version (for tests and status).
func (s *Store) SchemaVersionOf() (int, error) {
	raw, err := s.Meta(string(schemaVersionKey))
	if err != nil || raw == nil {
		return 0, err
	}
	return int(Btoi(raw)), nil
}

// Backup writes a consistent copy of the whole database to w from a
// read-only transaction, so it is safe while the server keeps writing.
func (s *Store) Backup(w io.Writer) (int64, error) {
	var n int64
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// BackupToFile writes the copy to path atomically: a temp file in the same
// directory, fsync'd, then renamed, so a failed backup never leaves a
// truncated file under the requested name.
func (s *Store) BackupToFile(path string) (int64, error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, ".devhub-backup-*")
	if err != nil {
		return 0, fmt.Errorf("backup: %w", err)
	}
	defer os.Remove(tmp.Name())
	n, err := s.Backup(tmp)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o600)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return 0, fmt.Errorf("backup: %w", err)
	}
	return n, nil
}

// Itob encodes an id as 8 big-endian bytes, so bbolt keeps ids in order.
func Itob(v uint64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, v)
	return b
}

// Btoi decodes Itob.
func Btoi(b []byte) uint64 {
	if len(b) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(b)
}

// GetJSON decodes the value under key into v, or returns ErrNotFound.
func GetJSON(b *bolt.Bucket, key []byte, v any) error {
	raw := b.Get(key)
	if raw == nil {
		return ErrNotFound
	}
	return json.Unmarshal(raw, v)
}

// ViewJSON reads the record under id in bucket, in a read transaction of
// its own; ErrNotFound when there is none.
func ViewJSON[T any](s *Store, bucket []byte, id uint64) (*T, error) {
	var v T
	if err := s.View(func(tx *bolt.Tx) error { return GetJSON(tx.Bucket(bucket), Itob(id), &v) }); err != nil {
		return nil, err
	}
	return &v, nil
}

// MarshalJSON encodes v as the store keeps it: compact and without
// encoding/json's HTML escaping. The store is never embedded in a page, and
// escaping turns each '<', '>' and '&' into six bytes, so a record of
// hostile text would grow up to six times over the size it was checked at.
func MarshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// PutJSON encodes v under key (see MarshalJSON).
func PutJSON(b *bolt.Bucket, key []byte, v any) error {
	raw, err := MarshalJSON(v)
	if err != nil {
		return err
	}
	return b.Put(key, raw)
}

// ForEachJSON decodes every value of b into a fresh T and calls fn; fn
// returning a non-nil error stops the walk.
func ForEachJSON[T any](b *bolt.Bucket, fn func(key []byte, v *T) error) error {
	return b.ForEach(func(k, raw []byte) error {
		if raw == nil { // nested bucket
			return nil
		}
		var v T
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("decode %x: %w", k, err)
		}
		return fn(k, &v)
	})
}

// SchemaVersionOfFile reads the schema version of the store file at path
// without changing it (a restore checks a staged copy with it).
func SchemaVersionOfFile(path string) (int, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		return 0, err
	}
	defer db.Close()
	v := 0
	err = db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket(metaBucket); b != nil {
			v = int(Btoi(b.Get(schemaVersionKey)))
		}
		return nil
	})
	return v, err
}
