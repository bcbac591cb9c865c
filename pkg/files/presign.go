package files

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/devhub/devhub/pkg/storage"
	"github.com/devhub/devhub/pkg/store"
)

// PresignGet returns a short-lived URL at the object store that answers
// with f's bytes and the response headers of hdr, or nil when f's backend
// cannot sign one (the local directory). The object is looked up first:
// bytes that are missing or not of the recorded size are store.ErrNotFound,
// as Open reports them, so a client is never sent to a URL that fails.
func (s *Service) PresignGet(ctx context.Context, f *File, expiry time.Duration, hdr storage.ResponseHeaders) (*url.URL, error) {
	be, err := s.storeOf(f)
	if err != nil {
		return nil, err
	}
	p, ok := be.(storage.Presigner)
	if !ok {
		return nil, nil
	}
	size, err := be.Stat(ctx, f.StoredName)
	if err != nil {
		return nil, fmt.Errorf("file %d content: %w (%v)", f.ID, store.ErrNotFound, err)
	}
	if size != f.Size {
		return nil, fmt.Errorf("file %d content has %d bytes, record says %d: %w", f.ID, size, f.Size, store.ErrNotFound)
	}
	return p.PresignGet(ctx, f.StoredName, expiry, hdr)
}
