//go:build !unix

package freespace

import "errors"

// statFS cannot read free space here: the reserve checks nothing, and a
// full disk is still told by the write's own error (Wrap).
func statFS(string) (uint64, int64, error) {
	return 0, 0, errors.ErrUnsupported
}
