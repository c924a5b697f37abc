import { useState } from 'react';
import { NUMERIC_RULES, type IssueDetailsValues } from './validation';

// The fields under 'Additional Details': the form opens them when one of them holds a value or an error.
export const DETAIL_KEYS: readonly (keyof IssueDetailsValues)[] = ['material', ...NUMERIC_RULES.map((r) => r.field)];

export type IssueFormErrors<V> = Partial<Record<keyof V, string>>;

export type IssueFormState<V extends IssueDetailsValues> = ReturnType<typeof useIssueForm<V>>;

// useIssueForm holds the state both issue forms share: the typed values, the photos, the errors
// shown and whether 'Additional Details' is open.
export function useIssueForm<V extends IssueDetailsValues>(initialValues: V) {
  const [values, setValues] = useState<V>(initialValues);
  const [photos, setPhotos] = useState<File[]>([]);
  const [errors, setErrors] = useState<IssueFormErrors<V>>({});
  const [detailsOpen, setDetailsOpen] = useState(() => DETAIL_KEYS.some((k) => initialValues[k] !== ''));

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

  return { values, photos, setPhotos, errors, set, showErrors, detailsOpen, toggleDetails };
}
