// Package storetest opens bbolt stores for tests: a fresh one in the test's
// temp dir, or one at a given path (a CLI test's data dir), closed when the
// test ends. One helper instead of the same five lines in every test file.
package storetest

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/store"
)

// Open returns a new, empty store in a temp dir of tb.
func Open(tb testing.TB) *store.Store {
	tb.Helper()
	return OpenPath(tb, filepath.Join(tb.TempDir(), "test.db"))
}

// OpenPath opens (or creates) the store at path and closes it when tb ends.
// A store another handle holds open makes it fail after a second.
func OpenPath(tb testing.TB, path string) *store.Store {
	tb.Helper()
	st, err := store.Open(path, time.Second)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}
