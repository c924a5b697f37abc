import { describe, expect, it } from 'vitest';
import { fitWithin, MAX_PHOTO_BYTES, selectPhotos, stripDataUrl } from './images';

function file(name: string, type: string, size: number): File {
  const f = new File(['x'], name, { type });
  Object.defineProperty(f, 'size', { value: size });
  return f;
}

describe('fitWithin', () => {
  it.each([
    [{ width: 4000, height: 3000 }, { width: 800, height: 600 }],
    [{ width: 3000, height: 4000 }, { width: 600, height: 800 }],
    [{ width: 1600, height: 1600 }, { width: 800, height: 800 }],
    [{ width: 1920, height: 1080 }, { width: 800, height: 450 }],
    [{ width: 801, height: 10 }, { width: 800, height: 10 }],
    [{ width: 10000, height: 1 }, { width: 800, height: 1 }],
    [{ width: 800, height: 600 }, { width: 800, height: 600 }],
    [{ width: 320, height: 240 }, { width: 320, height: 240 }],
  ])('%o -> %o', (input, want) => {
    expect(fitWithin(input)).toEqual(want);
  });

  it('keeps the longer side at the limit and the ratio within rounding', () => {
    for (const [w, h] of [
      [3024, 4032],
      [1234, 987],
      [5000, 333],
    ]) {
      const out = fitWithin({ width: w, height: h });
      expect(Math.max(out.width, out.height)).toBe(800);
      expect(Math.abs(out.width / out.height - w / h)).toBeLessThan(0.02 * (w / h));
    }
  });
});

describe('selectPhotos', () => {
  it('keeps images only', () => {
    const { accepted, rejected } = selectPhotos([], [file('a.jpg', 'image/jpeg', 1000), file('notes.pdf', 'application/pdf', 1000)]);
    expect(accepted.map((f) => f.name)).toEqual(['a.jpg']);
    expect(rejected).toEqual(['notes.pdf is not an image. Only PNG and JPG photos can be added.']);
  });

  it('refuses files over 10 MB with a clear message', () => {
    const { accepted, rejected } = selectPhotos([], [file('big.png', 'image/png', MAX_PHOTO_BYTES + 1), file('ok.png', 'image/png', MAX_PHOTO_BYTES)]);
    expect(accepted.map((f) => f.name)).toEqual(['ok.png']);
    expect(rejected).toEqual(['big.png is larger than 10MB. Please choose a smaller photo.']);
  });

  it('stops at five photos in all', () => {
    const current = [1, 2, 3, 4].map((i) => file(`${i}.jpg`, 'image/jpeg', 10));
    const { accepted, rejected } = selectPhotos(current, [file('5.jpg', 'image/jpeg', 10), file('6.jpg', 'image/jpeg', 10)]);
    expect(accepted.map((f) => f.name)).toEqual(['5.jpg']);
    expect(rejected).toEqual(['6.jpg was not added: at most 5 photos per issue.']);
  });
});

describe('stripDataUrl', () => {
  it('removes the data URL prefix and leaves bare base64 alone', () => {
    expect(stripDataUrl('data:image/jpeg;base64,/9j/4AAQ')).toBe('/9j/4AAQ');
    expect(stripDataUrl('/9j/4AAQ')).toBe('/9j/4AAQ');
  });
});
