package blob

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/layerfix/layerfix/store/blob/blobtest"
)

// exercise holds any Store to the interface's contract.
func exercise(t *testing.T, s Store) {
	t.Helper()
	ctx := context.Background()
	data := bytes.Repeat([]byte("jpeg-bytes "), 1000)
	if err := s.Put(ctx, "0123abcd.jpg", data); err != nil {
		t.Fatal(err)
	}
	f, err := s.Open(ctx, "0123abcd.jpg")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(f)
	if !bytes.Equal(b, data) {
		t.Fatalf("read %d bytes, want %d", len(b), len(data))
	}
	// Seekable, for range requests.
	if _, err := f.Seek(5, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	head := make([]byte, 5)
	if _, err := io.ReadFull(f, head); err != nil || string(head) != "bytes" {
		t.Fatalf("after seek read %q, %v", head, err)
	}
	f.Close()
	for _, bad := range []string{"../x.jpg", "a/b.jpg", "..", "", "AB.jpg", "x"} {
		if err := s.Put(ctx, bad, nil); !errors.Is(err, ErrBadName) {
			t.Fatalf("Put(%q): %v", bad, err)
		}
		if _, err := s.Open(ctx, bad); !errors.Is(err, ErrBadName) {
			t.Fatalf("Open(%q): %v", bad, err)
		}
	}
	if _, err := s.Open(ctx, "ffffffff.jpg"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("open missing: %v", err)
	}
	if err := s.Delete(ctx, "0123abcd.jpg"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, "0123abcd.jpg"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("open deleted: %v", err)
	}
	if err := s.Delete(ctx, "0123abcd.jpg"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("delete twice: %v", err)
	}
}

func TestDisk(t *testing.T) { exercise(t, NewDisk(t.TempDir())) }

// TestS3 runs the same contract against an S3-compatible server on
// loopback, through the URL an operator would write.
func TestS3(t *testing.T) {
	srv := blobtest.StartS3(t, "layerfix-photos")
	cfg, err := ParseS3URL(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	cfg.AccessKey, cfg.SecretKey = srv.AccessKey, srv.SecretKey
	s, err := NewS3(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	exercise(t, s)

	if srv.Kind == "minio" { // gofakes3 does not check signatures
		bad := cfg
		bad.SecretKey = "not-the-secret"
		if _, err := NewS3(context.Background(), bad); err == nil {
			t.Fatal("a wrong secret key was accepted")
		}
	}
	cfg.Bucket = "no-such-bucket"
	if _, err := NewS3(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("missing bucket: %v", err)
	}
}

func TestParseS3URL(t *testing.T) {
	c, err := ParseS3URL("s3://photos/layerfix/?endpoint=http://127.0.0.1:9000&region=eu-west-1")
	if err != nil {
		t.Fatal(err)
	}
	want := S3Config{Bucket: "photos", Prefix: "layerfix/", Endpoint: "127.0.0.1:9000", Secure: false, Region: "eu-west-1", PathStyle: true}
	if c != want {
		t.Fatalf("got %+v, want %+v", c, want)
	}
	c, err = ParseS3URL("s3://my-bucket")
	if err != nil || c.Endpoint != "s3.amazonaws.com" || !c.Secure || c.PathStyle || c.Prefix != "" {
		t.Fatalf("AWS default: %+v %v", c, err)
	}
	for _, bad := range []string{"http://bucket", "s3://", "s3://b?endpoint=ftp://x", "s3://b?secure=maybe", "s3://key:secret@b", "s3://b?acl=public"} {
		if _, err := ParseS3URL(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
