package photos

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/store/blob"
)

// Open is the photo store the configuration names: an S3-compatible
// bucket when LAYERFIX_BLOB_URL is set, else the photos directory in the
// data dir.
func Open(ctx context.Context, cfg *config.Config) (blob.Store, error) {
	if cfg.BlobURL == "" {
		return Dir(cfg), nil
	}
	c, err := blob.ParseS3URL(cfg.BlobURL)
	if err != nil {
		return nil, fmt.Errorf("LAYERFIX_BLOB_URL: %w", err)
	}
	c.AccessKey, c.SecretKey = cfg.S3AccessKey, cfg.S3SecretKey
	s, err := blob.NewS3(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("LAYERFIX_BLOB_URL: %w", err)
	}
	return s, nil
}

// Dir is the photos directory in the data dir, the store when no bucket is
// configured.
func Dir(cfg *config.Config) blob.Store {
	return blob.NewDisk(filepath.Join(cfg.DataDir, "photos"))
}
