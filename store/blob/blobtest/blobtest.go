// Package blobtest starts an S3-compatible object store on loopback for
// tests. By default it is gofakes3, a Go implementation of the S3 REST
// protocol (buckets, objects, ranges, deletes) served from the test
// process: no download, no container, milliseconds to start, so it runs
// in every `make test`. With LAYERFIX_TEST_MINIO naming a MinIO server
// binary (`make test-s3` installs one with go install and sets it), the
// same tests run against MinIO, which also checks request signatures.
package blobtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// MinioEnv names the MinIO server binary the tests use instead of gofakes3.
const MinioEnv = "LAYERFIX_TEST_MINIO"

// S3 is a running object store with one empty bucket.
type S3 struct {
	Endpoint             string // http://127.0.0.1:port
	Bucket               string
	AccessKey, SecretKey string
	// URL is the LAYERFIX_BLOB_URL that reaches the bucket (under photos/).
	URL string
	// Kind is "minio" or "gofakes3".
	Kind string
}

// StartS3 starts the store, creates bucket and stops it when the test ends.
func StartS3(t testing.TB, bucket string) *S3 {
	t.Helper()
	var s *S3
	if bin := os.Getenv(MinioEnv); bin != "" {
		s = startMinio(t, bin, bucket)
	} else {
		backend := s3mem.New()
		if err := backend.CreateBucket(bucket); err != nil {
			t.Fatalf("create bucket: %v", err)
		}
		srv := httptest.NewServer(gofakes3.New(backend).Server())
		t.Cleanup(srv.Close)
		s = &S3{Endpoint: srv.URL, Bucket: bucket, AccessKey: "test-access", SecretKey: "test-secret", Kind: "gofakes3"}
	}
	s.URL = "s3://" + bucket + "/photos?endpoint=" + s.Endpoint + "&region=us-east-1"
	t.Logf("object store: %s at %s", s.Kind, s.Endpoint)
	return s
}

func freePort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// startMinio runs `minio server` on loopback with a fresh data dir and
// random root credentials, and creates the bucket with the S3 API.
func startMinio(t testing.TB, bin, bucket string) *S3 {
	t.Helper()
	b := make([]byte, 16)
	rand.Read(b)
	access, secret := "layerfix-test", hex.EncodeToString(b)
	addr, console := freePort(t), freePort(t)
	cmd := exec.Command(bin, "server", "--quiet", "--address", addr, "--console-address", console, t.TempDir())
	cmd.Env = append(os.Environ(), "MINIO_ROOT_USER="+access, "MINIO_ROOT_PASSWORD="+secret,
		"MINIO_BROWSER=off", "MINIO_UPDATE=off")
	if err := cmd.Start(); err != nil {
		t.Fatalf("start minio: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	endpoint := "http://" + addr
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(endpoint + "/minio/health/live")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("minio did not start on %s", addr)
		}
		time.Sleep(100 * time.Millisecond)
	}
	client, err := minio.New(addr, &minio.Options{Creds: credentials.NewStaticV4(access, secret, ""), Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := client.MakeBucket(ctx, bucket, minio.MakeBucketOptions{Region: "us-east-1"}); err != nil {
		t.Fatalf("create bucket %s: %v", bucket, fmt.Errorf("minio: %w", err))
	}
	return &S3{Endpoint: endpoint, Bucket: bucket, AccessKey: access, SecretKey: secret, Kind: "minio"}
}
