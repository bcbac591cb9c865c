// Package ctxio makes a streaming copy stop when its context ends: a Ctrl-C,
// a shutdown or a deadline then ends an upload or a file move between reads
// instead of after the whole body.
package ctxio

import (
	"context"
	"io"
)

// Reader returns r's bytes until ctx ends; after that every Read fails with
// ctx.Err(). It has only a Read method, so io.Copy and io.CopyBuffer use
// their own buffer rather than a WriterTo of r that would bypass the check.
func Reader(ctx context.Context, r io.Reader) io.Reader { return reader{ctx, r} }

type reader struct {
	ctx context.Context
	r   io.Reader
}

func (c reader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
