// What an answer to a narrow-it-down question did to the steps, so the maker sees it: the steps it
// moved up, and one sentence saying so (or that nothing changed).
import type { NarrowAnswer, TroubleshootingStep } from '../../api/client';

export interface Rerank {
  /** Titles of the steps that moved up (or came in). */
  movedUp: string[];
  message: string;
}

export const UNCHANGED = 'Your answer did not change the order of the steps.';

export function rerank(before: readonly TroubleshootingStep[], after: readonly TroubleshootingStep[]): Rerank {
  const was = new Map(before.map((s, i) => [s.title, i]));
  const movedUp: string[] = [];
  let best: { title: string; to: number; gain: number } | null = null;
  after.forEach((s, i) => {
    const from = was.get(s.title) ?? before.length;
    if (i < from) {
      movedUp.push(s.title);
      if (!best || from - i > best.gain) best = { title: s.title, to: i, gain: from - i };
    }
  });
  const same = before.length === after.length && after.every((s, i) => s.title === before[i].title);
  if (same || !best) return { movedUp: [], message: UNCHANGED };
  const { title, to } = best as { title: string; to: number };
  const where = to === 0 ? 'is now the first step' : `moved up to step ${to + 1}`;
  return { movedUp, message: `The steps were re-ordered by your answer: “${title}” ${where}.` };
}

/** Answers as the server keeps them; results saved before "not sure" existed hold true and false. */
export function normalizeAnswers(raw: unknown): Record<string, NarrowAnswer> | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const out: Record<string, NarrowAnswer> = {};
  for (const [id, v] of Object.entries(raw as Record<string, unknown>)) {
    if (v === true || v === 'yes') out[id] = 'yes';
    else if (v === false || v === 'no') out[id] = 'no';
    else if (v === 'unsure') out[id] = 'unsure';
  }
  return out;
}
