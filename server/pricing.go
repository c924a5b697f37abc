package server

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// PriceEntry is one plan's monthly price in US dollars.
type PriceEntry struct {
	Tier   string  `json:"tier"`
	Amount float64 `json:"amount"`
}

// FallbackPrices are SPEC section 9's amounts, used until billing is
// configured or when the payment provider cannot be asked.
var FallbackPrices = []PriceEntry{{"free", 0}, {"hobby", 3.99}, {"pro", 7.99}, {"farm", 19.99}}

type pricingAPI struct {
	limits TierLimits
}

func (p *pricingAPI) pricing(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "public, max-age=300")
	return c.JSON(http.StatusOK, FallbackPrices)
}

type planLimit struct {
	Name  string `json:"name"`
	Limit int    `json:"limit"`
}

func (p *pricingAPI) usageLimits(c echo.Context) error {
	out := map[string]planLimit{}
	for _, t := range Tiers {
		out[t.ID] = planLimit{Name: t.Name, Limit: p.limits.Limit(t.ID)}
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=300")
	return c.JSON(http.StatusOK, out)
}
