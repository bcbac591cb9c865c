package downloads

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/devhub/devhub/pkg/storage"
	"github.com/devhub/devhub/pkg/store"
)

// PresignGet returns a short-lived URL at the object store that answers
// with the bytes under key and the response headers of hdr, or nil when
// the backend cannot sign one (the local directory). Bytes that are missing
// or not of the recorded size are store.ErrNotFound, as Open reports them.
func (s *Service) PresignGet(ctx context.Context, key string, size int64, expiry time.Duration, hdr storage.ResponseHeaders) (*url.URL, error) {
	p, ok := s.be.(storage.Presigner)
	if !ok {
		return nil, nil
	}
	n, err := s.be.Stat(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("download content: %w (%v)", store.ErrNotFound, err)
	}
	if n != size {
		return nil, fmt.Errorf("download content has %d bytes, record says %d: %w", n, size, store.ErrNotFound)
	}
	return p.PresignGet(ctx, key, expiry, hdr)
}
