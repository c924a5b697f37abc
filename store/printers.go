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

// printerFixedColumns are the columns an update never changes: the row's
// identity and its creation time.
var printerFixedColumns = []string{"id", "user_id", "created_at"}

// UpdatePrinter writes every editable column of p, only when p.UserID owns
// the row; otherwise ErrNotFound.
func (s *Store) UpdatePrinter(ctx context.Context, p *Printer) error {
	// Every column but the fixed ones, zero values included: a field added
	// to Printer is written without a list to keep in step.
	res := s.writer(ctx).Model(&Printer{}).Where("id = ? AND user_id = ?", p.ID, p.UserID).
		Select("*").Omit(printerFixedColumns...).Updates(p)
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
