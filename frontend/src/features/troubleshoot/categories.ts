// Issue categories, in the order the tiles are shown.
export interface Category {
  value: string;
  label: string;
}

export const CATEGORIES: readonly Category[] = [
  { value: 'first-layer', label: 'First Layer Problems' },
  { value: 'bed-adhesion', label: 'Bed Adhesion & Warping' },
  { value: 'stringing', label: 'Stringing & Oozing' },
  { value: 'layer-quality', label: 'Layer Quality & Surface' },
  { value: 'support-issues', label: 'Support & Bridging' },
  { value: 'extrusion-issues', label: 'Extrusion Issues' },
  { value: 'mechanical-problems', label: 'Mechanical Problems' },
  { value: 'heating-issues', label: 'Temperature & Heating' },
  { value: 'calibration', label: 'Calibration & Setup' },
  { value: 'other', label: "Other / I Don't Know" },
];

export const DEFAULT_CATEGORY = 'other';

export function categoryLabel(value: string): string {
  return CATEGORIES.find((c) => c.value === value)?.label ?? value;
}
