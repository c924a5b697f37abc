package store

import (
	"context"
	"fmt"
)

// CreateShare stores a shared result; ShareID must be set by the caller.
func (s *Store) CreateShare(ctx context.Context, r *SharedResult) error {
	if r.CreatedAt.IsZero() {
		r.CreatedAt = s.Now()
	}
	if err := s.writer(ctx).Create(r).Error; err != nil {
		return fmt.Errorf("create share: %w", err)
	}
	return nil
}

// Share returns the shared result with shareID, or ErrNotFound.
func (s *Store) Share(ctx context.Context, shareID string) (*SharedResult, error) {
	var r SharedResult
	if err := s.reader(ctx).Where("share_id = ?", shareID).Take(&r).Error; err != nil {
		return nil, notFound(err)
	}
	return &r, nil
}
