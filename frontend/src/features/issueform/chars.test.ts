import { describe, expect, it } from 'vitest';
import { charsError, invalidChar } from './chars';

describe('maker wording', () => {
  it.each([
    '210°C, 20% infill',
    'PLA & PETG',
    '0.4mm × 0.2',
    '#3 printer',
    'x = ~5 * 2 @ <b>60</b> mm/s',
    'Fäden überall — 造形が糸を引く',
    'blobs 🤬 fixed by 👨‍🔧 and ❤️',
  ])('accepts %s', (text) => {
    expect(invalidChar(text, false)).toBeNull();
  });

  it('accepts line breaks and tabs in a description only', () => {
    expect(invalidChar('line one\nline two\tend', true)).toBeNull();
    expect(charsError('Material', 'PLA\nPETG')).toBe('Material contains invalid characters: a line break or tab (U+000A). Remove it and try again.');
  });

  it.each([
    ['stringing \u0007 bell', 'a control character (U+0007)'],
    ['stringing \u202e override', 'an invisible formatting character (U+202E)'],
    ['zero\u200bwidth', 'an invisible formatting character (U+200B)'],
    ['soft\u00adhyphen', 'an invisible formatting character (U+00AD)'],
    ['line\u2028separator', 'a line separator (U+2028)'],
  ])('refuses %j naming the character', (text, found) => {
    expect(invalidChar(text, true)).toBe(found);
    expect(charsError('Description', text, true)).toBe(`Description contains invalid characters: ${found}. Remove it and try again.`);
  });
});
