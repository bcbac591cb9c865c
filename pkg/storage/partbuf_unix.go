//go:build unix

package storage

import "golang.org/x/sys/unix"

// allocPart maps a part buffer outside the Go heap. Part buffers are the
// largest memory an upload holds; on the heap they raised the collector's
// goal by their own size (a 64 MiB budget for the whole server during a
// 1 GiB upload could not hold three of them and the garbage they let
// accumulate), and freed ones stayed resident until the scavenger returned
// them. Mapped, only the bytes written are resident and freePart returns
// them to the OS at once.
func allocPart() ([]byte, error) {
	return unix.Mmap(-1, 0, PartSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
}

// freePart unmaps a buffer from allocPart. Nothing may use it afterwards.
func freePart(b []byte) { _ = unix.Munmap(b) }
