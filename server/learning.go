package server

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/store"
)

// CaseLearner takes this server's confirmed fixes as a case base (the
// built-in engine).
type CaseLearner interface {
	SetLocalCases(cases []ai.Case) error
}

// maxLearnedCases bounds the server's case base: the most recently
// confirmed fixes win.
const maxLearnedCases = 5000

// learnInterval refreshes the case base with fixes confirmed on other
// instances sharing the database.
const learnInterval = 10 * time.Minute

// learner keeps the engine's server case base in step with the fixes makers
// confirm when they resolve an issue. Shared results and anonymous analyses
// never feed it; it reads only the description, category, settings, printer
// brand and the ticked step titles, never who the maker is, and nothing
// leaves the server.
type learner struct {
	store interface {
		ConfirmedFixes(context.Context, int) ([]store.ConfirmedFix, error)
	}
	target CaseLearner
	log    *slog.Logger

	mu      sync.Mutex // one refresh at a time
	trigger chan struct{}
}

func newLearner(st *store.Store, target CaseLearner, log *slog.Logger) *learner {
	return &learner{store: st, target: target, log: log, trigger: make(chan struct{}, 1)}
}

// refresh reloads the confirmed fixes into the engine. A panic while
// indexing them is returned as an error and the engine keeps its case base:
// one bad confirmed fix must not stop the server, at every start.
func (l *learner) refresh(ctx context.Context) (err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			err = recovered(r, nil)
		}
	}()
	rows, err := l.store.ConfirmedFixes(ctx, maxLearnedCases)
	if err != nil {
		return err
	}
	cases := make([]ai.Case, 0, len(rows))
	for _, r := range rows {
		c := ai.Case{
			ID: "local-" + strconv.FormatInt(r.ID, 10), Category: r.Category, Description: r.Description,
			NozzleTemp: r.NozzleTemp, BedTemp: r.BedTemp, LayerHeight: r.LayerHeight, PrintSpeed: r.PrintSpeed,
			Infill: r.Infill, NozzleSize: r.NozzleSize, FixTitles: []string(r.WorkingRecommendations),
		}
		if r.Material != nil {
			c.Material = *r.Material
		}
		if r.PrinterBrand != nil {
			c.Printer = *r.PrinterBrand
		}
		if strings.TrimSpace(c.Description) != "" && len(c.FixTitles) > 0 {
			cases = append(cases, c)
		}
	}
	if err := l.target.SetLocalCases(cases); err != nil {
		return fmt.Errorf("index confirmed fixes: %w", err)
	}
	l.log.Debug("learned from confirmed fixes", "cases", len(cases))
	return nil
}

// learned asks for a refresh after a maker confirmed a fix; refreshes
// coalesce.
func (l *learner) learned() {
	if l == nil {
		return
	}
	select {
	case l.trigger <- struct{}{}:
	default:
	}
}

// run refreshes at start, after each confirmed fix and every learnInterval.
func (l *learner) run(ctx context.Context) {
	if l == nil {
		return
	}
	tick := time.NewTicker(learnInterval)
	defer tick.Stop()
	for {
		if err := l.refresh(ctx); err != nil && ctx.Err() == nil {
			l.log.Error("learn from confirmed fixes", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-l.trigger:
		case <-tick.C:
		}
	}
}
