// Client-side validation of the anonymous issue form: the shared issue rules
// plus a required printer brand.
import { EMPTY_DETAILS, validateIssueDetails, type IssueDetailsValues } from '../issueform/validation';
import { charsError } from '../issueform/chars';

export interface TroubleshootFormValues extends IssueDetailsValues {
  printerBrand: string;
}

export type FieldErrors = Partial<Record<keyof TroubleshootFormValues, string>>;

export const EMPTY_FORM: TroubleshootFormValues = { printerBrand: '', ...EMPTY_DETAILS };

export const BRAND_MAX = 100;


export function validateTroubleshootForm(v: TroubleshootFormValues): FieldErrors {
  const errors: FieldErrors = {};
  const brand = v.printerBrand.trim();
  if (!brand) {
    errors.printerBrand = 'Please enter your printer brand';
  } else if ([...brand].length > BRAND_MAX) {
    errors.printerBrand = 'Brand must be less than 100 characters';
  } else {
    const bad = charsError('Brand', brand);
    if (bad) errors.printerBrand = bad;
  }
  return { ...errors, ...validateIssueDetails(v) };
}
