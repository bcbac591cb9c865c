package files

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/ctxio"
	"github.com/devhub/devhub/pkg/storage"
	"github.com/devhub/devhub/pkg/store"
)

// MigrateProgress reports one file of a migration: moved, or failed with
// err (the file stays where it was).
type MigrateProgress func(f File, err error)

// Migrate moves every file whose bytes are not in the backend named to
// into it, one file at a time: the bytes are copied and their sha256
// checked against the record, then the record is switched, and only then
// are the old bytes deleted. Interrupted anywhere (ctx cancelled, the
// process killed), every record still points at complete bytes: a copy not
// yet recorded is overwritten by the next run or removed by the start-up
// sweep. Running it again resumes with the files not yet moved. It returns
// how many files moved; a file that failed is reported and the rest go on.
func (s *Service) Migrate(ctx context.Context, to string, progress MigrateProgress) (int, error) {
	dst, ok := s.stores[to]
	if !ok {
		return 0, fmt.Errorf("files: storage backend %q: %w", to, ErrBackendMissing)
	}
	all, err := s.List()
	if err != nil {
		return 0, err
	}
	moved, failed := 0, 0
	for i := len(all) - 1; i >= 0; i-- { // oldest first
		f := all[i]
		if cmp.Or(f.Storage, storage.Local) == to {
			continue
		}
		if err := ctx.Err(); err != nil {
			return moved, err
		}
		err := s.migrateOne(ctx, f, dst)
		if progress != nil {
			progress(f, err)
		}
		if err != nil {
			if ctx.Err() != nil {
				return moved, ctx.Err()
			}
			failed++
			continue
		}
		moved++
	}
	if failed > 0 {
		return moved, fmt.Errorf("files: %d file(s) could not be moved and stay where they were", failed)
	}
	return moved, nil
}

func (s *Service) migrateOne(ctx context.Context, f File, dst storage.Store) error {
	src, err := s.storeOf(&f)
	if err != nil {
		return err
	}
	r, size, err := src.Open(ctx, f.StoredName)
	if err != nil {
		return fmt.Errorf("file %d: open in %s: %w", f.ID, src.Name(), err)
	}
	defer r.Close()
	if size != f.Size {
		return fmt.Errorf("file %d: %s holds %d bytes, the record says %d", f.ID, src.Name(), size, f.Size)
	}
	w, err := dst.Create(ctx, f.StoredName, size)
	if err != nil {
		return fmt.Errorf("file %d: %w", f.ID, err)
	}
	h := sha256.New()
	bp := bufPool.Get().(*[]byte)
	_, err = io.CopyBuffer(io.MultiWriter(w, h), ctxio.Reader(ctx, r), *bp)
	bufPool.Put(bp)
	if err != nil {
		w.Abort()
		return fmt.Errorf("file %d: copy to %s: %w", f.ID, dst.Name(), err)
	}
	if sum := hex.EncodeToString(h.Sum(nil)); sum != f.SHA256 {
		w.Abort()
		return fmt.Errorf("file %d: the bytes in %s do not match its sha256 (%s, recorded %s); not moved", f.ID, src.Name(), sum, f.SHA256)
	}
	if err := w.Commit(); err != nil {
		return fmt.Errorf("file %d: %w", f.ID, err)
	}
	name := dst.Name()
	if name == storage.Local {
		name = ""
	}
	var updated File
	err = s.st.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte(bucketName))
		if err := store.GetJSON(b, store.Itob(f.ID), &updated); err != nil {
			return err
		}
		updated.Storage = name
		return store.PutJSON(b, store.Itob(f.ID), updated)
	})
	if err != nil {
		dst.Delete(context.WithoutCancel(ctx), f.StoredName)
		return fmt.Errorf("file %d: record the move: %w", f.ID, err)
	}
	s.ix.put(updated)
	if err := src.Delete(context.WithoutCancel(ctx), f.StoredName); err != nil {
		s.log.Warn("moved file's old bytes stay until the next start-up sweep", "id", f.ID, "err", err)
	}
	return nil
}
