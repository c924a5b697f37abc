export type Priority = 'high' | 'medium' | 'low';

const LABELS: Record<Priority, string> = {
  high: 'Most Likely',
  medium: 'Worth Checking',
  low: 'Less Common',
};

// priorityLabel: high is 'Most Likely', medium 'Worth Checking', low 'Less Common'; an unknown
// priority reads as low.
export function priorityLabel(priority: string): string {
  return LABELS[priority as Priority] ?? LABELS.low;
}

export function priorityColor(priority: string): 'error' | 'warning' | 'default' {
  if (priority === 'high') return 'error';
  if (priority === 'medium') return 'warning';
  return 'default';
}
