package server

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/layerfix/layerfix/accounts"
	"github.com/layerfix/layerfix/billing"
	"github.com/layerfix/layerfix/config"
	"github.com/layerfix/layerfix/store"
)

// Billing error codes.
const (
	CodeBillingDisabled    = "BILLING_DISABLED"
	CodeEmailNotVerified   = "EMAIL_NOT_VERIFIED"
	CodeBillingUnavailable = "BILLING_UNAVAILABLE"    // the provider is down or answered 5xx
	CodeBillingProvider    = "BILLING_PROVIDER_ERROR" // the provider refused the request
	CodePaymentFailed      = "PAYMENT_FAILED"
	CodeNoSubscription     = "NO_SUBSCRIPTION"
	CodeSetupIncomplete    = "SETUP_INCOMPLETE"
	CodeBadSignature       = "BAD_SIGNATURE"
)

// maxWebhookBody caps a Stripe event (they are a few kB).
const maxWebhookBody = 1 << 20

var setupIntentID = regexp.MustCompile(`^seti_[A-Za-z0-9_]{1,200}$`)

// webhookEvents are the event types that change a user's plan; the
// subscription is re-read from the provider for each of them.
var webhookEvents = map[string]bool{
	"customer.subscription.created": true,
	"customer.subscription.updated": true,
	"customer.subscription.deleted": true,
	"invoice.paid":                  true,
	"invoice.payment_failed":        true,
}

type billingAPI struct {
	store    *store.Store
	provider billing.Provider // nil when billing is off
	now      func() time.Time
	log      *slog.Logger
	// customers serialises each customer's plan writes; under it the state
	// written is the one Stripe reports then, never an older read.
	customers keyedMutex
}

// maxSettleReads bounds the reads that wait for Stripe's state to settle.
const maxSettleReads = 4

// settledState reads the subscription until two reads agree (an event in
// flight at Stripe can change it between them) and returns what to store.
// Call it holding the customer's lock.
func (b *billingAPI) settledState(ctx context.Context, subscriptionID string) (store.SubscriptionUpdate, error) {
	var prev *store.SubscriptionUpdate
	for i := 0; i < maxSettleReads; i++ {
		s, err := b.provider.Subscription(ctx, subscriptionID)
		var up store.SubscriptionUpdate
		switch {
		case billing.KindOf(err) == billing.NotFound:
			up = store.SubscriptionUpdate{SubscriptionID: subscriptionID, Status: "canceled", Tier: "free"}
		case err != nil:
			return up, err
		default:
			up = stateOf(s)
		}
		if prev != nil && sameState(*prev, up) {
			return up, nil
		}
		prev = &up
	}
	return *prev, nil
}

func sameState(a, b store.SubscriptionUpdate) bool {
	return a.SubscriptionID == b.SubscriptionID && a.Status == b.Status && a.Tier == b.Tier &&
		a.CancelAtPeriodEnd == b.CancelAtPeriodEnd && formatTime(a.CurrentPeriodEnd) == formatTime(b.CurrentPeriodEnd)
}

// lockCustomer serialises the customer's plan writes in this process and,
// on a shared PostgreSQL database, across every instance.
func (b *billingAPI) lockCustomer(ctx context.Context, customerID string) (func(), error) {
	unlock := b.customers.lock(customerID)
	unlockShared, err := b.store.KeyLock(ctx, "stripe-customer:"+customerID)
	if err != nil {
		unlock()
		return nil, err
	}
	return func() { unlockShared(); unlock() }, nil
}

// saveSettled stores the settled state of the customer's subscription
// under the customer's lock. fallbackTier fills a state with no tier.
func (b *billingAPI) saveSettled(ctx context.Context, userID int64, customerID, subscriptionID, fallbackTier string) (store.SubscriptionUpdate, error) {
	unlock, err := b.lockCustomer(ctx, customerID)
	if err != nil {
		return store.SubscriptionUpdate{}, err
	}
	defer unlock()
	up, err := b.settledState(ctx, subscriptionID)
	if err != nil {
		return up, b.providerErr(err)
	}
	if up.Tier == "" {
		up.Tier = fallbackTier
	}
	return up, b.store.SaveSubscription(ctx, userID, up)
}

// enabled answers 503 BILLING_DISABLED on a server without a payment provider.
func (b *billingAPI) enabled(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if b.provider == nil {
			return apiErr(http.StatusServiceUnavailable, CodeBillingDisabled,
				"Billing is not enabled on this server, so plans cannot be bought here. The operator can grant a plan instead.")
		}
		return next(c)
	}
}

// quietlyEnabled answers webhook calls on a server without billing with a
// 404 and a debug line: scanners and misdirected Stripe endpoints must not
// fill the log with errors.
func (b *billingAPI) quietlyEnabled(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if b.provider == nil {
			b.log.Debug("stripe webhook on a server without billing")
			return apiErr(http.StatusNotFound, CodeBillingDisabled, "Billing is not enabled on this server.")
		}
		return next(c)
	}
}

// subscriptionView is the caller's plan as the subscription screens need it.
type subscriptionView struct {
	BillingEnabled    bool    `json:"billingEnabled"`
	Tier              string  `json:"tier"`
	Status            string  `json:"status"`
	EffectiveTier     string  `json:"effectiveTier"`
	HasSubscription   bool    `json:"hasSubscription"`
	CurrentPeriodEnd  *string `json:"currentPeriodEnd"`
	CancelAtPeriodEnd bool    `json:"cancelAtPeriodEnd"`
}

func (b *billingAPI) view(sub *store.Subscription) subscriptionView {
	u := &store.User{SubscriptionStatus: sub.Status, SubscriptionTier: sub.Tier}
	v := subscriptionView{BillingEnabled: b.provider != nil, Tier: sub.Tier, Status: sub.Status, EffectiveTier: accounts.EffectiveTier(u),
		HasSubscription: sub.SubscriptionID != "" && billing.Live(sub.Status), CancelAtPeriodEnd: sub.CancelAtPeriodEnd}
	if sub.CurrentPeriodEnd != nil {
		s := sub.CurrentPeriodEnd.UTC().Format(time.RFC3339)
		v.CurrentPeriodEnd = &s
	}
	return v
}

func (b *billingAPI) subscription(c echo.Context) error {
	sub, err := b.store.SubscriptionOf(c.Request().Context(), currentUser(c).ID)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, b.view(sub))
}

func paidTier(t string) bool { return slices.Contains(billing.PaidTiers, t) }

func tierLabel(t string) string {
	for _, x := range config.Tiers {
		if x.ID == t {
			return x.Name
		}
	}
	return t
}

const paidTierMsg = "Choose one of the paid plans: hobby, pro or farm."

// create starts a subscription: it reuses or creates the customer and
// returns a SetupIntent's client secret, or no secret when the caller is
// already subscribed.
func (b *billingAPI) create(c echo.Context) error {
	var req tierRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	tier := strings.ToLower(strings.TrimSpace(req.Tier))
	if !paidTier(tier) {
		return validationErr(map[string]string{"tier": paidTierMsg})
	}
	ctx, u := c.Request().Context(), currentUser(c)
	sub, err := b.store.SubscriptionOf(ctx, u.ID)
	if err != nil {
		return err
	}
	if sub.SubscriptionID != "" && billing.Live(sub.Status) {
		return c.JSON(http.StatusOK, map[string]any{"clientSecret": nil, "subscribed": true, "tier": sub.Tier,
			"message": "You already have an active subscription. Change your plan instead."})
	}
	customerID := sub.CustomerID
	if customerID == "" {
		id, err := b.provider.CreateCustomer(ctx, billing.Customer{UserID: u.ID, Email: u.Email, Name: u.DisplayName})
		if err != nil {
			return b.providerErr(err)
		}
		if customerID, err = b.store.SetStripeCustomer(ctx, u.ID, id); err != nil {
			return err
		}
	}
	secret, err := b.provider.CreateSetupIntent(ctx, customerID, u.ID, tier)
	if err != nil {
		return b.providerErr(err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"clientSecret": secret})
}

// complete creates the subscription once the browser confirmed the
// SetupIntent, with its payment method as the default. A first invoice
// that needs authentication answers requiresAction with the payment's
// client secret; the webhook records the plan once it is paid.
func (b *billingAPI) complete(c echo.Context) error {
	var req setupIntentRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	id := strings.TrimSpace(req.SetupIntentID)
	if !setupIntentID.MatchString(id) {
		return validationErr(map[string]string{"setupIntentId": "Send the id of the confirmed SetupIntent (seti_...)."})
	}
	ctx, u := c.Request().Context(), currentUser(c)
	sub, err := b.store.SubscriptionOf(ctx, u.ID)
	if err != nil {
		return err
	}
	if sub.CustomerID == "" {
		return apiErr(http.StatusConflict, CodeSetupIncomplete, "Choose a plan first: this account has no payment setup yet.")
	}
	if sub.SubscriptionID != "" && billing.Live(sub.Status) {
		out := map[string]any{"status": sub.Status, "tier": sub.Tier, "message": "Your subscription is already active."}
		return c.JSON(http.StatusOK, out)
	}
	si, err := b.provider.SetupIntent(ctx, id)
	if billing.KindOf(err) == billing.NotFound {
		return notFoundErr("Payment setup")
	}
	if err != nil {
		return b.providerErr(err)
	}
	if si.CustomerID != sub.CustomerID || (si.UserID != 0 && si.UserID != u.ID) {
		return notFoundErr("Payment setup")
	}
	if si.Status != "succeeded" || si.PaymentMethodID == "" {
		return apiErr(http.StatusConflict, CodeSetupIncomplete, "The payment method is not confirmed yet. Please confirm it and try again.")
	}
	if !paidTier(si.Tier) {
		return validationErr(map[string]string{"setupIntentId": "This payment setup names no paid plan. Please start again."})
	}
	s, err := b.provider.CreateSubscription(ctx, billing.NewSubscription{
		CustomerID: sub.CustomerID, PaymentMethodID: si.PaymentMethodID, Tier: si.Tier, SetupIntentID: si.ID, UserID: u.ID})
	if err != nil {
		return b.providerErr(err)
	}
	if s.Status == "incomplete" {
		// A repeated call replays the creation's first answer: read the
		// current state (the payment may have been authenticated since).
		if s, err = b.provider.Subscription(ctx, s.ID); err != nil {
			return b.providerErr(err)
		}
	}
	up, err := b.saveSettled(ctx, u.ID, sub.CustomerID, s.ID, si.Tier)
	if err != nil {
		return err
	}
	if s.Status == "incomplete" && s.Payment != nil {
		switch s.Payment.Status {
		case "requires_action", "requires_confirmation":
			return c.JSON(http.StatusOK, map[string]any{"status": s.Status, "tier": up.Tier, "requiresAction": true,
				"clientSecret": s.Payment.ClientSecret, "message": "Your bank asks you to confirm this payment."})
		case "requires_payment_method", "canceled":
			msg := "Your card was declined. Please try another payment method."
			if s.Payment.Error != "" {
				msg = s.Payment.Error
			}
			return apiErr(http.StatusPaymentRequired, CodePaymentFailed, msg)
		}
	}
	out := map[string]any{"status": s.Status, "tier": up.Tier, "requiresAction": false,
		"currentPeriodEnd": formatTime(up.CurrentPeriodEnd)}
	if s.Status == "active" || s.Status == "trialing" {
		out["message"] = "Your " + tierLabel(up.Tier) + " plan is active."
	} else {
		out["message"] = "Your payment is being processed. Your plan starts as soon as it is confirmed."
	}
	return c.JSON(http.StatusOK, out)
}

// liveSubscription is the caller's stored live subscription, or a 409.
func (b *billingAPI) liveSubscription(ctx context.Context, userID int64, verb string) (*store.Subscription, error) {
	sub, err := b.store.SubscriptionOf(ctx, userID)
	if err != nil {
		return nil, err
	}
	if sub.SubscriptionID == "" || !billing.Live(sub.Status) {
		return nil, apiErr(http.StatusConflict, CodeNoSubscription, "You have no active subscription to "+verb+". Choose a plan first.")
	}
	return sub, nil
}

// change swaps the plan with immediate proration; the billing date stays.
func (b *billingAPI) change(c echo.Context) error {
	var req newTierRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	tier := strings.ToLower(strings.TrimSpace(req.NewTier))
	if !paidTier(tier) {
		return validationErr(map[string]string{"newTier": paidTierMsg})
	}
	ctx, u := c.Request().Context(), currentUser(c)
	sub, err := b.liveSubscription(ctx, u.ID, "change")
	if err != nil {
		return err
	}
	if sub.Tier == tier {
		return validationErr(map[string]string{"newTier": "You are already on the " + tierLabel(tier) + " plan."})
	}
	s, err := b.provider.ChangeTier(ctx, sub.SubscriptionID, tier)
	if err != nil {
		return b.providerErr(err)
	}
	up, err := b.saveSettled(ctx, u.ID, sub.CustomerID, sub.SubscriptionID, tier)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{
		"message": "Your plan is now " + tierLabel(tier) + ". The difference for the rest of this billing period has been invoiced; your billing date stays the same.",
		"tier":    tier, "status": s.Status, "currentPeriodEnd": formatTime(up.CurrentPeriodEnd)})
}

// cancel ends the subscription at the end of the paid period; the plan
// stays until then and the webhook returns the account to free after.
func (b *billingAPI) cancel(c echo.Context) error {
	ctx, u := c.Request().Context(), currentUser(c)
	sub, err := b.liveSubscription(ctx, u.ID, "cancel")
	if err != nil {
		return err
	}
	s, err := b.provider.CancelAtPeriodEnd(ctx, sub.SubscriptionID)
	if err != nil {
		return b.providerErr(err)
	}
	up, err := b.saveSettled(ctx, u.ID, sub.CustomerID, sub.SubscriptionID, sub.Tier)
	if err != nil {
		return err
	}
	tier := up.Tier
	if tier == "" {
		tier = sub.Tier
	}
	msg := "Your subscription is canceled. You keep the " + tierLabel(tier) + " plan until the end of the current billing period, then your account returns to the Free plan."
	if up.CurrentPeriodEnd != nil {
		msg = "Your subscription is canceled. You keep the " + tierLabel(tier) + " plan until " +
			up.CurrentPeriodEnd.Format("January 2, 2006") + ", then your account returns to the Free plan."
	}
	return c.JSON(http.StatusOK, map[string]any{"message": msg, "tier": tier, "status": s.Status,
		"cancelAtPeriodEnd": s.CancelAtPeriodEnd, "currentPeriodEnd": formatTime(up.CurrentPeriodEnd)})
}

// cancelForDeletion ends the user's live subscription at once, before the
// account is deleted, and returns the plan it ended ("" when there was none:
// with billing off, or a plan the operator granted, nothing is charged). The
// account is stored as canceled, so a deletion retried after a later
// failure finds nothing left to cancel.
func (b *billingAPI) cancelForDeletion(ctx context.Context, userID int64) (string, error) {
	if b.provider == nil {
		return "", nil
	}
	sub, err := b.store.SubscriptionOf(ctx, userID)
	if err != nil || sub.SubscriptionID == "" || !billing.Live(sub.Status) {
		return "", err
	}
	unlock, err := b.lockCustomer(ctx, sub.CustomerID)
	if err != nil {
		return "", err
	}
	defer unlock()
	if err := b.provider.CancelNow(ctx, sub.SubscriptionID); err != nil {
		if ae := (*APIError)(nil); errors.As(b.providerErr(err), &ae) {
			ae.Message = "Your subscription could not be canceled at the payment provider right now, so your account was not deleted. Please try again in a few minutes."
			return "", ae
		}
		return "", err
	}
	up := store.SubscriptionUpdate{SubscriptionID: sub.SubscriptionID, Status: "canceled", Tier: "free"}
	if err := b.store.SaveSubscription(ctx, userID, up); err != nil {
		return "", err
	}
	return sub.Tier, nil
}

// webhook applies a signed Stripe event. The event only says which
// subscription changed: its state is re-read from Stripe, and the event id
// is recorded in the same transaction as the change, so replays and late
// deliveries of old events cannot move the plan backwards.
func (b *billingAPI) webhook(c echo.Context) error {
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, maxWebhookBody+1))
	if err != nil {
		return decodeErr(err)
	}
	if len(body) > maxWebhookBody {
		return apiErr(http.StatusRequestEntityTooLarge, CodeTooLarge, "The event is larger than 1 MB.")
	}
	ev, err := b.provider.ParseEvent(body, c.Request().Header.Get("Stripe-Signature"))
	if err != nil {
		b.log.Warn("stripe webhook refused", "err", err)
		return apiErr(http.StatusBadRequest, CodeBadSignature, "The webhook signature is invalid or too old.")
	}
	ack := func(outcome string) error {
		b.log.Info("stripe webhook", "event", ev.ID, "type", ev.Type, "outcome", outcome)
		return c.JSON(http.StatusOK, webhookAck{Received: true, Outcome: outcome})
	}
	if !webhookEvents[ev.Type] || ev.CustomerID == "" || ev.SubscriptionID == "" {
		return ack("ignored")
	}
	ctx := c.Request().Context()
	if _, err := b.store.UserByStripeCustomer(ctx, ev.CustomerID); errors.Is(err, store.ErrNotFound) {
		return ack(string(store.EventUnknownCustomer))
	} else if err != nil {
		return err
	}
	// Under the customer's lock, the state written is what Stripe reports
	// now: a delayed read of an older event can never land after a newer one.
	unlock, err := b.lockCustomer(ctx, ev.CustomerID)
	if err != nil {
		return err
	}
	defer unlock()
	if done, err := b.store.StripeEventProcessed(ctx, ev.ID); err != nil {
		return err
	} else if done {
		return ack(string(store.EventDuplicate))
	}
	up, err := b.settledState(ctx, ev.SubscriptionID)
	if err != nil {
		// Not recorded: Stripe delivers the event again later.
		return b.providerErr(err)
	}
	outcome, err := b.store.ApplyStripeEvent(ctx, ev.ID, ev.Type, ev.CustomerID, &up, b.now())
	if err != nil {
		return err
	}
	return ack(string(outcome))
}

// stateOf is what to store for a subscription as Stripe answered it: an
// ended subscription returns the account to free.
func stateOf(s *billing.Subscription) store.SubscriptionUpdate {
	up := store.SubscriptionUpdate{SubscriptionID: s.ID, Status: s.Status, Tier: s.Tier, CancelAtPeriodEnd: s.CancelAtPeriodEnd}
	if !s.CurrentPeriodEnd.IsZero() {
		t := s.CurrentPeriodEnd.UTC()
		up.CurrentPeriodEnd = &t
	}
	switch s.Status {
	case "canceled", "incomplete_expired":
		up.Tier, up.CancelAtPeriodEnd, up.CurrentPeriodEnd = "free", false, nil
	}
	return up
}

func formatTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UTC().Format(time.RFC3339)
}

// providerErr turns a provider failure into a clear API error; nothing
// local was changed when it is returned.
func (b *billingAPI) providerErr(err error) error {
	var be *billing.Error
	if !errors.As(err, &be) {
		return err
	}
	switch be.Kind {
	case billing.Declined:
		msg := be.Msg
		if msg == "" {
			msg = "Your payment was declined. Please try another payment method."
		}
		return apiErr(http.StatusPaymentRequired, CodePaymentFailed, msg)
	case billing.Unavailable:
		b.log.Warn("payment provider unavailable", "err", err)
		return apiErr(http.StatusServiceUnavailable, CodeBillingUnavailable,
			"The payment provider is not answering right now. Nothing was changed; please try again in a few minutes.")
	default:
		b.log.Error("payment provider refused a request", "err", err)
		return apiErr(http.StatusBadGateway, CodeBillingProvider,
			"The payment provider could not process this request. Nothing was changed; please try again later or contact the operator.")
	}
}
