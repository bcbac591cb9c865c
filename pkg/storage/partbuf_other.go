//go:build !unix

package storage

// allocPart makes a part buffer on the heap where mmap does not exist.
func allocPart() ([]byte, error) { return make([]byte, PartSize), nil }

// freePart leaves the buffer to the collector.
func freePart([]byte) {}
