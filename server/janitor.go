package server

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/layerfix/layerfix/photos"
	"github.com/layerfix/layerfix/store"
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
			if err := p.blobs.Delete(ctx, id+photos.FileSuffix); err != nil && !errors.Is(err, blob.ErrNotFound) {
				p.log.Warn("delete orphan photo file", "err", err)
			}
		}
		total += len(ids)
	}
}

// sweep deletes orphan photos and expired rows, logging what went.
func (s *Server) sweep(ctx context.Context) error {
	n, err := s.photos.sweepOrphanPhotos(ctx)
	if err != nil {
		return fmt.Errorf("sweep orphan photos: %w", err)
	}
	if n > 0 {
		s.log.Info("swept orphan photos", "count", n)
	}
	p, err := s.store.PurgeExpired(ctx, s.now())
	if err != nil {
		return fmt.Errorf("purge expired rows: %w", err)
	}
	if p != (store.Purged{}) {
		s.log.Info("purged expired rows", "sessions", p.Sessions, "tokens", p.Tokens, "anonymous_usage", p.AnonymousRows, "stripe_events", p.StripeEvents, "limits", p.Limits)
	}
	return nil
}

// janitor sweeps a minute after start, then hourly, until ctx ends. With
// several instances on one PostgreSQL database only the one holding the
// janitor lock sweeps.
func (s *Server) janitor(ctx context.Context) {
	t := time.NewTimer(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		err := s.store.WithJanitorLock(ctx, s.sweep)
		if errors.Is(err, store.ErrJanitorBusy) {
			s.log.Debug("janitor: another instance is sweeping")
		} else if err != nil && ctx.Err() == nil {
			s.log.Error("janitor", "err", err)
		}
		t.Reset(time.Hour)
	}
}

// diskCheck reports a full or unwritable data directory to /healthz, read
// at most every diskCheckEvery so probes stay cheap.
type diskCheck struct {
	dir  string
	now  func() time.Time
	mu   sync.Mutex
	at   time.Time
	last string
}

const diskCheckEvery = 10 * time.Second

// diskProblemOf is the check itself; tests replace it.
var diskProblemOf = store.DiskProblem

func (d *diskCheck) problem() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if now := d.now(); d.at.IsZero() || now.Sub(d.at) >= diskCheckEvery || now.Before(d.at) {
		d.at, d.last = now, diskProblemOf(d.dir)
	}
	return d.last
}
