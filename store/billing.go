package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Subscription is a user's stored payment-provider state.
type Subscription struct {
	UserID            int64
	CustomerID        string
	SubscriptionID    string
	Status            string
	Tier              string
	CurrentPeriodEnd  *time.Time
	CancelAtPeriodEnd bool
}

// SubscriptionUpdate is a subscription state to record, as the provider
// answered it.
type SubscriptionUpdate struct {
	SubscriptionID    string
	Status            string
	Tier              string // "" keeps the stored tier
	CurrentPeriodEnd  *time.Time
	CancelAtPeriodEnd bool
}

// EventOutcome says what ApplyStripeEvent did.
type EventOutcome string

// Outcomes of ApplyStripeEvent.
const (
	EventApplied         EventOutcome = "applied"
	EventDuplicate       EventOutcome = "duplicate"        // the id was processed before
	EventUnknownCustomer EventOutcome = "unknown_customer" // recorded, nothing changed
	EventIgnored         EventOutcome = "ignored"          // recorded; it concerns a replaced subscription
)

// StripeEvent is a processed webhook event.
type StripeEvent struct {
	ID          int64 `gorm:"primaryKey"`
	EventID     string
	Type        string
	ProcessedAt time.Time
}

type billingRow struct {
	ID                   int64
	StripeCustomerID     *string
	StripeSubscriptionID *string
	SubscriptionStatus   string
	SubscriptionTier     string
	CurrentPeriodEnd     *time.Time
	CancelAtPeriodEnd    bool
}

func (r *billingRow) subscription() *Subscription {
	out := &Subscription{UserID: r.ID, Status: r.SubscriptionStatus, Tier: r.SubscriptionTier,
		CurrentPeriodEnd: r.CurrentPeriodEnd, CancelAtPeriodEnd: r.CancelAtPeriodEnd}
	if r.StripeCustomerID != nil {
		out.CustomerID = *r.StripeCustomerID
	}
	if r.StripeSubscriptionID != nil {
		out.SubscriptionID = *r.StripeSubscriptionID
	}
	if out.CurrentPeriodEnd != nil {
		t := out.CurrentPeriodEnd.UTC()
		out.CurrentPeriodEnd = &t
	}
	return out
}

const billingColumns = "id, stripe_customer_id, stripe_subscription_id, subscription_status, subscription_tier, current_period_end, cancel_at_period_end"

// SubscriptionOf reads the billing state of user id.
func (s *Store) SubscriptionOf(ctx context.Context, userID int64) (*Subscription, error) {
	var r billingRow
	err := s.reader(ctx).Table("users").Select(billingColumns).Where("id = ?", userID).Take(&r).Error
	if err != nil {
		return nil, notFound(err)
	}
	return r.subscription(), nil
}

// UserByStripeCustomer returns the user of a payment-provider customer.
func (s *Store) UserByStripeCustomer(ctx context.Context, customerID string) (*User, error) {
	var u User
	if err := s.reader(ctx).Where("stripe_customer_id = ?", customerID).Take(&u).Error; err != nil {
		return nil, notFound(err)
	}
	return &u, nil
}

// SetStripeCustomer stores customerID as the user's customer unless one is
// set already, and returns the stored one: of two concurrent sign-ups for
// billing, both end up with the same customer.
func (s *Store) SetStripeCustomer(ctx context.Context, userID int64, customerID string) (string, error) {
	err := s.writer(ctx).Exec(`UPDATE users SET stripe_customer_id = ? WHERE id = ? AND stripe_customer_id IS NULL`, customerID, userID).Error
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return "", ErrDuplicate
	}
	if err != nil {
		return "", fmt.Errorf("set customer of user %d: %w", userID, err)
	}
	var ids []*string
	if err := s.writer(ctx).Raw(`SELECT stripe_customer_id FROM users WHERE id = ?`, userID).Scan(&ids).Error; err != nil {
		return "", fmt.Errorf("read customer of user %d: %w", userID, err)
	}
	if len(ids) == 0 || ids[0] == nil {
		return "", ErrNotFound
	}
	return *ids[0], nil
}

// SaveSubscription records the state the provider answered to one of the
// user's own requests (subscribe, change, cancel).
func (s *Store) SaveSubscription(ctx context.Context, userID int64, u SubscriptionUpdate) error {
	res := s.writer(ctx).Table("users").Where("id = ?", userID).Updates(u.columns())
	if res.Error != nil {
		return fmt.Errorf("save subscription of user %d: %w", userID, res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

func (u SubscriptionUpdate) columns() map[string]any {
	cols := map[string]any{
		"stripe_subscription_id": u.SubscriptionID,
		"subscription_status":    u.Status,
		"current_period_end":     nil,
		"cancel_at_period_end":   u.CancelAtPeriodEnd,
	}
	if u.CurrentPeriodEnd != nil {
		cols["current_period_end"] = u.CurrentPeriodEnd.UTC()
	}
	if u.Tier != "" {
		cols["subscription_tier"] = u.Tier
	}
	return cols
}

// liveStatus: the subscription holds (or will hold) paid access.
func liveStatus(s string) bool { return s == "active" || s == "trialing" || s == "past_due" }

// ApplyStripeEvent records the webhook event eventID and, in the same
// transaction, applies u (nil: nothing to apply) to the user whose
// customer is customerID. A replayed id changes nothing and reports
// EventDuplicate. An event about another subscription than the user's
// live one is recorded but ignored unless that subscription is now active,
// so a late event of an abandoned subscription cannot downgrade the user.
func (s *Store) ApplyStripeEvent(ctx context.Context, eventID, eventType, customerID string, u *SubscriptionUpdate, now time.Time) (EventOutcome, error) {
	out := EventApplied
	err := s.writer(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Exec(`INSERT INTO stripe_events (event_id, type, processed_at) VALUES (?, ?, ?) ON CONFLICT (event_id) DO NOTHING`,
			eventID, eventType, now.UTC())
		if res.Error != nil {
			return fmt.Errorf("record event: %w", res.Error)
		}
		if res.RowsAffected == 0 {
			out = EventDuplicate
			return nil
		}
		q := tx.Table("users").Select(billingColumns).Where("stripe_customer_id = ?", customerID)
		if s.dialect == Postgres {
			q = q.Clauses(clause.Locking{Strength: "UPDATE"})
		}
		var r billingRow
		err := q.Take(&r).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			out = EventUnknownCustomer
			return nil
		}
		if err != nil {
			return fmt.Errorf("find customer: %w", err)
		}
		if u == nil {
			out = EventIgnored
			return nil
		}
		stored := r.subscription()
		other := stored.SubscriptionID != "" && stored.SubscriptionID != u.SubscriptionID
		if other && liveStatus(stored.Status) && u.Status != "active" && u.Status != "trialing" {
			out = EventIgnored
			return nil
		}
		if err := tx.Table("users").Where("id = ?", r.ID).Updates(u.columns()).Error; err != nil {
			return fmt.Errorf("apply to user %d: %w", r.ID, err)
		}
		return nil
	})
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		// A concurrent delivery of the same event won the insert.
		return EventDuplicate, nil
	}
	if err != nil {
		return "", fmt.Errorf("apply stripe event %s: %w", eventID, err)
	}
	return out, nil
}

// StripeEventProcessed reports whether eventID was recorded.
func (s *Store) StripeEventProcessed(ctx context.Context, eventID string) (bool, error) {
	var n int64
	if err := s.reader(ctx).Model(&StripeEvent{}).Where("event_id = ?", eventID).Count(&n).Error; err != nil {
		return false, fmt.Errorf("read stripe event: %w", err)
	}
	return n > 0, nil
}
