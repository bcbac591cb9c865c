package storage

import (
	"context"
	"errors"
	"net/url"
	"time"
)

// Presigner is a backend whose objects a client can fetch from the store
// itself, through a short-lived URL signed with the store's keys, instead
// of through devhub. The local backend is not one.
type Presigner interface {
	// PresignGet returns a URL that answers GET (and Range) with the
	// object's bytes until expiry has passed, with the response headers of
	// hdr instead of the object's own.
	PresignGet(ctx context.Context, key string, expiry time.Duration, hdr ResponseHeaders) (*url.URL, error)
}

// ResponseHeaders are what the store's answer to a presigned GET says about
// the bytes: the type and the disposition (attachment with the file's
// name). Empty fields leave the object's own.
type ResponseHeaders struct {
	ContentType        string
	ContentDisposition string
}

// MaxPresignExpiry is the longest a signed URL can live (SigV4's limit).
const MaxPresignExpiry = 7 * 24 * time.Hour

// PresignGet signs a GET of key for expiry (at least a second, at most
// MaxPresignExpiry) carrying response-content-type and
// response-content-disposition, which the store echoes as the answer's
// headers. Nothing is sent to the store: the caller checks the object
// exists first where that matters (Stat).
func (s *S3Store) PresignGet(ctx context.Context, key string, expiry time.Duration, hdr ResponseHeaders) (*url.URL, error) {
	if err := s.checkKey(key); err != nil {
		return nil, err
	}
	if expiry < time.Second || expiry > MaxPresignExpiry {
		return nil, errors.New("storage: presign expiry must be between a second and seven days")
	}
	q := url.Values{}
	if hdr.ContentType != "" {
		q.Set("response-content-type", hdr.ContentType)
	}
	if hdr.ContentDisposition != "" {
		q.Set("response-content-disposition", hdr.ContentDisposition)
	}
	return s.c.PresignedGetObject(ctx, s.bucket, key, expiry, q)
}
