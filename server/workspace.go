package server

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/store/blob"
)

// OpenPhotos is the photo store the configuration names: an S3-compatible
// bucket when LAYERFIX_BLOB_URL is set, else the photos directory in the
// data dir.
func OpenPhotos(ctx context.Context, cfg *config.Config) (blob.Store, error) {
	if cfg.BlobURL == "" {
		return blob.NewDisk(filepath.Join(cfg.DataDir, "photos")), nil
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
