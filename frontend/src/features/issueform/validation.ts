// Client-side rules that both issue forms share (the anonymous one and the signed-in one): category, description, material and the numeric fields.
// Each form adds only its own printer field: a typed brand or a chosen printer.
import type { IssueDetails } from '../troubleshoot/session';
import { charsError } from './chars';
import type { IssueFields } from '../../api/client';

// IssueDetailsValues are the shared fields as typed: every value a string, empty when unset.
export interface IssueDetailsValues {
  category: string;
  description: string;
  material: string;
  nozzleTemp: string;
  bedTemp: string;
  layerHeight: string;
  printSpeed: string;
  infill: string;
}

export type NumericField = 'nozzleTemp' | 'bedTemp' | 'layerHeight' | 'printSpeed' | 'infill';

export const EMPTY_DETAILS: IssueDetailsValues = {
  category: 'other',
  description: '',
  material: '',
  nozzleTemp: '',
  bedTemp: '',
  layerHeight: '',
  printSpeed: '',
  infill: '',
};

// detailsFromIssue fills the form fields from an issue (a shared issue loaded back into a form).
export function detailsFromIssue(issue: IssueDetails): IssueDetailsValues {
  const num = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
  return {
    category: issue.category || EMPTY_DETAILS.category,
    description: issue.description,
    material: issue.material ?? '',
    nozzleTemp: num(issue.nozzleTemp),
    bedTemp: num(issue.bedTemp),
    layerHeight: num(issue.layerHeight),
    printSpeed: num(issue.printSpeed),
    infill: num(issue.infill),
  };
}

export const DESCRIPTION_MIN = 10;
export const DESCRIPTION_MAX = 2000;
export const MATERIAL_MAX = 50;


interface NumericRule {
  field: NumericField;
  min: number;
  max: number;
  message: string;
}

export const NUMERIC_RULES: readonly NumericRule[] = [
  { field: 'nozzleTemp', min: 0, max: 500, message: 'Nozzle temperature must be between 0 and 500 °C' },
  { field: 'bedTemp', min: 0, max: 200, message: 'Bed temperature must be between 0 and 200 °C' },
  { field: 'layerHeight', min: 0.05, max: 1, message: 'Layer height must be between 0.05 and 1 mm' },
  { field: 'printSpeed', min: 1, max: 300, message: 'Print speed must be between 1 and 300 mm/s' },
  { field: 'infill', min: 0, max: 100, message: 'Infill must be between 0 and 100 %' },
];

export function validateIssueDetails(v: IssueDetailsValues): Partial<Record<keyof IssueDetailsValues, string>> {
  const errors: Partial<Record<keyof IssueDetailsValues, string>> = {};
  if (!v.category) {
    errors.category = 'Please select an issue category';
  }
  const description = v.description.trim();
  const length = [...description].length;
  if (length < DESCRIPTION_MIN) {
    errors.description = 'Please provide a detailed description (at least 10 characters)';
  } else if (length > DESCRIPTION_MAX) {
    errors.description = 'Description must be less than 2000 characters';
  } else {
    const bad = charsError('Description', description, true);
    if (bad) errors.description = bad;
  }
  const material = v.material.trim();
  if ([...material].length > MATERIAL_MAX) {
    errors.material = 'Material must be less than 50 characters';
  } else {
    const bad = charsError('Material', material);
    if (bad) errors.material = bad;
  }
  for (const rule of NUMERIC_RULES) {
    const raw = v[rule.field].trim();
    if (raw === '') continue;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < rule.min || n > rule.max) {
      errors[rule.field] = rule.message;
    }
  }
  return errors;
}

// numberOrNull turns an optional numeric field into the payload value: null when empty.
export function numberOrNull(raw: string): number | null {
  const s = raw.trim();
  if (s === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

// issueFields is the shared part of a request body: text trimmed, empty optional fields null.
export function issueFields(v: IssueDetailsValues): IssueFields {
  return {
    category: v.category,
    description: v.description.trim(),
    material: v.material.trim() || null,
    nozzleTemp: numberOrNull(v.nozzleTemp),
    bedTemp: numberOrNull(v.bedTemp),
    layerHeight: numberOrNull(v.layerHeight),
    printSpeed: numberOrNull(v.printSpeed),
    infill: numberOrNull(v.infill),
  };
}
