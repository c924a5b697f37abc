package store

import (
	"context"
	"fmt"
	"time"
)

// Purged counts what PurgeExpired removed.
type Purged struct {
	Sessions, Tokens, AnonymousRows, StripeEvents, Limits int64
}

// stripeEventKeep is how long processed Stripe event ids are kept: Stripe
// retries a delivery for three days, so a month is ample.
const stripeEventKeep = 30 * 24 * time.Hour

// PurgeExpired deletes what no request can use any more: expired sessions,
// expired or used one-time tokens (a day after use), anonymous usage of
// months before the previous one, and processed Stripe event ids older
// than stripeEventKeep.
func (s *Store) PurgeExpired(ctx context.Context, now time.Time) (Purged, error) {
	now = now.UTC()
	var p Purged
	prev := monthStart(now).AddDate(0, -1, 0)
	steps := []struct {
		n   *int64
		sql string
		arg []any
	}{
		{&p.Sessions, `DELETE FROM sessions WHERE expires_at < ?`, []any{now}},
		{&p.Tokens, `DELETE FROM auth_tokens WHERE expires_at < ? OR (used_at IS NOT NULL AND used_at < ?)`, []any{now, now.Add(-24 * time.Hour)}},
		{&p.AnonymousRows, `DELETE FROM anonymous_usage WHERE year * 12 + month < ?`, []any{prev.Year()*12 + int(prev.Month())}},
		{&p.Limits, `DELETE FROM rate_limits WHERE expires_at < ?`, []any{now}},
		{&p.StripeEvents, `DELETE FROM stripe_events WHERE processed_at < ?`, []any{now.Add(-stripeEventKeep)}},
	}
	for _, st := range steps {
		res := s.writer(ctx).Exec(st.sql, st.arg...)
		if res.Error != nil {
			return p, fmt.Errorf("purge: %w", res.Error)
		}
		*st.n = res.RowsAffected
	}
	return p, nil
}
