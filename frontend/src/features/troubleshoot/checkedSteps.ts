// Ticked solution steps, remembered per result in local storage.
import type { TroubleshootingResult } from '../../api/client';

const PREFIX = 'layerfix.checkedSteps.';

// fnv1a is a small stable string hash, enough to tell results apart as a storage key.
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

// resultKey names a result: a saved issue by its id, an anonymous result by its content.
export function resultKey(result: TroubleshootingResult, issueId?: number): string {
  if (issueId) return `issue-${issueId}`;
  return `result-${fnv1a(result.summary + '\n' + result.steps.map((s) => s.title).join('\n'))}`;
}

export function loadCheckedSteps(key: string, stepCount: number): number[] {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((i): i is number => Number.isInteger(i) && i >= 0 && i < stepCount).sort((a, b) => a - b);
  } catch {
    return [];
  }
}

export function saveCheckedSteps(key: string, checked: readonly number[]): void {
  try {
    if (checked.length === 0) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, JSON.stringify(checked));
  } catch {
    // Private mode or full storage: ticks last for this visit only.
  }
}

export function toggleStep(checked: readonly number[], index: number): number[] {
  return checked.includes(index) ? checked.filter((i) => i !== index) : [...checked, index].sort((a, b) => a - b);
}

// checkedFromTitles maps the ticked titles a server stored to step indices.
export function checkedFromTitles(steps: readonly { title: string }[], titles: readonly string[]): number[] {
  return steps.flatMap((s, i) => (titles.includes(s.title) ? [i] : []));
}

// titlesOf is the titles of the ticked steps, in step order.
export function titlesOf(steps: readonly { title: string }[], checked: readonly number[]): string[] {
  return steps.filter((_, i) => checked.includes(i)).map((s) => s.title);
}
