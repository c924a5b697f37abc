package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Photo records an uploaded, re-encoded photo and its owner. The bytes
// live in a blob store under the same id.
type Photo struct {
	ID        string `gorm:"primaryKey"`
	UserID    int64
	SizeBytes int
	Width     int
	Height    int
	CreatedAt time.Time
}

// PhotoFileSuffix ends a photo's name in the blob store: its id and this.
const PhotoFileSuffix = ".jpg"

// CreatePhotos records photos in one transaction.
func (s *Store) CreatePhotos(ctx context.Context, photos []Photo) error {
	if len(photos) == 0 {
		return nil
	}
	now := s.Now()
	for i := range photos {
		if photos[i].CreatedAt.IsZero() {
			photos[i].CreatedAt = now
		}
	}
	if err := s.write(ctx, func(tx *gorm.DB) error { return tx.Create(&photos).Error }); err != nil {
		return fmt.Errorf("record %d photos: %w", len(photos), err)
	}
	return nil
}

// PhotoByID returns a photo record, or ErrNotFound.
func (s *Store) PhotoByID(ctx context.Context, id string) (*Photo, error) {
	var p Photo
	if err := s.reader(ctx).Where("id = ?", id).Take(&p).Error; err != nil {
		return nil, notFound(err)
	}
	return &p, nil
}

// PhotosOf returns those of ids that belong to the user.
func (s *Store) PhotosOf(ctx context.Context, userID int64, ids []string) ([]Photo, error) {
	out := []Photo{}
	if len(ids) == 0 {
		return out, nil
	}
	if err := s.reader(ctx).Where("user_id = ? AND id IN ?", userID, ids).Find(&out).Error; err != nil {
		return nil, fmt.Errorf("photos of user %d: %w", userID, err)
	}
	return out, nil
}

// serverKey is a named secret shared by every instance on this database.
type serverKey struct {
	Name      string `gorm:"primaryKey"`
	Secret    string
	CreatedAt time.Time
}

// ServerKey returns the secret stored under name, storing newSecret first
// when there is none. Concurrent first calls agree on one secret.
func (s *Store) ServerKey(ctx context.Context, name, newSecret string) (string, error) {
	err := s.writer(ctx).Clauses(clause.OnConflict{DoNothing: true}).
		Create(&serverKey{Name: name, Secret: newSecret, CreatedAt: s.Now()}).Error
	if err != nil {
		return "", fmt.Errorf("store server key %s: %w", name, err)
	}
	var k serverKey
	if err := s.writer(ctx).Where("name = ?", name).Take(&k).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return "", fmt.Errorf("server key %s vanished", name)
		}
		return "", fmt.Errorf("read server key %s: %w", name, err)
	}
	return k.Secret, nil
}

// OrphanPhotos returns up to limit photos uploaded before `before` that no
// issue of their owner refers to (uploads whose issue was never submitted).
func (s *Store) OrphanPhotos(ctx context.Context, before time.Time, limit int) ([]Photo, error) {
	urls := "i.photo_urls"
	if s.dialect == Postgres {
		urls = "i.photo_urls::text"
	}
	var out []Photo
	err := s.reader(ctx).Raw(`SELECT p.* FROM photos p WHERE p.created_at < ? AND NOT EXISTS (
  SELECT 1 FROM issues i WHERE i.user_id = p.user_id AND `+urls+` LIKE '%' || p.id || '%')
ORDER BY p.created_at LIMIT ?`, before.UTC(), limit).Scan(&out).Error
	if err != nil {
		return nil, fmt.Errorf("find orphan photos: %w", err)
	}
	return out, nil
}

// DeletePhotos removes photo records by id.
func (s *Store) DeletePhotos(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	if err := s.writer(ctx).Where("id IN ?", ids).Delete(&Photo{}).Error; err != nil {
		return fmt.Errorf("delete %d photos: %w", len(ids), err)
	}
	return nil
}

// EachPhoto calls fn for every photo record of the user in id order,
// reading a page at a time so memory stays bounded however many there are.
func (s *Store) EachPhoto(ctx context.Context, userID int64, fn func(*Photo) error) error {
	after := ""
	for {
		var page []Photo
		if err := s.reader(ctx).Where("user_id = ? AND id > ?", userID, after).Order("id").Limit(500).Find(&page).Error; err != nil {
			return fmt.Errorf("photos of user %d: %w", userID, err)
		}
		for i := range page {
			if err := fn(&page[i]); err != nil {
				return err
			}
		}
		if len(page) < 500 {
			return nil
		}
		after = page[len(page)-1].ID
	}
}
