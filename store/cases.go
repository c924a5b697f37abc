package store

import (
	"context"
	"fmt"
)

// ConfirmedFix is a resolved issue whose maker marked the steps that worked:
// what the engine learns from. It carries nothing that names the maker: no
// user, no printer name, only the printer's brand/model text.
type ConfirmedFix struct {
	ID                     int64
	Category               string
	Description            string
	Material               *string
	NozzleTemp             *float64
	BedTemp                *float64
	LayerHeight            *float64
	PrintSpeed             *float64
	Infill                 *float64
	WorkingRecommendations StringList
	PrinterBrand           *string
	NozzleSize             *float64
}

// ConfirmedFixes returns up to limit resolved issues of every maker of this
// server that have working recommendations, most recently resolved first.
func (s *Store) ConfirmedFixes(ctx context.Context, limit int) ([]ConfirmedFix, error) {
	out := []ConfirmedFix{}
	err := s.reader(ctx).Table("issues").
		Select("issues.id, issues.category, issues.description, issues.material, issues.nozzle_temp, issues.bed_temp, "+
			"issues.layer_height, issues.print_speed, issues.infill, issues.working_recommendations, "+
			"printers.brand AS printer_brand, printers.nozzle_size AS nozzle_size").
		Joins("LEFT JOIN printers ON printers.id = issues.printer_id").
		Where("issues.status = ? AND issues.working_recommendations IS NOT NULL AND issues.working_recommendations <> ?", StatusResolved, "[]").
		Order("issues.resolved_at DESC, issues.id DESC").Limit(limit).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("confirmed fixes: %w", err)
	}
	return out, nil
}
