package store

import (
	"context"
	"fmt"
)

// ListPrinters returns the user's printers, oldest first.
func (s *Store) ListPrinters(ctx context.Context, userID int64) ([]Printer, error) {
	out := []Printer{}
	if err := s.reader(ctx).Where("user_id = ?", userID).Order("created_at, id").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("list printers of user %d: %w", userID, err)
	}
	return out, nil
}

// PrinterByID returns the user's printer id, or ErrNotFound when it does
// not exist or belongs to someone else.
func (s *Store) PrinterByID(ctx context.Context, userID, id int64) (*Printer, error) {
	var p Printer
	if err := s.reader(ctx).Where("id = ? AND user_id = ?", id, userID).Take(&p).Error; err != nil {
		return nil, notFound(err)
	}
	return &p, nil
}

// CreatePrinter inserts p (UserID set by the caller).
func (s *Store) CreatePrinter(ctx context.Context, p *Printer) error {
	if p.CreatedAt.IsZero() {
		p.CreatedAt = s.Now()
	}
	if err := s.writer(ctx).Create(p).Error; err != nil {
		return fmt.Errorf("create printer: %w", err)
	}
	return nil
}

// UpdatePrinter writes every editable column of p, only when p.UserID owns
// the row; otherwise ErrNotFound.
func (s *Store) UpdatePrinter(ctx context.Context, p *Printer) error {
	res := s.writer(ctx).Model(&Printer{}).Where("id = ? AND user_id = ?", p.ID, p.UserID).
		Select("name", "brand", "nozzle_size", "filament_diameter", "build_volume", "host_kind", "host_url", "host_key").
		Updates(map[string]any{"name": p.Name, "brand": p.Brand, "nozzle_size": p.NozzleSize,
			"filament_diameter": p.FilamentDiameter, "build_volume": p.BuildVolume,
			"host_kind": p.HostKind, "host_url": p.HostURL, "host_key": p.HostKey})
	if res.Error != nil {
		return fmt.Errorf("update printer %d: %w", p.ID, res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// DeletePrinter removes the user's printer; its issues stay, with no
// printer (the foreign key sets printer_id to NULL).
func (s *Store) DeletePrinter(ctx context.Context, userID, id int64) error {
	res := s.writer(ctx).Where("id = ? AND user_id = ?", id, userID).Delete(&Printer{})
	if res.Error != nil {
		return fmt.Errorf("delete printer %d: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}
