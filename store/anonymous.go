package store

import (
	"context"
	"fmt"
	"gorm.io/gorm"
	"time"
)

// ConsumeAnonymous takes one analysis credit for ip in the calendar month
// (UTC) of now, unless the month's count has reached limit. It is a single
// conditional upsert, so concurrent requests can never exceed the limit.
func (s *Store) ConsumeAnonymous(ctx context.Context, ip string, now time.Time, limit int) (bool, error) {
	if limit <= 0 {
		return false, nil
	}
	now = now.UTC()
	var ok bool
	err := s.write(ctx, func(tx *gorm.DB) error {
		res := tx.Exec(`INSERT INTO anonymous_usage (ip_address, usage_count, month, year, last_used)
VALUES (?, 1, ?, ?, ?)
ON CONFLICT (ip_address, month, year) DO UPDATE
SET usage_count = anonymous_usage.usage_count + 1, last_used = excluded.last_used
WHERE anonymous_usage.usage_count < ?`, ip, int(now.Month()), now.Year(), now, limit)
		ok = res.RowsAffected == 1
		return res.Error
	})
	if err != nil {
		return false, fmt.Errorf("consume anonymous credit: %w", err)
	}
	return ok, nil
}

// RefundAnonymous gives back a credit taken by ConsumeAnonymous for a request
// that then failed.
func (s *Store) RefundAnonymous(ctx context.Context, ip string, now time.Time) error {
	now = now.UTC()
	err := s.write(ctx, func(tx *gorm.DB) error {
		return tx.Exec(`UPDATE anonymous_usage SET usage_count = usage_count - 1
WHERE ip_address = ? AND month = ? AND year = ? AND usage_count > 0`, ip, int(now.Month()), now.Year()).Error
	})
	if err != nil {
		return fmt.Errorf("refund anonymous credit: %w", err)
	}
	return nil
}

// AnonymousUsage is ip's count of analyses in the month of now.
func (s *Store) AnonymousUsage(ctx context.Context, ip string, now time.Time) (int, error) {
	now = now.UTC()
	var n int
	err := s.reader(ctx).Raw(`SELECT COALESCE(MAX(usage_count), 0) FROM anonymous_usage WHERE ip_address = ? AND month = ? AND year = ?`,
		ip, int(now.Month()), now.Year()).Scan(&n).Error
	if err != nil {
		return 0, fmt.Errorf("read anonymous usage: %w", err)
	}
	return n, nil
}
