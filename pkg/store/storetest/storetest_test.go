package storetest

import (
	"testing"

	bolt "go.etcd.io/bbolt"
)

func TestOpenIsFreshAndWritable(t *testing.T) {
	a, b := Open(t), Open(t)
	if a == b {
		t.Fatal("two Opens gave one store")
	}
	if err := a.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucketIfNotExists([]byte("x")); return err }); err != nil {
		t.Fatal(err)
	}
	if err := b.View(func(tx *bolt.Tx) error {
		if tx.Bucket([]byte("x")) != nil {
			t.Error("second store sees the first's bucket")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
