import { describe, expect, it, vi } from 'vitest';
import { lazyPage } from './lazyPage';
import { ANONYMOUS_DRAFT, clearFormDraft, draftPhotos, hasStringFields, loadFormDraft, MAX_DRAFT_CHARS, saveFormDraft, userDraftKey } from './features/issueform/draft';

const Screen = () => <p>screen</p>;

describe('lazyPage', () => {
  it('tries a failed import again and keeps no failure', async () => {
    const load = vi
      .fn<() => Promise<{ default: typeof Screen }>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue({ default: Screen });
    await lazyPage(load, [1]).preload();
    expect(load).toHaveBeenCalledTimes(2);

    // Every try fails: the preload fails, and the next one imports afresh.
    const broken = vi.fn<() => Promise<{ default: typeof Screen }>>().mockRejectedValue(new TypeError('offline'));
    const page = lazyPage(broken, [1]);
    await expect(page.preload()).rejects.toThrow('offline');
    expect(broken).toHaveBeenCalledTimes(2);
    broken.mockResolvedValue({ default: Screen });
    await page.preload();
    expect(broken).toHaveBeenCalledTimes(3);
  });
});

describe('form drafts', () => {
  const isValues = hasStringFields<{ description: string }>(['description']);

  it('are kept per account, bounded, and removed', () => {
    const alice = userDraftKey({ id: 1, firebaseUid: null });
    const bob = userDraftKey({ id: 2, firebaseUid: null });
    const photo = new File(['x'], 'a.png');
    saveFormDraft(alice, { values: { description: 'warps' }, slicer: null, attachments: [] }, [photo]);
    expect(loadFormDraft(alice, isValues)?.values.description).toBe('warps');
    expect(draftPhotos(alice)).toEqual([photo]);
    expect(loadFormDraft(bob, isValues)).toBeNull();

    const big = { name: 'klippy.log', text: 'x'.repeat(MAX_DRAFT_CHARS), bytes: MAX_DRAFT_CHARS, kind: 'klippy-log' as const, label: 'Klipper log' };
    saveFormDraft(ANONYMOUS_DRAFT, { values: { description: 'strings' }, slicer: null, attachments: [big] });
    const kept = loadFormDraft(ANONYMOUS_DRAFT, isValues);
    expect(kept?.values.description).toBe('strings');
    expect(kept?.attachments).toEqual([]);

    clearFormDraft(alice);
    expect(loadFormDraft(alice, isValues)).toBeNull();
    expect(draftPhotos(alice)).toEqual([]);
  });
});
