// Package billing talks to the card payment provider (Stripe). The server
// depends only on the Provider interface, with plain Go types in and out,
// so its handlers can be tested against any implementation.
package billing

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// PaidTiers are the paid tiers in display order; free has no price.
var PaidTiers = []string{"hobby", "pro", "farm"}

// Provider is what the server needs from the payment provider. Every
// method bounds its outbound calls with a timeout and sends an idempotency
// key with every mutating call. Failures are *Error values.
type Provider interface {
	// Prices are the monthly amounts of the paid tiers in cents.
	Prices(ctx context.Context) (map[string]int64, error)
	// CreateCustomer makes the provider's customer record of a user.
	CreateCustomer(ctx context.Context, c Customer) (string, error)
	// CreateSetupIntent starts collecting a payment method for tier and
	// returns the client secret the browser confirms.
	CreateSetupIntent(ctx context.Context, customerID string, userID int64, tier string) (string, error)
	// SetupIntent reads a SetupIntent back.
	SetupIntent(ctx context.Context, id string) (*SetupIntent, error)
	// CreateSubscription subscribes the customer to tier, paying with the
	// payment method of SetupIntent setupIntentID. Repeating the call for
	// the same SetupIntent returns the same subscription.
	CreateSubscription(ctx context.Context, p NewSubscription) (*Subscription, error)
	// Subscription reads the current state of a subscription.
	Subscription(ctx context.Context, id string) (*Subscription, error)
	// ChangeTier swaps the subscription's price, prorating immediately and
	// keeping the billing date.
	ChangeTier(ctx context.Context, subscriptionID, tier string) (*Subscription, error)
	// CancelAtPeriodEnd ends the subscription when the paid period ends.
	CancelAtPeriodEnd(ctx context.Context, subscriptionID string) (*Subscription, error)
	// CancelNow ends the subscription at once, with no final invoice and
	// no proration: nothing more is charged. A subscription that is already
	// canceled, or gone, counts as done.
	CancelNow(ctx context.Context, subscriptionID string) error
	// ParseEvent verifies a webhook body against its signature header.
	ParseEvent(payload []byte, signature string) (*Event, error)
}

// Customer is who a customer record is made for.
type Customer struct {
	UserID int64
	Email  string
	Name   string
}

// SetupIntent is the part of a SetupIntent the server checks.
type SetupIntent struct {
	ID              string
	Status          string // succeeded once the browser confirmed it
	CustomerID      string
	PaymentMethodID string
	Tier            string // from the metadata set by CreateSetupIntent
	UserID          int64  // from the metadata; 0 when absent
}

// NewSubscription are the inputs of CreateSubscription.
type NewSubscription struct {
	CustomerID      string
	PaymentMethodID string
	Tier            string
	SetupIntentID   string
	UserID          int64
}

// Subscription is a subscription as the provider answered it.
type Subscription struct {
	ID                string
	CustomerID        string
	Status            string // active, trialing, past_due, incomplete, incomplete_expired, canceled, unpaid, paused
	Tier              string // "" when the price is none of the configured ones
	CurrentPeriodEnd  time.Time
	CancelAtPeriodEnd bool
	// Payment is the first invoice's payment while the subscription is
	// incomplete, nil otherwise.
	Payment *Payment
}

// Payment is an invoice's PaymentIntent.
type Payment struct {
	Status       string // requires_action, requires_payment_method, processing, succeeded, ...
	ClientSecret string
	Error        string // the provider's message for a declined payment
}

// Event is a verified webhook event.
type Event struct {
	ID             string
	Type           string
	Created        time.Time
	CustomerID     string
	SubscriptionID string // "" when the object belongs to no subscription
}

// Live reports whether a subscription status still holds paid access or
// will, once its payment settles (the customer is "subscribed").
func Live(status string) bool {
	return status == "active" || status == "trialing" || status == "past_due"
}

// ErrorKind classifies provider failures for the HTTP edge.
type ErrorKind int

const (
	// Unavailable means the provider could not be reached, timed out or
	// answered 5xx or 429. Retrying later may work.
	Unavailable ErrorKind = iota + 1
	// Declined means the card was declined or needs another payment method.
	Declined
	// NotFound means the object does not exist at the provider.
	NotFound
	// Rejected means the provider refused the request (configuration or
	// programming error on our side).
	Rejected
	// BadSignature means a webhook body did not match its signature or is too old.
	BadSignature
)

// Error is a failed provider call.
type Error struct {
	Kind ErrorKind
	Op   string // what was being done, e.g. "create customer"
	Msg  string // the provider's message, safe to show for Declined
	Err  error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("billing: %s: %v", e.Op, e.Err)
	}
	return fmt.Sprintf("billing: %s: %s", e.Op, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

// KindOf is err's ErrorKind, 0 when err is not an *Error.
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}
