//go:build unix

package freespace

import "testing"

// The system's reading: a real directory has a device and free space, and
// one not made yet is read at its parent.
func TestStatFS(t *testing.T) {
	dir := t.TempDir()
	id, avail, err := statFS(dir)
	if err != nil || avail <= 0 {
		t.Fatalf("statFS(%s) = %d, %d, %v", dir, id, avail, err)
	}
	id2, _, err := statFS(dir + "/not/made/yet")
	if err != nil || id2 != id {
		t.Fatalf("a directory not made yet: %d, %v (parent %d)", id2, err, id)
	}
}
