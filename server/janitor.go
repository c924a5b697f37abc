package server

import (
	"context"
	"errors"
	"time"

	"github.com/layerfix/layerfix/store/blob"
)

// orphanAge is how long an uploaded photo may wait for its issue.
const orphanAge = 24 * time.Hour

// sweepOrphanPhotos deletes photos that were uploaded more than orphanAge
// ago and never attached to an issue: the records first (so nobody can
// attach them any more), then the files. It returns how many went.
func (p *photosAPI) sweepOrphanPhotos(ctx context.Context) (int, error) {
	total := 0
	for {
		orphans, err := p.store.OrphanPhotos(ctx, p.now().Add(-orphanAge), 200)
		if err != nil || len(orphans) == 0 {
			return total, err
		}
		ids := make([]string, len(orphans))
		for i, o := range orphans {
			ids[i] = o.ID
		}
		if err := p.store.DeletePhotos(ctx, ids); err != nil {
			return total, err
		}
		for _, id := range ids {
			if err := p.blobs.Delete(ctx, id+photoFileSuffix); err != nil && !errors.Is(err, blob.ErrNotFound) {
				p.log.Warn("delete orphan photo file", "err", err)
			}
		}
		total += len(ids)
	}
}

// janitor sweeps orphan photos a minute after start, then hourly, until
// ctx ends.
func (s *Server) janitor(ctx context.Context) {
	t := time.NewTimer(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		n, err := s.photos.sweepOrphanPhotos(ctx)
		if err != nil && ctx.Err() == nil {
			s.log.Error("sweep orphan photos", "err", err)
		} else if n > 0 {
			s.log.Info("swept orphan photos", "count", n)
		}
		t.Reset(time.Hour)
	}
}
