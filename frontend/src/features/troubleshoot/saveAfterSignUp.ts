// "Sign Up to Save Results": the anonymous result on the results screen is saved to the account
// the maker creates (or signs in to) right after, with its photos and ticked steps.
import { putCheckedSteps, saveAnalysis, uploadImages, type Issue } from '../../api/client';
import { loadCheckedSteps, resultKey, titlesOf } from './checkedSteps';
import { readAnalysis } from './session';
import { buildPayload } from './submit';

const PENDING_KEY = 'saveAfterSignUp';

/** Remembers, for this tab, that the maker asked to save the result on display. */
export function markSaveAfterSignUp(): void {
  try {
    sessionStorage.setItem(PENDING_KEY, '1');
  } catch {
    // Storage disabled: there is no result to save either.
  }
}

export function saveIsPending(): boolean {
  try {
    return sessionStorage.getItem(PENDING_KEY) === '1';
  } catch {
    return false;
  }
}

// photoFile turns a stored data URL (the downscaled JPEG the analysis was sent) back into a file,
// without fetch: the page's Content-Security-Policy does not let it connect to data: URLs.
function photoFile(dataUrl: string, i: number): File {
  const [head, data = ''] = dataUrl.split(',', 2);
  const type = /^data:([^;,]+)/.exec(head)?.[1] ?? 'image/jpeg';
  const bin = atob(data);
  const bytes = new Uint8Array(bin.length);
  for (let j = 0; j < bin.length; j++) bytes[j] = bin.charCodeAt(j);
  return new File([bytes], `photo-${i + 1}.jpg`, { type });
}

/**
 * Saves the anonymous result the maker asked to keep, once they are signed in. Resolves to the
 * saved issue, or null when nothing was waiting to be saved. Photos that cannot be uploaded are
 * left out rather than losing the result.
 */
export async function savePendingAnalysis(): Promise<Issue | null> {
  if (!saveIsPending()) return null;
  sessionStorage.removeItem(PENDING_KEY);
  const state = readAnalysis();
  if (state.kind !== 'done' || !state.issue || state.issue.id) return null;
  const { result, issue } = state;
  const { signature, refineToken, ...analysis } = result;
  if (!signature || !refineToken) return null;

  let photoUrls: string[] = [];
  const photos = (issue.photos ?? []).filter((p) => p.startsWith('data:image/'));
  if (photos.length > 0) {
    try {
      const uploaded = await uploadImages(photos.map(photoFile));
      photoUrls = uploaded.images.map((img) => img.url);
    } catch (err) {
      console.error('Photos not saved with the result', err);
    }
  }
  const { images: _images, screenDimensions: _screen, ...inputs } = buildPayload(issue, []);
  const saved = await saveAnalysis({ ...inputs, result: analysis, signature, refineToken, photoUrls });
  // The steps ticked while signed out travel with the result.
  const ticked = titlesOf(result.steps, loadCheckedSteps(resultKey(result, undefined), result.steps.length));
  if (ticked.length > 0) await putCheckedSteps(saved.id, ticked).catch(() => undefined);
  return saved;
}
