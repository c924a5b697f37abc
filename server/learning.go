package server

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/layerfix/layerfix/ai"
	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/store"
)

// CaseLearner is the built-in engine as learning uses it: it names the
// knowledge-base steps among the titles a maker confirmed, and takes this
// server's confirmed steps as a case base.
type CaseLearner interface {
	StepRefs(req ai.Request, titles []string) []string
	SetLocalCases(cases []ai.Case) error
}

const (
	// maxLearnedCases bounds the server's case base: the most recently
	// confirmed fixes win.
	maxLearnedCases = 5000
	// maxCasesPerMaker is one account's share of it (its newest).
	maxCasesPerMaker = 50
	// learnInterval refreshes the case base with fixes confirmed on other
	// instances sharing the database.
	learnInterval = 10 * time.Minute
	// learnNetworkKeyName keys the hash of a confirmation's network.
	learnNetworkKeyName = "learn-network-v1"
)

// learner keeps the engine's server case base in step with the steps makers
// confirm when they resolve an issue. It trusts a step only once enough
// makers agree: minMakers distinct verified accounts from minNetworks
// distinct networks confirmed it. It reads the description, category,
// settings, printer brand and the confirmed knowledge-base steps, and who
// confirmed them only to count them; nothing leaves the server.
type learner struct {
	store interface {
		ConfirmedFixes(ctx context.Context, limit, perMaker int) ([]store.ConfirmedFix, error)
	}
	target                 CaseLearner
	keys                   *keyring
	minMakers, minNetworks int
	log                    *slog.Logger

	mu      sync.Mutex // one refresh at a time
	trigger chan struct{}
}

func newLearner(st *store.Store, target CaseLearner, cfg *config.Config, log *slog.Logger) *learner {
	return &learner{store: st, target: target, keys: &keyring{store: st}, minMakers: cfg.LearnMinMakers,
		minNetworks: cfg.LearnMinNetworks, log: log, trigger: make(chan struct{}, 1)}
}

// refresh reloads the agreed confirmed steps into the engine. A panic while
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
	rows, err := l.store.ConfirmedFixes(ctx, maxLearnedCases, maxCasesPerMaker)
	if err != nil {
		return err
	}
	agreed := l.agreed(rows)
	cases := make([]ai.Case, 0, len(rows))
	for _, r := range rows {
		var steps []string
		for _, ref := range r.LearnedSteps {
			if agreed[ref] {
				steps = append(steps, ref)
			}
		}
		if len(steps) == 0 || strings.TrimSpace(r.Description) == "" {
			continue
		}
		c := ai.Case{
			ID: "local-" + strconv.FormatInt(r.ID, 10), Category: r.Category, Description: r.Description,
			NozzleTemp: r.NozzleTemp, BedTemp: r.BedTemp, LayerHeight: r.LayerHeight, PrintSpeed: r.PrintSpeed,
			Infill: r.Infill, NozzleSize: r.NozzleSize, Steps: steps, Maker: strconv.FormatInt(r.UserID, 10),
		}
		if r.Material != nil {
			c.Material = *r.Material
		}
		if r.PrinterBrand != nil {
			c.Printer = *r.PrinterBrand
		}
		cases = append(cases, c)
	}
	if err := l.target.SetLocalCases(cases); err != nil {
		return fmt.Errorf("index confirmed fixes: %w", err)
	}
	l.log.Debug("learned from confirmed fixes", "cases", len(cases), "steps", len(agreed))
	return nil
}

// agreed are the steps enough makers confirmed: at least minMakers distinct
// accounts, from at least minNetworks distinct networks. However often one
// account confirms a step, it counts once.
func (l *learner) agreed(rows []store.ConfirmedFix) map[string]bool {
	makers := map[string]map[int64]bool{}
	networks := map[string]map[string]bool{}
	for _, r := range rows {
		for _, ref := range r.LearnedSteps {
			if makers[ref] == nil {
				makers[ref], networks[ref] = map[int64]bool{}, map[string]bool{}
			}
			makers[ref][r.UserID] = true
			networks[ref][r.Network] = true
		}
	}
	out := map[string]bool{}
	for ref, m := range makers {
		if len(m) >= l.minMakers && len(networks[ref]) >= l.minNetworks {
			out[ref] = true
		}
	}
	return out
}

// confirm is what learning keeps of a maker's confirmation: the
// knowledge-base steps among titles (the caller keeps only steps the issue's
// analysis offered) for the request, and a keyed hash of the network
// ip belongs to. Nothing when learning is off or no title is such a step.
func (l *learner) confirm(ctx context.Context, req ai.Request, titles []string, ip string) (store.Confirmation, error) {
	if l == nil || len(titles) == 0 {
		return store.Confirmation{}, nil
	}
	steps := l.target.StepRefs(req, titles)
	if len(steps) == 0 {
		return store.Confirmation{}, nil
	}
	network, err := l.network(ctx, ip)
	return store.Confirmation{Steps: steps, Network: network}, err
}

// network hashes, with a server key, the network of a client address: its
// IPv4 /24, or the IPv6 prefix every per-address limit uses (the address
// given is already cut to it). The address itself is never stored.
func (l *learner) network(ctx context.Context, ip string) (string, error) {
	if a := net.ParseIP(ip); a != nil && a.To4() != nil {
		ip = (&net.IPNet{IP: a.To4().Mask(net.CIDRMask(24, 32)), Mask: net.CIDRMask(24, 32)}).String()
	}
	key, err := l.keys.key(ctx, learnNetworkKeyName)
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(ip))
	return hex.EncodeToString(m.Sum(nil)[:12]), nil
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
