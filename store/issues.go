package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// Issue statuses: pending (default), in-progress, resolved.
const (
	StatusPending    = "pending"
	StatusInProgress = "in-progress"
	StatusResolved   = "resolved"
)

// ErrWrongState is returned when an issue's status forbids the change.
var ErrWrongState = errors.New("wrong state")

// CategoryOther is the default tile: the maker did not choose a category.
const CategoryOther = "other"

// ShownCategory is the category an issue is listed, badged and counted
// under: the maker's choice where they made one, else the diagnosed one,
// else "other".
func ShownCategory(chosen string, diagnosed *string) string {
	if (chosen == "" || chosen == CategoryOther) && diagnosed != nil && *diagnosed != "" {
		return *diagnosed
	}
	return chosen
}

// shownCategorySQL is ShownCategory in SQL.
const shownCategorySQL = `(CASE WHEN issues.category IN ('', 'other') AND COALESCE(issues.diagnosed_category, '') <> ''
  THEN issues.diagnosed_category ELSE issues.category END)`

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

// CreateIssue inserts is (UserID set by the caller) with its attachments.
func (s *Store) CreateIssue(ctx context.Context, is *Issue) error {
	if is.CreatedAt.IsZero() {
		is.CreatedAt = s.Now()
	}
	if is.Status == "" {
		is.Status = StatusPending
	}
	is.AttachmentCount = len(is.Attachments)
	err := s.write(ctx, func(tx *gorm.DB) error {
		if err := tx.Create(is).Error; err != nil {
			return err
		}
		for i := range is.Attachments {
			a := &is.Attachments[i]
			a.IssueID, a.Position, a.Bytes = is.ID, i, len(a.Text)
			if err := tx.Create(a).Error; err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("create issue: %w", err)
	}
	return nil
}

// IssueAttachments lists the attachments of the user's issue in order, with
// their text when withText (else names, kinds and sizes only). Another
// user's issue has none.
func (s *Store) IssueAttachments(ctx context.Context, userID, issueID int64, withText bool) ([]Attachment, error) {
	cols := "a.issue_id, a.position, a.name, a.kind, a.bytes"
	if withText {
		cols += ", a.text"
	}
	out := []Attachment{}
	err := s.reader(ctx).Table("issue_attachments AS a").Select(cols).
		Joins("JOIN issues ON issues.id = a.issue_id").
		Where("a.issue_id = ? AND issues.user_id = ?", issueID, userID).
		Order("a.position").Scan(&out).Error
	if err != nil {
		return nil, fmt.Errorf("attachments of issue %d: %w", issueID, err)
	}
	return out, nil
}

// IssueAttachment is attachment n (from 0) of the user's issue, or
// ErrNotFound.
func (s *Store) IssueAttachment(ctx context.Context, userID, issueID int64, n int) (*Attachment, error) {
	var a Attachment
	err := s.reader(ctx).Table("issue_attachments AS a").Select("a.*").
		Joins("JOIN issues ON issues.id = a.issue_id").
		Where("a.issue_id = ? AND a.position = ? AND issues.user_id = ?", issueID, n, userID).
		Take(&a).Error
	if err != nil {
		return nil, notFound(err)
	}
	return &a, nil
}

// IssueByID returns the user's issue, or ErrNotFound.
func (s *Store) IssueByID(ctx context.Context, userID, id int64) (*IssueView, error) {
	var v IssueView
	if err := s.issueViews(ctx).Where("issues.id = ? AND issues.user_id = ?", id, userID).Take(&v).Error; err != nil {
		return nil, notFound(err)
	}
	return &v, nil
}

// ResolveIssue marks a pending or in-progress issue of the user resolved,
// with what learning keeps of it. A resolved issue gives ErrWrongState, a missing or foreign one ErrNotFound.
func (s *Store) ResolveIssue(ctx context.Context, userID, id int64, working []string, notes *string, conf Confirmation, now time.Time) error {
	res := s.writer(ctx).Model(&Issue{}).
		Where("id = ? AND user_id = ? AND status IN ?", id, userID, []string{StatusPending, StatusInProgress}).
		Updates(map[string]any{"status": StatusResolved, "resolved_at": now.UTC(),
			"working_recommendations": StringList(working), "resolution_notes": notes,
			"learned_steps": StringList(conf.Steps), "confirm_network": conf.Network})
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
// narrowed-down re-ranking) and the category it diagnosed. A missing or
// foreign issue gives ErrNotFound, a resolved one ErrWrongState.
func (s *Store) SetChecklist(ctx context.Context, userID, id int64, checklist JSON, diagnosed *string) error {
	res := s.writer(ctx).Model(&Issue{}).
		Where("id = ? AND user_id = ? AND status IN ?", id, userID, []string{StatusPending, StatusInProgress}).
		Updates(map[string]any{"ai_checklist": checklist, "diagnosed_category": diagnosed})
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

// IssueFacet counts the issues of one printer with one category and status
// created in one calendar month (UTC): what the per-printer statistics need.
// The category is the shown one (ShownCategory); one printer, status and
// month can have several facets with the same shown category.
type IssueFacet struct {
	PrinterID *int64
	Category  string
	Status    string
	CreatedAt time.Time // the first day of the month
	Count     int
}

// IssueFacets returns the user's issues grouped by printer, category,
// status and month, counted in the database: a farm with a long history
// gets a few hundred rows, not one per issue.
func (s *Store) IssueFacets(ctx context.Context, userID int64) ([]IssueFacet, error) {
	// SQLite keeps times as text that starts with the UTC date in both drivers (the server
	// stores UTC); strftime cannot read every driver's layout.
	month := "substr(created_at, 1, 7)"
	if s.dialect == Postgres {
		month = "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM')"
	}
	var rows []struct {
		PrinterID         *int64
		Category          string
		DiagnosedCategory *string
		Status            string
		Month             string
		N                 int
	}
	err := s.reader(ctx).Model(&Issue{}).
		Select("printer_id, category, diagnosed_category, status, "+month+" AS month, COUNT(*) AS n").
		Where("user_id = ?", userID).Group("printer_id, category, diagnosed_category, status, month").Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("issue facets of user %d: %w", userID, err)
	}
	out := make([]IssueFacet, 0, len(rows))
	for _, r := range rows {
		m, err := time.Parse("2006-01", r.Month)
		if err != nil {
			return nil, fmt.Errorf("issue facets of user %d: month %q: %w", userID, r.Month, err)
		}
		out = append(out, IssueFacet{PrinterID: r.PrinterID, Category: ShownCategory(r.Category, r.DiagnosedCategory),
			Status: r.Status, CreatedAt: m, Count: r.N})
	}
	return out, nil
}

// CreateIssues inserts many issues in one transaction (imports, seeding).
func (s *Store) CreateIssues(ctx context.Context, issues []Issue) error {
	now := s.Now()
	for i := range issues {
		if issues[i].CreatedAt.IsZero() {
			issues[i].CreatedAt = now
		}
		if issues[i].Status == "" {
			issues[i].Status = StatusPending
		}
	}
	return s.writer(ctx).CreateInBatches(issues, 200).Error
}
