import { describe, expect, it } from 'vitest';
import { SHARE_TITLE_LENGTH, shareTitle } from './shareTitle';

describe('shareTitle', () => {
  it('keeps a short summary whole', () => {
    expect(shareTitle('Stringing from retraction.')).toBe('Stringing from retraction.');
  });
  it('cuts a long summary at a word boundary with an ellipsis', () => {
    const t = shareTitle('This looks most like stringing and oozing between parts (Stringing & Oozing).');
    expect(t).toBe('This looks most like stringing and oozing…');
    expect(Array.from(t).length).toBeLessThanOrEqual(SHARE_TITLE_LENGTH);
    expect(t).not.toMatch(/betwee…$/);
  });
  it('drops trailing punctuation before the ellipsis', () => {
    expect(shareTitle('Warping, lifting, curling, peeling, cracking, splitting corners', 30)).toBe('Warping, lifting, curling…');
  });
  it('never splits an emoji and still cuts one endless word', () => {
    const t = shareTitle('🔥'.repeat(60));
    expect(Array.from(t)).toHaveLength(SHARE_TITLE_LENGTH);
    expect(t.endsWith('🔥…')).toBe(true);
  });
});
