// Badge texts and colours of issues: green resolved, yellow in progress, grey otherwise.
import { categoryLabel } from '../troubleshoot/categories';

export type BadgeColor = 'success' | 'warning' | 'default' | 'error' | 'info' | 'primary' | 'secondary';

export interface Badge {
  label: string;
  color: BadgeColor;
}

// statusBadge: green for resolved, yellow for in-progress, grey otherwise.
export function statusBadge(status: string | null | undefined): Badge {
  switch (status) {
    case 'resolved':
      return { label: 'Resolved', color: 'success' };
    case 'in-progress':
      return { label: 'In Progress', color: 'warning' };
    default:
      return { label: 'Pending', color: 'default' };
  }
}

// Older category values still found in stored issues, with their labels.
const LEGACY_LABELS: Record<string, string> = {
  adhesion: 'Adhesion',
  warping: 'Warping',
  under_extrusion: 'Under Extrusion',
  over_extrusion: 'Over Extrusion',
  layer_separation: 'Layer Separation',
};

const CATEGORY_COLORS: Record<string, BadgeColor> = {
  'first-layer': 'primary',
  'bed-adhesion': 'info',
  stringing: 'secondary',
  'layer-quality': 'secondary',
  'support-issues': 'info',
  'extrusion-issues': 'warning',
  'mechanical-problems': 'error',
  'heating-issues': 'error',
  calibration: 'primary',
  other: 'default',
  adhesion: 'info',
  warping: 'info',
  under_extrusion: 'warning',
  over_extrusion: 'warning',
  layer_separation: 'error',
};

/**
 * The category an issue is listed, badged and counted under: the maker's choice where they made
 * one, else the category the analysis diagnosed (the default tile is "Other"), as the server does.
 */
export function shownCategory(issue: { category: string; diagnosedCategory?: string | null }): string {
  return (issue.category === '' || issue.category === 'other') && issue.diagnosedCategory ? issue.diagnosedCategory : issue.category;
}

export function categoryBadge(category: string): Badge {
  return {
    label: LEGACY_LABELS[category] ?? categoryLabel(category),
    color: CATEGORY_COLORS[category] ?? 'default',
  };
}
