// Package blobtest starts an S3-compatible object store on loopback for
// tests: gofakes3, a Go implementation of the S3 REST protocol (buckets,
// objects, ranges, deletes) that runs in the test process, so tests need
// no download and no container. MinIO's server would be the closer peer,
// but as a Go module it pulls hundreds of dependencies and is AGPL.
package blobtest

import (
	"net/http/httptest"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// S3 is a running object store with one empty bucket.
type S3 struct {
	Endpoint string // http://127.0.0.1:port
	Bucket   string
	// URL is the LAYERFIX_BLOB_URL that reaches the bucket.
	URL string
}

// StartS3 starts the store, creates bucket and stops it when the test ends.
func StartS3(t testing.TB, bucket string) *S3 {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket(bucket); err != nil {
		t.Fatalf("create bucket: %v", err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	return &S3{Endpoint: srv.URL, Bucket: bucket, URL: "s3://" + bucket + "/photos?endpoint=" + srv.URL + "&region=us-east-1"}
}
