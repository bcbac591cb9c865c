package backup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/devhub/devhub/pkg/storage"
)

// nameLayout is the time in a backup's name (UTC, to the millisecond, so
// names sort by age and two backups never share one).
const nameLayout = "20060102T150405.000Z"

var namePattern = regexp.MustCompile(`^devhub-backup-\d{8}T\d{6}\.\d{3}Z\.tar$`)

// IsName tells a backup's name from anything else in the destination.
func IsName(s string) bool { return namePattern.MatchString(s) }

// Name is the name of a backup taken at t.
func Name(t time.Time) string { return "devhub-backup-" + t.UTC().Format(nameLayout) + ".tar" }

// nameTime is when the backup named name was taken.
func nameTime(name string) time.Time {
	t, _ := time.Parse(nameLayout, strings.TrimSuffix(strings.TrimPrefix(name, "devhub-backup-"), ".tar"))
	return t
}

// S3Prefix marks backup.to as an S3 bucket: s3://BUCKET.
const S3Prefix = "s3://"

// OpenDest opens a backup destination: a directory (created 0700), or
// s3://BUCKET on the object store of s3 (its endpoint, region and keys; the
// bucket is created when missing). Only backups' names are ever listed,
// read or deleted there.
func OpenDest(ctx context.Context, to string, s3 storage.S3Config) (storage.Store, error) {
	if bucket, ok := strings.CutPrefix(to, S3Prefix); ok {
		if bucket == "" || strings.Contains(bucket, "/") {
			return nil, fmt.Errorf("backup destination %q: want s3://BUCKET", to)
		}
		s3.Bucket = bucket
		return storage.NewS3(ctx, s3, IsName)
	}
	if to == "" {
		return nil, errors.New("no backup destination: set backup.to (a directory or s3://BUCKET) or give --to")
	}
	return storage.NewLocal(to, IsName)
}

// Info is one backup in a destination.
type Info struct {
	Name      string    `json:"name"`
	Size      int64     `json:"size"`
	CreatedAt time.Time `json:"createdAt"`
}

// List returns the destination's backups, newest first.
func List(ctx context.Context, dest storage.Store) ([]Info, error) {
	var out []Info
	err := dest.List(ctx, func(key string) error {
		size, err := dest.Stat(ctx, key)
		if errors.Is(err, storage.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		out = append(out, Info{Name: key, Size: size, CreatedAt: nameTime(key)})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name > out[j].Name })
	return out, err
}

// ToDest writes a backup of src into dest under a new name; nothing is
// visible under it unless the whole backup was written.
func ToDest(ctx context.Context, dest storage.Store, src Source) (Info, *Manifest, error) {
	name := Name(time.Now())
	w, err := dest.Create(ctx, name, -1)
	if err != nil {
		return Info{}, nil, fmt.Errorf("backup: %w", err)
	}
	cw := &countWriter{w: w}
	m, err := Write(ctx, cw, src)
	if err != nil {
		w.Abort()
		return Info{}, nil, err
	}
	if err := w.Commit(); err != nil {
		return Info{}, nil, fmt.Errorf("backup: %w", err)
	}
	return Info{Name: name, Size: cw.n, CreatedAt: nameTime(name)}, m, nil
}

// Prune deletes the oldest backups beyond the newest keep (keep ≤ 0 keeps
// all) and returns the names deleted.
func Prune(ctx context.Context, dest storage.Store, keep int) ([]string, error) {
	if keep <= 0 {
		return nil, nil
	}
	all, err := List(ctx, dest)
	if err != nil {
		return nil, err
	}
	var gone []string
	for _, b := range all[min(keep, len(all)):] {
		if err := dest.Delete(ctx, b.Name); err != nil {
			return gone, err
		}
		gone = append(gone, b.Name)
	}
	return gone, nil
}

// Open opens the backup named name in dest; "latest" is the newest.
func Open(ctx context.Context, dest storage.Store, name string) (io.ReadCloser, Info, error) {
	if name == "latest" {
		all, err := List(ctx, dest)
		if err != nil {
			return nil, Info{}, err
		}
		if len(all) == 0 {
			return nil, Info{}, errors.New("no backup in the destination")
		}
		name = all[0].Name
	}
	if !IsName(name) {
		return nil, Info{}, fmt.Errorf("%q is not a backup's name (devhub-backup-….tar)", name)
	}
	r, size, err := dest.Open(ctx, name)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, Info{}, fmt.Errorf("no backup named %s in the destination", name)
	}
	if err != nil {
		return nil, Info{}, err
	}
	return r, Info{Name: name, Size: size, CreatedAt: nameTime(name)}, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
