package store

import (
	"context"
	"fmt"
)

// Confirmation is what learning keeps of a resolved issue: the
// knowledge-base steps the maker confirmed (references, never wording) and
// a keyed hash of the network the confirmation came from.
type Confirmation struct {
	Steps   []string
	Network string
}

// ConfirmedFix is a resolved issue whose maker confirmed knowledge-base
// steps: what the engine learns from. It names the maker only by account id
// and network hash, so that agreement can be counted in makers; no printer
// name, only the printer's brand/model text.
type ConfirmedFix struct {
	ID           int64
	UserID       int64
	Network      string
	Category     string
	Description  string
	Material     *string
	NozzleTemp   *float64
	BedTemp      *float64
	LayerHeight  *float64
	PrintSpeed   *float64
	Infill       *float64
	LearnedSteps StringList
	PrinterBrand *string
	NozzleSize   *float64
}

// ConfirmedFixes returns up to limit resolved issues with confirmed steps,
// most recently resolved first, from makers whose email is verified and
// whose account is enabled; each maker contributes at most perMaker of
// them (their most recent), so one account cannot crowd the others out.
func (s *Store) ConfirmedFixes(ctx context.Context, limit, perMaker int) ([]ConfirmedFix, error) {
	out := []ConfirmedFix{}
	err := s.reader(ctx).Raw(`SELECT i.id, i.user_id, i.confirm_network AS network, i.category, i.description, i.material,
  i.nozzle_temp, i.bed_temp, i.layer_height, i.print_speed, i.infill, i.learned_steps,
  printers.brand AS printer_brand, printers.nozzle_size AS nozzle_size
FROM (
  SELECT issues.*, ROW_NUMBER() OVER (PARTITION BY issues.user_id ORDER BY issues.resolved_at DESC, issues.id DESC) AS nth
  FROM issues JOIN users ON users.id = issues.user_id
  WHERE issues.status = ? AND issues.learned_steps <> ? AND issues.confirm_network <> ''
    AND users.email_verified = ? AND users.disabled = ?
) AS i
LEFT JOIN printers ON printers.id = i.printer_id
WHERE i.nth <= ?
ORDER BY i.resolved_at DESC, i.id DESC
LIMIT ?`, StatusResolved, "[]", true, false, perMaker, limit).Scan(&out).Error
	if err != nil {
		return nil, fmt.Errorf("confirmed fixes: %w", err)
	}
	return out, nil
}
