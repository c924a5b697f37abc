import { describe, expect, test } from 'vitest';
import { SHARED_RULE_CASES } from '../issueform/ruleCases';
import { EMPTY_ISSUE_FORM, issuePayload, validateIssueForm, type IssueFormValues } from './issueValidation';

const valid: IssueFormValues = { ...EMPTY_ISSUE_FORM, printerId: '7', description: 'Corners lift after a few layers.' };

describe('validateIssueForm', () => {
  test('a valid form has no errors and no brand rule', () => {
    expect(validateIssueForm(valid)).toEqual({});
  });

  test.each([
    [{ printerId: '' }, 'printerId', 'Please select a printer'],
    [{ printerId: 'abc' }, 'printerId', 'Please select a printer'],
    [{ printerId: '0' }, 'printerId', 'Please select a printer'],
    ...SHARED_RULE_CASES,
  ] as const)('%j -> %s', (patch, field, message) => {
    expect(validateIssueForm({ ...valid, ...patch })).toEqual({ [field]: message });
  });

  test('the category defaults to other', () => {
    expect(EMPTY_ISSUE_FORM.category).toBe('other');
  });
});

test('issuePayload sends numbers and nulls for empty fields', () => {
  expect(issuePayload({ ...valid, material: ' PETG ', nozzleTemp: '235', layerHeight: '' }, ['/api/photos/a.jpg'])).toEqual({
    printerId: 7,
    category: 'other',
    description: 'Corners lift after a few layers.',
    material: 'PETG',
    nozzleTemp: 235,
    bedTemp: null,
    layerHeight: null,
    printSpeed: null,
    infill: null,
    photoUrls: ['/api/photos/a.jpg'],
  });
});
