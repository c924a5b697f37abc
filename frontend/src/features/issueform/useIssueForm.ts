import { useCallback, useEffect, useRef, useState } from 'react';
import type { Attachment } from '../attachments/attachments';
import { draftPhotos, saveFormDraft, type FormDraft } from './draft';
import type { SlicerSettings } from '../slicedfile/parse';
import { NUMERIC_RULES, type IssueDetailsValues } from './validation';

// The fields under 'Additional Details': the form opens them when one of them holds a value or an error.
export const DETAIL_KEYS: readonly (keyof IssueDetailsValues)[] = ['material', ...NUMERIC_RULES.map((r) => r.field)];

export type IssueFormErrors<V> = Partial<Record<keyof V, string>>;

export type IssueFormState<V extends IssueDetailsValues> = ReturnType<typeof useIssueForm<V>>;

/** How long typing pauses before the draft is written. */
const DRAFT_DELAY_MS = 300;

// useIssueForm holds the state both issue forms share: the typed values, the photos, the errors
// shown and whether 'Additional Details' is open. With a draft key every change is kept as a draft
// (see draft.ts), and `restored` is a draft to start from.
export function useIssueForm<V extends IssueDetailsValues>(
  initialValues: V,
  draftKey: string | null = null,
  restored: FormDraft<V> | null = null,
) {
  const [values, setValues] = useState<V>(restored?.values ?? initialValues);
  const [photos, setPhotos] = useState<File[]>(() => (draftKey ? draftPhotos(draftKey) : []));
  const [errors, setErrors] = useState<IssueFormErrors<V>>({});
  const [detailsOpen, setDetailsOpen] = useState(() => DETAIL_KEYS.some((k) => (restored?.values ?? initialValues)[k] !== ''));
  // Settings read from a sliced file (G-code or 3MF); the form fields it filled stay editable.
  const [slicer, setSlicer] = useState<SlicerSettings | null>(restored?.slicer ?? null);
  // The printer's own files (logs, configs, settings dumps), read as text.
  const [attachments, setAttachments] = useState<Attachment[]>(restored?.attachments ?? []);

  // The draft: written a moment after the last change, and at once on submit, on leaving the
  // screen and when the page is hidden.
  const pending = useRef<(() => void) | null>(null);
  const saveDraft = useCallback(() => {
    const write = pending.current;
    pending.current = null;
    write?.();
  }, []);
  const first = useRef(true);
  useEffect(() => {
    if (!draftKey) return;
    if (first.current) {
      // Nothing changed yet: a restored draft is already stored.
      first.current = false;
      return;
    }
    pending.current = () => saveFormDraft(draftKey, { values, slicer, attachments }, photos);
    const timer = setTimeout(saveDraft, DRAFT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [draftKey, values, slicer, attachments, photos, saveDraft]);
  useEffect(() => {
    window.addEventListener('pagehide', saveDraft);
    return () => {
      window.removeEventListener('pagehide', saveDraft);
      saveDraft();
    };
  }, [saveDraft]);

  // set changes one field and clears its error.
  const set = (field: keyof V) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  // showErrors shows what validation found and reports whether the form may be sent. With
  // errors it opens the details if one is there and focuses the first field in error.
  const showErrors = (found: IssueFormErrors<V>): boolean => {
    setErrors(found);
    const fields = Object.keys(found) as (keyof V)[];
    if (fields.length === 0) return true;
    if (fields.some((f) => (DETAIL_KEYS as readonly (keyof V)[]).includes(f))) setDetailsOpen(true);
    // Focus the first field in error once the details have had a chance to open.
    setTimeout(() => document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
    return false;
  };

  const toggleDetails = () => setDetailsOpen((o) => !o);

  // applySlicer fills the form from a sliced file and keeps the other settings for the analysis.
  // What the previous file filled in (this import's or a restored draft's) and the maker has not
  // changed since is the previous file's, not the maker's: the new file replaces it, or empties it
  // where the new file says nothing.
  const applySlicer = (settings: SlicerSettings | null, printerField?: keyof V) => {
    const previous = slicer;
    setSlicer(settings);
    if (!settings) return;
    const before = previous ? slicerFill<V>(previous, printerField) : {};
    const fill = slicerFill<V>(settings, printerField);
    setValues((v) => {
      const next = { ...v };
      for (const [k, was] of Object.entries(before) as [keyof V, string][]) {
        if (String(v[k] ?? '') === was) (next as Record<keyof V, unknown>)[k] = '';
      }
      for (const [k, value] of Object.entries(fill) as [keyof V, string][]) {
        // The file's printer model fills the printer field only when the maker left it empty.
        if (k === printerField && String(next[k] ?? '').trim() !== '') continue;
        (next as Record<keyof V, unknown>)[k] = value;
      }
      return next;
    });
    setErrors((e) => {
      const next = { ...e };
      for (const k of Object.keys(fill) as (keyof V)[]) delete next[k];
      return next;
    });
    setDetailsOpen(true);
  };

  return {
    values,
    photos,
    setPhotos,
    errors,
    set,
    showErrors,
    detailsOpen,
    toggleDetails,
    slicer,
    applySlicer,
    attachments,
    setAttachments,
    saveDraft,
  };
}

/** The form fields a sliced file fills in, with their text. */
function slicerFill<V>(settings: SlicerSettings, printerField?: keyof V): Partial<Record<keyof V, string>> {
  const fill: Partial<Record<keyof V, string>> = {};
  const put = (k: keyof V, v: number | string | undefined) => {
    if (v !== undefined && v !== '') fill[k] = String(v);
  };
  put('nozzleTemp' as keyof V, settings.nozzleTemp);
  put('bedTemp' as keyof V, settings.bedTemp);
  put('layerHeight' as keyof V, settings.layerHeight);
  if (settings.printSpeed !== undefined && settings.printSpeed <= 300) put('printSpeed' as keyof V, settings.printSpeed);
  put('infill' as keyof V, settings.infill);
  put('material' as keyof V, settings.material);
  if (printerField) put(printerField, settings.printerModel);
  return fill;
}
