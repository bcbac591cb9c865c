package storage

// PooledGets makes s read through minio-go's pooled connections, as it does
// with a TLS endpoint, so that the tests cover that path too against the
// plain-HTTP MinIO they start.
func PooledGets(s *S3Store) *S3Store {
	s.plainHTTP = false
	return s
}

// DialAddr is dialAddr, for its table test.
var DialAddr = dialAddr
