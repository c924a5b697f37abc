package server

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/store/blob"
)

// registerWorkspace adds the signed-in maker's routes: printers, photos,
// issues (issue 6 of the tracker). Every route is scoped to the caller:
// another user's id answers 404 and changes nothing.
func (s *Server) registerWorkspace(api *echo.Group, d Deps) {
	blobs := d.Photos
	if blobs == nil {
		blobs = blob.NewDisk(filepath.Join(s.cfg.DataDir, "photos"))
	}
	ph := &photosAPI{store: d.Store, blobs: blobs, basePath: s.cfg.BasePath, now: s.now, log: s.log, keys: s.signer.keys, metrics: s.metrics}
	s.photos = ph
	pr := &printersAPI{store: d.Store, now: s.now, hostKeys: hostKeys{keys: s.signer.keys}, link: newPrinterLink(s.cfg, d.Store, s.now, s.log)}
	diagnoser, _ := d.Refiner.(Diagnoser)
	is := &issuesAPI{store: d.Store, photos: ph, blobs: blobs, analyzer: d.Analyzer, diagnoser: diagnoser,
		limits: s.cfg.TierLimits, now: s.now, log: s.log, learn: s.learn, refiner: d.Refiner, signer: s.signer,
		netLimit: s.cfg.NetworkLimit, requireVerified: s.cfg.RequireVerified,
		saved:    newFixedWindow(newLimitStates(d.Store, "saved-analysis", s.now), 1, refineTokenLife, s.now),
		operator: s.cfg.OperatorName, contact: s.cfg.ContactEmail}

	api.GET("/printers", pr.list)
	api.POST("/printers", pr.create)
	api.GET("/printers/stats", pr.stats)
	api.GET("/printers/:id/stats", pr.printerStatsOne)
	api.PUT("/printers/:id", pr.update)
	api.DELETE("/printers/:id", pr.remove)
	api.POST("/printers/:id/pull", pr.pull)

	api.GET("/issues", is.list)
	api.POST("/issues", is.create)
	api.POST("/issues/from-analysis", is.saveAnalysis)
	api.GET("/issues/export", is.export)
	api.GET("/issues/summary", is.summary)
	api.GET("/issues/:id", is.get)
	api.PATCH("/issues/:id/resolve", is.resolve)
	api.PATCH("/issues/:id/progress", is.start)
	api.PUT("/issues/:id/checked-steps", is.checkedSteps)
	api.POST("/issues/:id/refine", is.refine)
	api.GET("/issues/:id/attachments/:n", is.attachment)

	// Photos must load in <img> tags without a bearer token, so the photo
	// routes sit outside the group with their own middleware.
	auth := d.Authenticator
	if s.cfg.AuthMode != "firebase" || auth == nil {
		auth = s.local
	}
	base := s.cfg.BasePath + "/api"
	s.e.POST(base+"/upload-images", ph.upload, authenticate(auth, s.cfg.BasePath))
	s.e.GET(base+"/photos/:name", ph.serve, optionalUser(auth))
	s.e.HEAD(base+"/photos/:name", ph.serve, optionalUser(auth))
}

// OpenPhotos is the photo store the configuration names: an S3-compatible
// bucket when LAYERFIX_BLOB_URL is set, else the photos directory in the
// data dir.
func OpenPhotos(ctx context.Context, cfg *Config) (blob.Store, error) {
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
