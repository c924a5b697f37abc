// The title of a shared guide: the summary's start, at most SHARE_TITLE_LENGTH characters, cut at a
// word boundary with an ellipsis instead of mid-word ("…stringing and oozing between").
export const SHARE_TITLE_LENGTH = 50;

export function shareTitle(summary: string, max = SHARE_TITLE_LENGTH): string {
  const text = summary.replace(/\s+/g, ' ').trim();
  const chars = Array.from(text); // code points: never split an emoji or an accent
  if (chars.length <= max) return text;
  const head = chars.slice(0, max - 1).join('');
  const cut = head.lastIndexOf(' ');
  // A single word longer than the title is cut where it must be.
  const kept = cut > max / 3 ? head.slice(0, cut) : head;
  return `${kept.replace(/[\s,;:.\-–—(]+$/u, '')}…`;
}
