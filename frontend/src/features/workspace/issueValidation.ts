// The signed-in issue form: the shared issue rules, with a
// chosen printer instead of a typed brand.
import type { IssueInput } from '../../api/client';
import { EMPTY_DETAILS, issueFields, validateIssueDetails, type IssueDetailsValues } from '../issueform/validation';

export interface IssueFormValues extends IssueDetailsValues {
  printerId: string;
}

export type IssueFieldErrors = Partial<Record<keyof IssueFormValues, string>>;

export const EMPTY_ISSUE_FORM: IssueFormValues = { ...EMPTY_DETAILS, printerId: '' };

export function validateIssueForm(v: IssueFormValues): IssueFieldErrors {
  const errors: IssueFieldErrors = validateIssueDetails(v);
  const id = Number(v.printerId);
  if (!v.printerId || !Number.isInteger(id) || id <= 0) errors.printerId = 'Please select a printer';
  return errors;
}

// issuePayload is the POST /api/issues body: empty optional fields are null.
export function issuePayload(v: IssueFormValues, photoUrls: string[]): IssueInput {
  return { printerId: Number(v.printerId), ...issueFields(v), photoUrls };
}
