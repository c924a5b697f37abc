package billing

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"
)

// StripeConfig configures the Stripe provider.
type StripeConfig struct {
	SecretKey     string
	WebhookSecret string
	// Prices maps each paid tier to its recurring monthly Price id.
	Prices map[string]string
	// APIBase replaces https://api.stripe.com (stripe-mock, test fakes).
	APIBase string
	// Timeout bounds each outbound call, retries included (default 15s).
	Timeout time.Duration
	// MaxRetries is how often a failed network call is retried with the
	// same idempotency key (default 2; a negative value means none).
	MaxRetries int
	// WebhookTolerance is how old a signed webhook may be (default 5m).
	WebhookTolerance time.Duration
	// HTTPClient is optional.
	HTTPClient *http.Client
}

// Stripe is the Provider backed by the Stripe API through stripe-go.
type Stripe struct {
	sc        *stripe.Client
	cfg       StripeConfig
	tierOfID  map[string]string
	tolerance time.Duration
}

// expandSub makes a subscription answer carry what the first-invoice
// authentication check needs.
var expandSub = []string{"latest_invoice.confirmation_secret", "latest_invoice.payments"}

// NewStripe checks cfg and builds the client.
func NewStripe(cfg StripeConfig) (*Stripe, error) {
	if cfg.SecretKey == "" {
		return nil, errors.New("stripe: secret key is empty")
	}
	if cfg.WebhookSecret == "" {
		return nil, errors.New("stripe: webhook secret is empty")
	}
	s := &Stripe{cfg: cfg, tierOfID: map[string]string{}, tolerance: cfg.WebhookTolerance}
	for _, t := range PaidTiers {
		id := cfg.Prices[t]
		if id == "" {
			return nil, fmt.Errorf("stripe: no price id for tier %s", t)
		}
		s.tierOfID[id] = t
	}
	if s.cfg.Timeout <= 0 {
		s.cfg.Timeout = 15 * time.Second
	}
	if s.tolerance <= 0 {
		s.tolerance = webhook.DefaultTolerance
	}
	retries := int64(2)
	if cfg.MaxRetries != 0 {
		retries = max(int64(cfg.MaxRetries), 0)
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: s.cfg.Timeout}
	}
	bc := &stripe.BackendConfig{
		HTTPClient:        hc,
		MaxNetworkRetries: stripe.Int64(retries),
		LeveledLogger:     &stripe.LeveledLogger{Level: stripe.LevelNull},
	}
	if cfg.APIBase != "" {
		bc.URL = stripe.String(strings.TrimRight(cfg.APIBase, "/"))
	}
	s.sc = stripe.NewClient(cfg.SecretKey, stripe.WithBackends(stripe.NewBackendsWithConfig(bc)))
	return s, nil
}

func (s *Stripe) timeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.cfg.Timeout)
}

// Prices reads the unit amount of each paid tier's Price.
func (s *Stripe) Prices(ctx context.Context) (map[string]int64, error) {
	ctx, cancel := s.timeout(ctx)
	defer cancel()
	out := map[string]int64{}
	for _, t := range PaidTiers {
		p, err := s.sc.V1Prices.Retrieve(ctx, s.cfg.Prices[t], nil)
		if err != nil {
			return nil, wrap("read price of "+t, err)
		}
		out[t] = p.UnitAmount
	}
	return out, nil
}

// CreateCustomer creates the customer; the idempotency key is derived from
// the user and email, so a retried or concurrent call makes one customer.
func (s *Stripe) CreateCustomer(ctx context.Context, c Customer) (string, error) {
	ctx, cancel := s.timeout(ctx)
	defer cancel()
	p := &stripe.CustomerCreateParams{Email: stripe.String(c.Email)}
	if c.Name != "" {
		p.Name = stripe.String(c.Name)
	}
	p.AddMetadata("layerfix_user_id", strconv.FormatInt(c.UserID, 10))
	sum := sha256.Sum256([]byte(c.Email + "\x00" + c.Name))
	p.SetIdempotencyKey(fmt.Sprintf("layerfix-customer-%d-%s", c.UserID, hex.EncodeToString(sum[:8])))
	cus, err := s.sc.V1Customers.Create(ctx, p)
	if err != nil {
		return "", wrap("create customer", err)
	}
	return cus.ID, nil
}

// CreateSetupIntent creates an off-session SetupIntent for the Payment
// Element, remembering the user and tier in its metadata.
func (s *Stripe) CreateSetupIntent(ctx context.Context, customerID string, userID int64, tier string) (string, error) {
	ctx, cancel := s.timeout(ctx)
	defer cancel()
	p := &stripe.SetupIntentCreateParams{
		Customer:                stripe.String(customerID),
		Usage:                   stripe.String("off_session"),
		AutomaticPaymentMethods: &stripe.SetupIntentCreateAutomaticPaymentMethodsParams{Enabled: stripe.Bool(true)},
	}
	p.AddMetadata("layerfix_user_id", strconv.FormatInt(userID, 10))
	p.AddMetadata("layerfix_tier", tier)
	p.SetIdempotencyKey("layerfix-seti-" + randomKey())
	si, err := s.sc.V1SetupIntents.Create(ctx, p)
	if err != nil {
		return "", wrap("create setup intent", err)
	}
	return si.ClientSecret, nil
}

// SetupIntent reads a SetupIntent.
func (s *Stripe) SetupIntent(ctx context.Context, id string) (*SetupIntent, error) {
	ctx, cancel := s.timeout(ctx)
	defer cancel()
	si, err := s.sc.V1SetupIntents.Retrieve(ctx, id, nil)
	if err != nil {
		return nil, wrap("read setup intent", err)
	}
	out := &SetupIntent{ID: si.ID, Status: string(si.Status), Tier: si.Metadata["layerfix_tier"]}
	if si.Customer != nil {
		out.CustomerID = si.Customer.ID
	}
	if si.PaymentMethod != nil {
		out.PaymentMethodID = si.PaymentMethod.ID
	}
	out.UserID, _ = strconv.ParseInt(si.Metadata["layerfix_user_id"], 10, 64)
	return out, nil
}

// CreateSubscription subscribes with the SetupIntent's payment method as
// the default. The idempotency key is the SetupIntent's id, so completing
// the same setup twice yields one subscription.
func (s *Stripe) CreateSubscription(ctx context.Context, n NewSubscription) (*Subscription, error) {
	price, ok := s.cfg.Prices[n.Tier]
	if !ok {
		return nil, &Error{Kind: Rejected, Op: "create subscription", Msg: "no price for tier " + n.Tier}
	}
	ctx, cancel := s.timeout(ctx)
	defer cancel()
	p := &stripe.SubscriptionCreateParams{
		Customer:             stripe.String(n.CustomerID),
		Items:                []*stripe.SubscriptionCreateItemParams{{Price: stripe.String(price)}},
		DefaultPaymentMethod: stripe.String(n.PaymentMethodID),
		PaymentBehavior:      stripe.String("allow_incomplete"),
		OffSession:           stripe.Bool(true),
	}
	p.AddMetadata("layerfix_user_id", strconv.FormatInt(n.UserID, 10))
	p.AddMetadata("layerfix_setup_intent", n.SetupIntentID)
	for _, e := range expandSub {
		p.AddExpand(e)
	}
	p.SetIdempotencyKey("layerfix-sub-" + n.SetupIntentID)
	sub, err := s.sc.V1Subscriptions.Create(ctx, p)
	if err != nil {
		return nil, wrap("create subscription", err)
	}
	return s.subscriptionOf(ctx, sub)
}

// Subscription reads a subscription's current state.
func (s *Stripe) Subscription(ctx context.Context, id string) (*Subscription, error) {
	ctx, cancel := s.timeout(ctx)
	defer cancel()
	return s.retrieve(ctx, id)
}

func (s *Stripe) retrieve(ctx context.Context, id string) (*Subscription, error) {
	p := &stripe.SubscriptionRetrieveParams{}
	for _, e := range expandSub {
		p.AddExpand(e)
	}
	sub, err := s.sc.V1Subscriptions.Retrieve(ctx, id, p)
	if err != nil {
		return nil, wrap("read subscription", err)
	}
	return s.subscriptionOf(ctx, sub)
}

// ChangeTier swaps the price of the subscription's item, invoicing the
// proration at once; the billing cycle anchor stays unchanged. A payment
// that fails leaves the subscription as it was (error_if_incomplete).
func (s *Stripe) ChangeTier(ctx context.Context, subscriptionID, tier string) (*Subscription, error) {
	price, ok := s.cfg.Prices[tier]
	if !ok {
		return nil, &Error{Kind: Rejected, Op: "change subscription", Msg: "no price for tier " + tier}
	}
	ctx, cancel := s.timeout(ctx)
	defer cancel()
	sub, err := s.sc.V1Subscriptions.Retrieve(ctx, subscriptionID, nil)
	if err != nil {
		return nil, wrap("read subscription", err)
	}
	if sub.Items == nil || len(sub.Items.Data) == 0 {
		return nil, &Error{Kind: Rejected, Op: "change subscription", Msg: "subscription " + subscriptionID + " has no items"}
	}
	p := &stripe.SubscriptionUpdateParams{
		Items:             []*stripe.SubscriptionUpdateItemParams{{ID: stripe.String(sub.Items.Data[0].ID), Price: stripe.String(price)}},
		ProrationBehavior: stripe.String("always_invoice"),
		PaymentBehavior:   stripe.String("error_if_incomplete"),
	}
	for _, e := range expandSub {
		p.AddExpand(e)
	}
	p.SetIdempotencyKey("layerfix-sub-change-" + randomKey())
	sub, err = s.sc.V1Subscriptions.Update(ctx, subscriptionID, p)
	if err != nil {
		return nil, wrap("change subscription", err)
	}
	return s.subscriptionOf(ctx, sub)
}

// CancelAtPeriodEnd sets cancel_at_period_end.
func (s *Stripe) CancelAtPeriodEnd(ctx context.Context, subscriptionID string) (*Subscription, error) {
	ctx, cancel := s.timeout(ctx)
	defer cancel()
	p := &stripe.SubscriptionUpdateParams{CancelAtPeriodEnd: stripe.Bool(true)}
	for _, e := range expandSub {
		p.AddExpand(e)
	}
	p.SetIdempotencyKey("layerfix-sub-cancel-" + randomKey())
	sub, err := s.sc.V1Subscriptions.Update(ctx, subscriptionID, p)
	if err != nil {
		return nil, wrap("cancel subscription", err)
	}
	return s.subscriptionOf(ctx, sub)
}

// CancelNow deletes the subscription (DELETE /v1/subscriptions/{id}) without
// invoicing or prorating. An unknown or already canceled subscription is
// done already: a repeated call after a lost answer succeeds.
func (s *Stripe) CancelNow(ctx context.Context, subscriptionID string) error {
	ctx, cancel := s.timeout(ctx)
	defer cancel()
	p := &stripe.SubscriptionCancelParams{InvoiceNow: stripe.Bool(false), Prorate: stripe.Bool(false),
		CancellationDetails: &stripe.SubscriptionCancelCancellationDetailsParams{Comment: stripe.String("The customer deleted their Layerfix account.")}}
	_, err := s.sc.V1Subscriptions.Cancel(ctx, subscriptionID, p)
	if err == nil {
		return nil
	}
	werr := wrap("cancel subscription now", err)
	if KindOf(werr) == NotFound {
		return nil
	}
	if KindOf(werr) == Rejected {
		// Stripe refuses to cancel a canceled subscription: read it back.
		sub, rerr := s.sc.V1Subscriptions.Retrieve(ctx, subscriptionID, nil)
		if KindOf(wrap("read subscription", rerr)) == NotFound || (rerr == nil && !Live(string(sub.Status))) {
			return nil
		}
	}
	return werr
}

// ParseEvent verifies the Stripe-Signature header (bad or stale: a
// BadSignature error) and extracts the customer and subscription ids.
// Events of another API version than the library's are accepted: only ids
// are read from the payload, the state is re-read through the API.
// maxClockSkew is how far in the future a webhook signature may be dated.
const maxClockSkew = 5 * time.Minute

// signatureTime reads t= of a Stripe-Signature header.
func signatureTime(header string) (time.Time, bool) {
	for _, part := range strings.Split(header, ",") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(part), "t="); ok {
			if n, err := strconv.ParseInt(v, 10, 64); err == nil {
				return time.Unix(n, 0), true
			}
		}
	}
	return time.Time{}, false
}

// ParseEvent checks a webhook body against its Stripe-Signature header and
// decodes the event.
func (s *Stripe) ParseEvent(payload []byte, signature string) (*Event, error) {
	// The library refuses old signatures only; one dated in the future (a
	// replay prepared in advance, or a wrong clock) is refused too.
	if t, ok := signatureTime(signature); ok && t.After(time.Now().Add(maxClockSkew)) {
		return nil, &Error{Kind: BadSignature, Op: "verify webhook", Err: fmt.Errorf("signature dated %s, in the future", t.UTC().Format(time.RFC3339))}
	}
	ev, err := webhook.ConstructEventWithOptions(payload, signature, s.cfg.WebhookSecret,
		webhook.ConstructEventOptions{Tolerance: s.tolerance, IgnoreAPIVersionMismatch: true})
	if err != nil {
		return nil, &Error{Kind: BadSignature, Op: "verify webhook", Err: err}
	}
	out := &Event{ID: ev.ID, Type: string(ev.Type), Created: time.Unix(ev.Created, 0).UTC()}
	if ev.Data == nil || len(ev.Data.Raw) == 0 {
		return out, nil
	}
	var obj struct {
		ID       string          `json:"id"`
		Object   string          `json:"object"`
		Customer json.RawMessage `json:"customer"`
		Parent   *struct {
			SubscriptionDetails *struct {
				Subscription json.RawMessage `json:"subscription"`
			} `json:"subscription_details"`
		} `json:"parent"`
		Subscription json.RawMessage `json:"subscription"` // invoices of API versions before 2025-03-31
	}
	if err := json.Unmarshal(ev.Data.Raw, &obj); err != nil {
		return nil, &Error{Kind: BadSignature, Op: "read webhook object", Err: err}
	}
	out.CustomerID = idOf(obj.Customer)
	switch obj.Object {
	case "subscription":
		out.SubscriptionID = obj.ID
	case "invoice":
		if obj.Parent != nil && obj.Parent.SubscriptionDetails != nil {
			out.SubscriptionID = idOf(obj.Parent.SubscriptionDetails.Subscription)
		}
		if out.SubscriptionID == "" {
			out.SubscriptionID = idOf(obj.Subscription)
		}
	}
	return out, nil
}

// idOf reads an expandable field: a bare id or an object with an id.
func idOf(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var id string
	if json.Unmarshal(raw, &id) == nil {
		return id
	}
	var obj struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(raw, &obj) == nil {
		return obj.ID
	}
	return ""
}

// subscriptionOf maps Stripe's answer; for an incomplete subscription it
// reads the first invoice's PaymentIntent so the caller can tell a card
// that needs authentication from a declined one.
func (s *Stripe) subscriptionOf(ctx context.Context, sub *stripe.Subscription) (*Subscription, error) {
	out := &Subscription{ID: sub.ID, Status: string(sub.Status), CancelAtPeriodEnd: sub.CancelAtPeriodEnd}
	if sub.Customer != nil {
		out.CustomerID = sub.Customer.ID
	}
	var end int64
	if sub.Items != nil {
		for i, it := range sub.Items.Data {
			if i == 0 && it.Price != nil {
				out.Tier = s.tierOfID[it.Price.ID]
			}
			end = max(end, it.CurrentPeriodEnd)
		}
	}
	if end > 0 {
		out.CurrentPeriodEnd = time.Unix(end, 0).UTC()
	}
	if sub.Status != stripe.SubscriptionStatusIncomplete || sub.LatestInvoice == nil {
		return out, nil
	}
	piID := paymentIntentOf(sub.LatestInvoice)
	if piID == "" {
		return out, nil
	}
	pi, err := s.sc.V1PaymentIntents.Retrieve(ctx, piID, nil)
	if err != nil {
		return nil, wrap("read first payment", err)
	}
	out.Payment = &Payment{Status: string(pi.Status), ClientSecret: pi.ClientSecret}
	if pi.LastPaymentError != nil {
		out.Payment.Error = pi.LastPaymentError.Msg
	}
	return out, nil
}

// paymentIntentOf finds the invoice's PaymentIntent id: from its payments,
// else from the confirmation secret ("pi_..._secret_...").
func paymentIntentOf(inv *stripe.Invoice) string {
	if inv.Payments != nil {
		for _, p := range inv.Payments.Data {
			if p.Payment != nil && p.Payment.PaymentIntent != nil && p.Payment.PaymentIntent.ID != "" {
				return p.Payment.PaymentIntent.ID
			}
		}
	}
	if cs := inv.ConfirmationSecret; cs != nil && cs.Type == "payment_intent" {
		if id, _, ok := strings.Cut(cs.ClientSecret, "_secret_"); ok {
			return id
		}
	}
	return ""
}

// wrap classifies a stripe-go error.
func wrap(op string, err error) error {
	var se *stripe.Error
	if !errors.As(err, &se) {
		// Network failures, timeouts, unreadable answers.
		return &Error{Kind: Unavailable, Op: op, Err: err}
	}
	e := &Error{Op: op, Msg: se.Msg, Err: err}
	switch {
	case se.Type == stripe.ErrorTypeCard || se.HTTPStatusCode == http.StatusPaymentRequired:
		e.Kind = Declined
	case se.HTTPStatusCode >= 500, se.HTTPStatusCode == http.StatusTooManyRequests,
		se.Type == stripe.ErrorTypeIdempotency, se.Type == stripe.ErrorTypeAPI:
		e.Kind = Unavailable
	case se.HTTPStatusCode == http.StatusNotFound, se.Code == stripe.ErrorCodeResourceMissing:
		e.Kind = NotFound
	default:
		e.Kind = Rejected
	}
	return e
}

func randomKey() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}
