package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// Issue statuses (SPEC section 4).
const (
	StatusPending    = "pending"
	StatusInProgress = "in-progress"
	StatusResolved   = "resolved"
)

// ErrWrongState is returned when an issue's status forbids the change.
var ErrWrongState = errors.New("wrong state")

// IssueView is an issue with its printer's name and brand; both are nil
// when the printer was deleted.
type IssueView struct {
	Issue        `gorm:"embedded"`
	PrinterName  *string
	PrinterBrand *string
}

func (s *Store) issueViews(ctx context.Context) *gorm.DB {
	return s.reader(ctx).Table("issues").
		Select("issues.*, printers.name AS printer_name, printers.brand AS printer_brand").
		Joins("LEFT JOIN printers ON printers.id = issues.printer_id")
}

// CreateIssue inserts is (UserID set by the caller).
func (s *Store) CreateIssue(ctx context.Context, is *Issue) error {
	if is.CreatedAt.IsZero() {
		is.CreatedAt = s.Now()
	}
	if is.Status == "" {
		is.Status = StatusPending
	}
	if err := s.writer(ctx).Create(is).Error; err != nil {
		return fmt.Errorf("create issue: %w", err)
	}
	return nil
}

// ListIssues returns the user's issues, newest first.
func (s *Store) ListIssues(ctx context.Context, userID int64) ([]IssueView, error) {
	out := []IssueView{}
	err := s.issueViews(ctx).Where("issues.user_id = ?", userID).
		Order("issues.created_at DESC, issues.id DESC").Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("list issues of user %d: %w", userID, err)
	}
	return out, nil
}

// IssueByID returns the user's issue, or ErrNotFound.
func (s *Store) IssueByID(ctx context.Context, userID, id int64) (*IssueView, error) {
	var v IssueView
	if err := s.issueViews(ctx).Where("issues.id = ? AND issues.user_id = ?", id, userID).Take(&v).Error; err != nil {
		return nil, notFound(err)
	}
	return &v, nil
}

// ResolveIssue marks a pending or in-progress issue of the user resolved.
// A resolved issue gives ErrWrongState, a missing or foreign one ErrNotFound.
func (s *Store) ResolveIssue(ctx context.Context, userID, id int64, working []string, notes *string, now time.Time) error {
	res := s.writer(ctx).Model(&Issue{}).
		Where("id = ? AND user_id = ? AND status IN ?", id, userID, []string{StatusPending, StatusInProgress}).
		Updates(map[string]any{"status": StatusResolved, "resolved_at": now.UTC(),
			"working_recommendations": StringList(working), "resolution_notes": notes})
	if res.Error != nil {
		return fmt.Errorf("resolve issue %d: %w", id, res.Error)
	}
	if res.RowsAffected == 1 {
		return nil
	}
	return s.stateError(ctx, userID, id)
}

// SetCheckedSteps stores the titles of the steps the maker ticked; the first
// tick moves a pending issue to in-progress in the same statement. A missing
// or foreign issue gives ErrNotFound.
func (s *Store) SetCheckedSteps(ctx context.Context, userID, id int64, titles []string) error {
	start := len(titles) > 0
	res := s.writer(ctx).Exec(`UPDATE issues SET checked_steps = ?,
  status = CASE WHEN ? AND status = ? THEN ? ELSE status END
WHERE id = ? AND user_id = ?`, StringList(titles), start, StatusPending, StatusInProgress, id, userID)
	if res.Error != nil {
		return fmt.Errorf("save checked steps of issue %d: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// SetChecklist replaces the analysis of the user's unresolved issue (a
// narrowed-down re-ranking). A missing or foreign issue gives ErrNotFound, a
// resolved one ErrWrongState.
func (s *Store) SetChecklist(ctx context.Context, userID, id int64, checklist JSON) error {
	res := s.writer(ctx).Model(&Issue{}).
		Where("id = ? AND user_id = ? AND status IN ?", id, userID, []string{StatusPending, StatusInProgress}).
		Update("ai_checklist", checklist)
	if res.Error != nil {
		return fmt.Errorf("save analysis of issue %d: %w", id, res.Error)
	}
	if res.RowsAffected == 1 {
		return nil
	}
	if err := s.stateError(ctx, userID, id); !errors.Is(err, errInProgress) {
		return err
	}
	return nil
}

// StartIssue moves a pending issue to in-progress; an in-progress issue is
// left as it is, a resolved one gives ErrWrongState.
func (s *Store) StartIssue(ctx context.Context, userID, id int64) error {
	res := s.writer(ctx).Model(&Issue{}).
		Where("id = ? AND user_id = ? AND status = ?", id, userID, StatusPending).
		Update("status", StatusInProgress)
	if res.Error != nil {
		return fmt.Errorf("start issue %d: %w", id, res.Error)
	}
	if res.RowsAffected == 1 {
		return nil
	}
	err := s.stateError(ctx, userID, id)
	if errors.Is(err, errInProgress) {
		return nil
	}
	return err
}

var errInProgress = errors.New("in progress")

// stateError explains why a conditional status update matched no row.
func (s *Store) stateError(ctx context.Context, userID, id int64) error {
	var status string
	err := s.writer(ctx).Model(&Issue{}).Select("status").Where("id = ? AND user_id = ?", id, userID).Take(&status).Error
	switch {
	case errors.Is(err, gorm.ErrRecordNotFound):
		return ErrNotFound
	case err != nil:
		return fmt.Errorf("read issue %d: %w", id, err)
	case status == StatusInProgress:
		return errInProgress
	}
	return ErrWrongState
}

// PrinterHistory returns up to limit resolved issues of the user's printer
// that have working recommendations, most recently resolved first.
func (s *Store) PrinterHistory(ctx context.Context, userID, printerID int64, limit int) ([]Issue, error) {
	var rows []Issue
	err := s.reader(ctx).Where("user_id = ? AND printer_id = ? AND status = ?", userID, printerID, StatusResolved).
		Order("resolved_at DESC, id DESC").Limit(max(limit*5, 50)).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("history of printer %d: %w", printerID, err)
	}
	out := make([]Issue, 0, len(rows))
	for _, r := range rows {
		if len(r.WorkingRecommendations) > 0 && len(out) < limit {
			out = append(out, r)
		}
	}
	return out, nil
}

// IssueFacet is the part of an issue the per-printer statistics need.
type IssueFacet struct {
	PrinterID *int64
	Category  string
	Status    string
	CreatedAt time.Time
}

// IssueFacets returns category, status and date of every issue of the user.
func (s *Store) IssueFacets(ctx context.Context, userID int64) ([]IssueFacet, error) {
	out := []IssueFacet{}
	err := s.reader(ctx).Model(&Issue{}).Select("printer_id, category, status, created_at").
		Where("user_id = ?", userID).Order("created_at").Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("issue facets of user %d: %w", userID, err)
	}
	return out, nil
}
