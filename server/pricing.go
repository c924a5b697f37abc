package server

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/layerfix/layerfix/config"

	"github.com/labstack/echo/v4"
)

// PriceEntry is one plan's monthly price in US dollars.
type PriceEntry struct {
	Tier   string  `json:"tier"`
	Amount float64 `json:"amount"`
}

// FallbackPrices are the plans' published monthly amounts, used until billing is
// configured or when the payment provider cannot be asked.
var FallbackPrices = []PriceEntry{{"free", 0}, {"hobby", 3.99}, {"pro", 7.99}, {"farm", 19.99}}

// priceSource reads the paid tiers' monthly amounts in cents.
type priceSource interface {
	Prices(ctx context.Context) (map[string]int64, error)
}

// Prices are kept for priceTTL; after a failed read the fallback amounts
// are served for priceRetry before the provider is asked again.
const (
	priceTTL     = 5 * time.Minute
	priceRetry   = time.Minute
	priceTimeout = 3 * time.Second
)

type pricingAPI struct {
	limits config.TierLimits
	source priceSource // nil when billing is off
	now    func() time.Time
	log    *slog.Logger

	mu     sync.Mutex
	cached []PriceEntry
	until  time.Time
}

func (p *pricingAPI) pricing(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "public, max-age=300")
	return c.JSON(http.StatusOK, p.prices(c.Request().Context()))
}

// prices are the provider's amounts, cached, with the fallback
// amounts for any tier it cannot tell.
func (p *pricingAPI) prices(ctx context.Context) []PriceEntry {
	if p.source == nil {
		return FallbackPrices
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cached != nil && p.now().Before(p.until) {
		return p.cached
	}
	// A visitor who leaves must not cut the read short for everyone else.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), priceTimeout)
	defer cancel()
	out := append([]PriceEntry(nil), FallbackPrices...)
	ttl := priceTTL
	amounts, err := p.source.Prices(ctx)
	if err != nil {
		p.log.Warn("pricing: using fallback amounts", "err", err)
		ttl = priceRetry
	}
	for i, e := range out {
		if a, ok := amounts[e.Tier]; ok && a > 0 {
			out[i].Amount = float64(a) / 100
		}
	}
	p.cached, p.until = out, p.now().Add(ttl)
	return out
}

type planLimit struct {
	Name  string `json:"name"`
	Limit int    `json:"limit"`
}

func (p *pricingAPI) usageLimits(c echo.Context) error {
	out := map[string]planLimit{}
	for _, t := range config.Tiers {
		out[t.ID] = planLimit{Name: t.Name, Limit: p.limits.Limit(t.ID)}
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=300")
	return c.JSON(http.StatusOK, out)
}
