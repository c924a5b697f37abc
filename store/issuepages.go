package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
)

// IssueFilter narrows a maker's issue log; zero values mean "any".
type IssueFilter struct {
	Status   string    // pending, in-progress, resolved, or "open" (not resolved)
	Printer  string    // printer name; "Unknown Printer" is an issue with no printer
	Category string    // the shown category (ShownCategory)
	From, To time.Time // created at, inclusive
	Text     string    // in the description or the resolution notes
}

// IssueCursor is the position after the last issue of a page (newest first).
type IssueCursor struct {
	CreatedAt time.Time
	ID        int64
}

// UnknownPrinter is how an issue without a printer is filtered and shown.
const UnknownPrinter = "Unknown Printer"

func (s *Store) filtered(ctx context.Context, userID int64, f IssueFilter) (q *gorm.DB) {
	q = s.issueViews(ctx).Where("issues.user_id = ?", userID)
	switch f.Status {
	case "":
	case "open":
		q = q.Where("issues.status IN ?", []string{StatusPending, StatusInProgress})
	default:
		q = q.Where("issues.status = ?", f.Status)
	}
	switch f.Printer {
	case "":
	case UnknownPrinter:
		q = q.Where("printers.id IS NULL")
	default:
		q = q.Where("printers.name = ?", f.Printer)
	}
	if f.Category != "" {
		q = q.Where(shownCategorySQL+" = ?", f.Category)
	}
	if !f.From.IsZero() {
		q = q.Where("issues.created_at >= ?", f.From.UTC())
	}
	if !f.To.IsZero() {
		q = q.Where("issues.created_at <= ?", f.To.UTC())
	}
	if t := strings.TrimSpace(f.Text); t != "" {
		pat := "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(strings.ToLower(t)) + "%"
		q = q.Where(`(LOWER(issues.description) LIKE ? ESCAPE '\' OR LOWER(COALESCE(issues.resolution_notes, '')) LIKE ? ESCAPE '\')`, pat, pat)
	}
	return q
}

// IssuePage returns up to limit of the maker's issues matching f, newest
// first, after the cursor (nil: from the newest), the cursor of the next
// page (nil when this is the last) and how many match in all.
func (s *Store) IssuePage(ctx context.Context, userID int64, f IssueFilter, after *IssueCursor, limit int) ([]IssueView, *IssueCursor, int64, error) {
	var total int64
	if err := s.filtered(ctx, userID, f).Count(&total).Error; err != nil {
		return nil, nil, 0, fmt.Errorf("count issues: %w", err)
	}
	out, next, err := page(s.filtered(ctx, userID, f), after, limit)
	return out, next, total, err
}

// page reads limit issues of q after the cursor, newest first, and the
// cursor of the next page.
func page(q *gorm.DB, after *IssueCursor, limit int) ([]IssueView, *IssueCursor, error) {
	if after != nil {
		t := after.CreatedAt.UTC()
		q = q.Where("(issues.created_at < ? OR (issues.created_at = ? AND issues.id < ?))", t, t, after.ID)
	}
	out := []IssueView{}
	if err := q.Order("issues.created_at DESC, issues.id DESC").Limit(limit + 1).Find(&out).Error; err != nil {
		return nil, nil, fmt.Errorf("list issues: %w", err)
	}
	var next *IssueCursor
	if len(out) > limit {
		out = out[:limit]
		last := out[len(out)-1]
		next = &IssueCursor{CreatedAt: last.CreatedAt, ID: last.ID}
	}
	return out, next, nil
}

// IssueCounts are a maker's issues by status.
type IssueCounts struct {
	Total, Pending, InProgress, Resolved int64
}

// CountIssues counts a maker's issues by status with one indexed query.
func (s *Store) CountIssues(ctx context.Context, userID int64) (IssueCounts, error) {
	var rows []struct {
		Status string
		N      int64
	}
	err := s.reader(ctx).Table("issues").Select("status, COUNT(*) AS n").Where("user_id = ?", userID).Group("status").Scan(&rows).Error
	if err != nil {
		return IssueCounts{}, fmt.Errorf("count issues: %w", err)
	}
	var c IssueCounts
	for _, r := range rows {
		c.Total += r.N
		switch r.Status {
		case StatusPending:
			c.Pending = r.N
		case StatusInProgress:
			c.InProgress = r.N
		case StatusResolved:
			c.Resolved = r.N
		}
	}
	return c, nil
}

// EachIssue calls fn for every issue of the maker, newest first, reading a
// page at a time so memory stays bounded however long the log is.
func (s *Store) EachIssue(ctx context.Context, userID int64, fn func(*IssueView) error) error {
	var after *IssueCursor
	for {
		rows, next, err := page(s.issueViews(ctx).Where("issues.user_id = ?", userID), after, 500)
		if err != nil {
			return err
		}
		for i := range rows {
			if err := fn(&rows[i]); err != nil {
				return err
			}
		}
		if next == nil {
			return nil
		}
		after = next
	}
}
