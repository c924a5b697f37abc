// The issue form's draft: what the maker typed, the settings read from a sliced file and the
// attached files, kept until an analysis succeeds, so a failure, a reload, an expired session or a
// lost connection never costs them. Signed-in drafts live in local storage under the user's id (a
// second account on the same browser never sees them; an explicit sign-out removes them); the
// anonymous draft lives in this tab's session storage. Photos stay in memory only: they are too
// large for storage, but survive the trip to the results screen and back.
import type { Attachment } from '../attachments/attachments';
import type { SlicerSettings } from '../slicedfile/parse';

export interface FormDraft<V> {
  values: V;
  slicer: SlicerSettings | null;
  attachments: Attachment[];
}

interface Stored<V> extends FormDraft<V> {
  savedAt: number;
}

const PREFIX = 'layerfix.draft.';
export const ANONYMOUS_DRAFT = `${PREFIX}anonymous`;
/** A draft larger than this (in UTF-16 units) is kept without its attachments. */
export const MAX_DRAFT_CHARS = 400_000;
/** An older draft is not restored. */
export const DRAFT_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

const photosInMemory = new Map<string, File[]>();

/** The draft key of a signed-in user: the identity's uid, which local accounts share with their id. */
export function userDraftKey(user: { id: number; firebaseUid?: string | null }): string {
  return `${PREFIX}user.${user.firebaseUid || String(user.id)}`;
}

function storageFor(key: string): Storage | null {
  try {
    return key === ANONYMOUS_DRAFT ? window.sessionStorage : window.localStorage;
  } catch {
    return null;
  }
}

/** Saves the draft; when storage is full or the draft is too large, the attachments are left out. */
export function saveFormDraft<V>(key: string, draft: FormDraft<V>, photos: File[] = []): void {
  if (photos.length > 0) photosInMemory.set(key, photos);
  else photosInMemory.delete(key);
  const storage = storageFor(key);
  if (!storage) return;
  const full = JSON.stringify({ ...draft, savedAt: Date.now() } satisfies Stored<V>);
  const lean = () => JSON.stringify({ ...draft, attachments: [], savedAt: Date.now() } satisfies Stored<V>);
  try {
    storage.setItem(key, full.length <= MAX_DRAFT_CHARS ? full : lean());
  } catch {
    try {
      storage.setItem(key, lean());
    } catch {
      // Storage disabled or full: the draft lives as long as the form does.
    }
  }
}

/** The saved draft, or null when there is none, it is unreadable or older than a week. */
export function loadFormDraft<V extends object>(key: string, isValues: (v: unknown) => v is V): FormDraft<V> | null {
  const storage = storageFor(key);
  if (!storage) return null;
  try {
    const raw = storage.getItem(key);
    if (!raw) return null;
    const d = JSON.parse(raw) as Partial<Stored<V>>;
    if (typeof d.savedAt !== 'number' || Date.now() - d.savedAt > DRAFT_MAX_AGE_MS || !isValues(d.values)) {
      storage.removeItem(key);
      return null;
    }
    return {
      values: d.values,
      slicer: d.slicer && typeof d.slicer === 'object' ? d.slicer : null,
      attachments: Array.isArray(d.attachments) ? d.attachments.filter(isAttachment) : [],
    };
  } catch {
    return null;
  }
}

/** The photos the form held when it was last left, in this page's memory. */
export function draftPhotos(key: string): File[] {
  return photosInMemory.get(key) ?? [];
}

export function clearFormDraft(key: string): void {
  photosInMemory.delete(key);
  try {
    storageFor(key)?.removeItem(key);
  } catch {
    // Nothing stored.
  }
}

function isAttachment(a: unknown): a is Attachment {
  const x = a as Partial<Attachment> | null;
  return !!x && typeof x.name === 'string' && typeof x.text === 'string' && typeof x.bytes === 'number';
}

/** Values whose text fields are all strings (the shape both issue forms keep). */
export function hasStringFields<V>(keys: readonly (keyof V)[]) {
  return (v: unknown): v is V =>
    !!v && typeof v === 'object' && keys.every((k) => typeof (v as Record<keyof V, unknown>)[k] === 'string');
}
