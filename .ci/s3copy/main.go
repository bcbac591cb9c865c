// Command s3copy is `make bench`'s reference for the S3 backend: the same
// transfer straight to and from the object store with minio-go, the library
// devhub uses, with the same part size. It prints the seconds taken.
//
//	s3copy put|get ENDPOINT BUCKET KEY FILE   (keys from DEVHUB_STORAGE_S3_*)
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/devhub/devhub/pkg/storage"
)

func main() {
	if len(os.Args) != 6 {
		fmt.Fprintln(os.Stderr, "usage: s3copy put|get ENDPOINT BUCKET KEY FILE")
		os.Exit(2)
	}
	op, endpoint, bucket, key, path := os.Args[1], os.Args[2], os.Args[3], os.Args[4], os.Args[5]
	c, err := minio.New(strings.TrimPrefix(endpoint, "http://"), &minio.Options{
		Creds:        credentials.NewStaticV4(os.Getenv("DEVHUB_STORAGE_S3_ACCESS_KEY"), os.Getenv("DEVHUB_STORAGE_S3_SECRET_KEY"), ""),
		BucketLookup: minio.BucketLookupPath,
	})
	check(err)
	ctx := context.Background()
	start := time.Now()
	switch op {
	case "put":
		f, err := os.Open(path)
		check(err)
		defer f.Close()
		// As devhub streams an upload: an unknown length, one part at a time.
		_, err = c.PutObject(ctx, bucket, key, struct{ io.Reader }{f}, -1,
			minio.PutObjectOptions{PartSize: storage.PartSize, ConcurrentStreamParts: true, NumThreads: 2, DisableContentSha256: true})
		check(err)
	case "get":
		// As devhub reads an object: the GET's body directly (not through
		// minio-go's Object and its goroutine), in large reads.
		body, _, _, err := minio.Core{Client: c}.GetObject(ctx, bucket, key, minio.GetObjectOptions{})
		check(err)
		_, err = io.CopyBuffer(io.Discard, struct{ io.Reader }{body}, make([]byte, 512<<10))
		check(err)
		check(body.Close())
	default:
		check(fmt.Errorf("unknown operation %q", op))
	}
	fmt.Printf("%.3f\n", time.Since(start).Seconds())
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "s3copy:", err)
		os.Exit(1)
	}
}
