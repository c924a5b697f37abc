import { describe, expect, test } from 'vitest';
import { EMPTY_ISSUE_FORM, issuePayload, validateIssueForm, type IssueFormValues } from './issueValidation';

const valid: IssueFormValues = { ...EMPTY_ISSUE_FORM, printerId: '7', description: 'Corners lift after a few layers.' };

describe('validateIssueForm', () => {
  test('a valid form has no errors and no brand rule', () => {
    expect(validateIssueForm(valid)).toEqual({});
  });

  test.each([
    [{ printerId: '' }, 'printerId', 'Please select a printer'],
    [{ printerId: 'abc' }, 'printerId', 'Please select a printer'],
    [{ category: '' }, 'category', 'Please select an issue category'],
    [{ description: ' too short ' }, 'description', 'Please provide a detailed description (at least 10 characters)'],
    [{ description: 'x'.repeat(2001) }, 'description', 'Description must be less than 2000 characters'],
    [{ description: 'Stringing <everywhere> on tower' }, 'description', 'Description contains invalid characters'],
    [{ material: 'P'.repeat(51) }, 'material', 'Material must be less than 50 characters'],
    [{ material: 'PLA*' }, 'material', 'Material contains invalid characters'],
    [{ nozzleTemp: '501' }, 'nozzleTemp', 'Nozzle temperature must be between 0 and 500 °C'],
    [{ bedTemp: '-1' }, 'bedTemp', 'Bed temperature must be between 0 and 200 °C'],
    [{ layerHeight: '0.04' }, 'layerHeight', 'Layer height must be between 0.05 and 1 mm'],
    [{ printSpeed: '0' }, 'printSpeed', 'Print speed must be between 1 and 300 mm/s'],
    [{ infill: '101' }, 'infill', 'Infill must be between 0 and 100 %'],
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
