package server

import (
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/accounts"
	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/store"
)

// profile is the signed-in user as the app sees it.
type profile struct {
	ID                 int64   `json:"id"`
	FirebaseUID        *string `json:"firebaseUid"`
	Email              string  `json:"email"`
	DisplayName        string  `json:"displayName"`
	EmailVerified      bool    `json:"emailVerified"`
	SubscriptionStatus string  `json:"subscriptionStatus"`
	SubscriptionTier   string  `json:"subscriptionTier"`
	MonthlyUsage       int     `json:"monthlyUsage"`
	MonthlyLimit       int     `json:"monthlyLimit"`
	UsageResetsAt      string  `json:"usageResetsAt"`
}

func profileOf(u *store.User, now time.Time, limits config.TierLimits) profile {
	return profile{
		ID: u.ID, FirebaseUID: u.FirebaseUID, Email: u.Email, DisplayName: u.DisplayName, EmailVerified: u.EmailVerified,
		SubscriptionStatus: u.SubscriptionStatus, SubscriptionTier: u.SubscriptionTier,
		MonthlyUsage: store.EffectiveUsage(u, now), MonthlyLimit: limits.Limit(accounts.EffectiveTier(u)),
		UsageResetsAt: nextMonth(now).Format(time.RFC3339),
	}
}

type profileAPI struct {
	store  *store.Store
	limits config.TierLimits
	now    func() time.Time
}

func (p *profileAPI) get(c echo.Context) error {
	u, err := p.store.UserByID(c.Request().Context(), currentUser(c).ID)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, profileOf(u, p.now(), p.limits))
}

// update handles PATCH /api/user/profile: the display name, checked by the
// sign-up rules; it answers the updated profile.
func (p *profileAPI) update(c echo.Context) error {
	var in profileUpdate
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	if in.DisplayName == nil {
		return validationErr(map[string]string{"displayName": "Please enter your display name"})
	}
	name, problem := accounts.CheckDisplayName(*in.DisplayName)
	if problem != "" {
		return validationErr(map[string]string{"displayName": problem})
	}
	if err := p.store.UpdateUser(c.Request().Context(), currentUser(c).ID, map[string]any{"display_name": name}); err != nil {
		return err
	}
	return p.get(c)
}

// newAccountWindow is how recent an account must be for the anonymous
// usage of its sign-up to be transferred to it.
const newAccountWindow = time.Hour

// transferUsage moves this IP's anonymous analyses of the month into the
// caller's account when the account was just created by this sign-up, once
// per IP and month (docs/decisions.md, "Anonymous usage transfer").
func (p *profileAPI) transferUsage(c echo.Context) error {
	n, err := p.store.TransferAnonymous(c.Request().Context(), currentUser(c).ID, clientIP(c), p.now(), newAccountWindow)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, transferResponse{Transferred: n})
}

func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }
