// The signed-in issue form (SPEC section 5 "Signed-in issue form"): the anonymous rules, with a
// printer instead of a typed brand.
import type { IssueInput } from '../../api/client';
import {
  EMPTY_FORM,
  numberOrNull,
  validateTroubleshootForm,
  type TroubleshootFormValues,
} from '../troubleshoot/validation';

export type IssueFormValues = Omit<TroubleshootFormValues, 'printerBrand'> & { printerId: string };

export type IssueFieldErrors = Partial<Record<keyof IssueFormValues, string>>;

export const EMPTY_ISSUE_FORM: IssueFormValues = (() => {
  const { printerBrand: _brand, ...rest } = EMPTY_FORM;
  return { ...rest, printerId: '' };
})();

export function validateIssueForm(v: IssueFormValues): IssueFieldErrors {
  // The shared rules check every field but the brand; a placeholder brand keeps them quiet there.
  const { printerBrand: _brand, ...shared } = validateTroubleshootForm({ ...v, printerBrand: 'printer' });
  const errors: IssueFieldErrors = { ...shared };
  const id = Number(v.printerId);
  if (!v.printerId || !Number.isInteger(id) || id <= 0) errors.printerId = 'Please select a printer';
  return errors;
}

// issuePayload is the POST /api/issues body (SPEC section 7): empty optional fields are null.
export function issuePayload(v: IssueFormValues, photoUrls: string[]): IssueInput {
  return {
    printerId: Number(v.printerId),
    category: v.category,
    description: v.description.trim(),
    material: v.material.trim() || null,
    nozzleTemp: numberOrNull(v.nozzleTemp),
    bedTemp: numberOrNull(v.bedTemp),
    layerHeight: numberOrNull(v.layerHeight),
    printSpeed: numberOrNull(v.printSpeed),
    infill: numberOrNull(v.infill),
    photoUrls,
  };
}
