package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sub", "devhub.db")
	s, err := Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func TestOpenCreatesPrivateFileWithSchemaVersion(t *testing.T) {
	s, path := openTemp(t)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", fi.Mode().Perm())
	}
	v, err := s.SchemaVersionOf()
	if err != nil || v != SchemaVersion {
		t.Fatalf("schema version %d (%v), want %d", v, err, SchemaVersion)
	}
}

func TestSecondOpenerTimesOutWithErrInUse(t *testing.T) {
	_, path := openTemp(t)
	start := time.Now()
	_, err := Open(path, 300*time.Millisecond)
	if !errors.Is(err, ErrInUse) {
		t.Fatalf("err = %v, want ErrInUse", err)
	}
	if time.Since(start) > 3*time.Second {
		t.Fatal("second opener hung")
	}
}

func TestNewerSchemaIsRefused(t *testing.T) {
	s, path := openTemp(t)
	s.Update(func(tx *bolt.Tx) error { return tx.Bucket(metaBucket).Put(schemaVersionKey, Itob(SchemaVersion+1)) })
	s.Close()
	if _, err := Open(path, time.Second); err == nil {
		t.Fatal("opened a store from the future")
	}
}

func TestJSONHelpers(t *testing.T) {
	s, _ := openTemp(t)
	type rec struct{ Name string }
	if err := s.EnsureBuckets("recs"); err != nil {
		t.Fatal(err)
	}
	err := s.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("recs"))
		for i, n := range []string{"a", "b", "c"} {
			if err := PutJSON(b, Itob(uint64(i+1)), rec{n}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("recs"))
		var r rec
		if err := GetJSON(b, Itob(2), &r); err != nil || r.Name != "b" {
			t.Fatalf("get: %v %v", r, err)
		}
		if err := GetJSON(b, Itob(9), &r); !errors.Is(err, ErrNotFound) {
			t.Fatalf("missing key: %v", err)
		}
		var names []string
		ForEachJSON(b, func(k []byte, v *rec) error { names = append(names, v.Name); return nil })
		if len(names) != 3 || names[0] != "a" || names[2] != "c" {
			t.Fatalf("order %v", names)
		}
		return nil
	})
}

func TestMetaOrInitKeepsFirstValue(t *testing.T) {
	s, _ := openTemp(t)
	calls := 0
	gen := func() ([]byte, error) { calls++; return []byte{byte(calls)}, nil }
	a, _ := s.MetaOrInit("secret", gen)
	b, _ := s.MetaOrInit("secret", gen)
	if !bytes.Equal(a, b) || calls != 1 {
		t.Fatalf("a=%v b=%v calls=%d", a, b, calls)
	}
}

func TestBackupToFileIsConsistentAndAtomic(t *testing.T) {
	s, _ := openTemp(t)
	s.EnsureBuckets("k")
	s.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte("k")).Put([]byte("x"), []byte("1")) })
	dst := filepath.Join(t.TempDir(), "b.db")
	if _, err := s.BackupToFile(dst); err != nil {
		t.Fatal(err)
	}
	c, err := Open(dst, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.View(func(tx *bolt.Tx) error {
		if string(tx.Bucket([]byte("k")).Get([]byte("x"))) != "1" {
			t.Fatal("copy lacks data")
		}
		return nil
	})
	// A backup into a missing directory fails and leaves nothing behind.
	bad := filepath.Join(t.TempDir(), "nope", "b.db")
	if _, err := s.BackupToFile(bad); err == nil {
		t.Fatal("backup into a missing directory succeeded")
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Fatal("partial backup left behind")
	}
}

func TestValidator(t *testing.T) {
	var v Validator
	if v.Err() != nil {
		t.Fatal("empty validator reports an error")
	}
	v.Add("email", "required", "e-mail is required")
	v.Add("email", "invalid", "second problem is ignored")
	var verr *ValidationError
	if !errors.As(v.Err(), &verr) || verr.Fields["email"].Code != "required" {
		t.Fatalf("%v", v.Err())
	}
}

// Check finds damage that Open does not: a page of the tree overwritten.
func TestCheckFindsDamage(t *testing.T) {
	s, path := openTemp(t)
	if err := s.EnsureBuckets("recs"); err != nil {
		t.Fatal(err)
	}
	s.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("recs"))
		for i := 0; i < 2000; i++ {
			if err := b.Put(Itob(uint64(i)), bytes.Repeat([]byte("v"), 100)); err != nil {
				return err
			}
		}
		return nil
	})
	if err := s.Check(); err != nil {
		t.Fatalf("a healthy store: %v", err)
	}
	pageSize := s.DB().Info().PageSize
	s.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Pages 0–1 are the meta pages, 2 the free list; overwrite the ids of a
	// few tree pages further on.
	for p := 4; p < 12; p++ {
		f.WriteAt(bytes.Repeat([]byte{0xFF}, 16), int64(p*pageSize))
	}
	f.Close()
	s2, err := Open(path, time.Second)
	if err != nil {
		return // refused at open already: fine too
	}
	defer s2.Close()
	if err := s2.Check(); err == nil {
		t.Fatal("Check found nothing in a store with overwritten pages")
	}
}

// Ping writes and reads back; probes at once (a load balancer and a
// monitor) never read each other's stamp, and a closed store fails it.
func TestPingConcurrentAndClosed(t *testing.T) {
	st, err := Open(filepath.Join(t.TempDir(), "devhub.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 80)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				if err := st.Ping(); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	st.Close()
	if err := st.Ping(); err == nil || strings.Contains(err.Error(), "devhub.db") {
		t.Fatalf("a closed store: %v", err)
	}
}
