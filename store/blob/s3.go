package blob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3 is a Store on an S3-compatible object store (AWS S3, MinIO, Garage,
// SeaweedFS, Cloudflare R2, Backblaze B2...), so that several instances
// behind a load balancer serve the same photos. Reads are streamed: Open
// returns a seekable object whose bytes are fetched as they are read, so
// a photo never sits whole in memory and range requests stay cheap.
type S3 struct {
	client *minio.Client
	bucket string
	prefix string // "" or "dir/" inside the bucket
}

// S3Config is where and how to reach the object store.
type S3Config struct {
	Bucket    string
	Prefix    string
	Endpoint  string // host[:port]
	Secure    bool   // https (the default) or http
	Region    string
	PathStyle bool // bucket in the path (MinIO and most self-hosted stores), not the host name
	AccessKey string
	SecretKey string
}

// ParseS3URL reads s3://bucket[/prefix]?endpoint=host:port&region=r&
// secure=false&path_style=true (LAYERFIX_BLOB_URL). The endpoint defaults
// to AWS (s3.amazonaws.com); an endpoint written as http://host turns TLS
// off. Credentials are not part of the URL: they come from their own
// settings, so the URL can be logged.
func ParseS3URL(raw string) (S3Config, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "s3" || u.Host == "" {
		//nolint:staticcheck // the trailing "..." is part of the address format shown
		return S3Config{}, fmt.Errorf("%q is not s3://bucket[/prefix]?endpoint=host:port&region=...", raw)
	}
	if u.User != nil {
		return S3Config{}, errors.New("credentials do not go in the URL: use LAYERFIX_S3_ACCESS_KEY and LAYERFIX_S3_SECRET_KEY (or their _FILE forms)")
	}
	c := S3Config{Bucket: u.Host, Endpoint: "s3.amazonaws.com", Secure: true, Region: "us-east-1"}
	if p := strings.Trim(u.Path, "/"); p != "" {
		c.Prefix = path.Clean(p) + "/"
	}
	q := u.Query()
	for k := range q {
		switch k {
		case "endpoint", "region", "secure", "path_style":
		default:
			return S3Config{}, fmt.Errorf("unknown parameter %q (known: endpoint, region, secure, path_style)", k)
		}
	}
	if e := q.Get("endpoint"); e != "" {
		if strings.Contains(e, "://") {
			eu, err := url.Parse(e)
			if err != nil || (eu.Scheme != "http" && eu.Scheme != "https") || eu.Host == "" {
				return S3Config{}, fmt.Errorf("endpoint %q is not host:port or an http(s) URL", e)
			}
			c.Secure = eu.Scheme == "https"
			e = eu.Host
		}
		c.Endpoint = e
		c.PathStyle = true // self-hosted stores rarely have wildcard DNS
	}
	if r := q.Get("region"); r != "" {
		c.Region = r
	}
	for _, b := range []struct {
		name string
		p    *bool
	}{{"secure", &c.Secure}, {"path_style", &c.PathStyle}} {
		if v := q.Get(b.name); v != "" {
			on, err := strconv.ParseBool(v)
			if err != nil {
				return S3Config{}, fmt.Errorf("%s=%q is not true or false", b.name, v)
			}
			*b.p = on
		}
	}
	return c, nil
}

// NewS3 connects to the bucket and checks that it exists and that the
// credentials can read it, so a wrong setting fails at start, not at the
// first upload.
func NewS3(ctx context.Context, c S3Config) (*S3, error) {
	lookup := minio.BucketLookupDNS
	if c.PathStyle {
		lookup = minio.BucketLookupPath
	}
	var creds *credentials.Credentials
	if c.AccessKey != "" || c.SecretKey != "" {
		creds = credentials.NewStaticV4(c.AccessKey, c.SecretKey, "")
	} else {
		// Instance roles and the standard AWS variables, when nothing is set.
		creds = credentials.NewChainCredentials([]credentials.Provider{&credentials.EnvAWS{}, &credentials.IAM{}})
	}
	client, err := minio.New(c.Endpoint, &minio.Options{Creds: creds, Secure: c.Secure, Region: c.Region, BucketLookup: lookup})
	if err != nil {
		return nil, fmt.Errorf("object store %s: %w", c.Endpoint, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	ok, err := client.BucketExists(ctx, c.Bucket)
	if err != nil {
		return nil, fmt.Errorf("object store %s: bucket %q: %w", c.Endpoint, c.Bucket, err)
	}
	if !ok {
		return nil, fmt.Errorf("object store %s: bucket %q does not exist (create it first)", c.Endpoint, c.Bucket)
	}
	return &S3{client: client, bucket: c.Bucket, prefix: c.Prefix}, nil
}

func (s *S3) key(name string) (string, error) {
	if !validName.MatchString(name) {
		return "", ErrBadName
	}
	return s.prefix + name, nil
}

// Put uploads data in one request (photos are at most a few megabytes).
func (s *S3) Put(ctx context.Context, name string, data []byte) error {
	k, err := s.key(name)
	if err != nil {
		return err
	}
	_, err = s.client.PutObject(ctx, s.bucket, k, bytes.NewReader(data), int64(len(data)),
		minio.PutObjectOptions{ContentType: contentType(name), DisableMultipart: true})
	if err != nil {
		return fmt.Errorf("put %s: %w", name, err)
	}
	return nil
}

// Open stats the object (so a missing one is ErrNotFound here, not at the
// first read) and returns it for streaming.
func (s *S3) Open(ctx context.Context, name string) (io.ReadSeekCloser, error) {
	k, err := s.key(name)
	if err != nil {
		return nil, err
	}
	obj, err := s.client.GetObject(ctx, s.bucket, k, minio.GetObjectOptions{})
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	if _, err := obj.Stat(); err != nil {
		_ = obj.Close() // the Stat error is the one that matters
		if isNoSuchKey(err) {
			return nil, ErrNotFound
		}
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	return obj, nil
}

// Delete removes the object; S3 deletes are idempotent, so a stat first
// tells a missing one apart.
func (s *S3) Delete(ctx context.Context, name string) error {
	k, err := s.key(name)
	if err != nil {
		return err
	}
	if _, err := s.client.StatObject(ctx, s.bucket, k, minio.StatObjectOptions{}); err != nil {
		if isNoSuchKey(err) {
			return ErrNotFound
		}
		return fmt.Errorf("delete %s: %w", name, err)
	}
	if err := s.client.RemoveObject(ctx, s.bucket, k, minio.RemoveObjectOptions{}); err != nil {
		return fmt.Errorf("delete %s: %w", name, err)
	}
	return nil
}

func isNoSuchKey(err error) bool {
	code := minio.ToErrorResponse(err).Code
	return code == "NoSuchKey" || code == "NotFound"
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".png":
		return "image/png"
	case ".webp":
		return "image/webp"
	}
	return "application/octet-stream"
}
