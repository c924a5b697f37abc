import { describe, expect, it } from 'vitest';
import { SHARED_RULE_CASES } from './ruleCases';
import { EMPTY_DETAILS, issueFields, numberOrNull, validateIssueDetails, type IssueDetailsValues } from './validation';

const valid: IssueDetailsValues = { ...EMPTY_DETAILS, description: 'Corners lift off the bed after a few layers.' };

describe('validateIssueDetails', () => {
  it('accepts a complete form and an empty set of optional fields', () => {
    expect(validateIssueDetails(valid)).toEqual({});
    expect(
      validateIssueDetails({
        ...valid,
        material: 'PLA+',
        nozzleTemp: '215',
        bedTemp: '60',
        layerHeight: '0.2',
        printSpeed: '60',
        infill: '20',
      }),
    ).toEqual({});
  });

  it.each(SHARED_RULE_CASES)('%o fails %s', (patch, field, message) => {
    expect(validateIssueDetails({ ...valid, ...patch })).toEqual({ [field]: message });
  });

  it('allows common punctuation, accents and phone-keyboard quotes', () => {
    const text = `Won’t stick: "corners" lift (PETG), 0.2 mm; qué? [brim] a/b \\ c - d_e! Überhang, naïve`;
    expect(validateIssueDetails({ ...valid, description: text })).toEqual({});
  });

  it('counts characters, not UTF-16 units, like the server', () => {
    expect(validateIssueDetails({ ...valid, description: 'ü'.repeat(2000) })).toEqual({});
    expect(validateIssueDetails({ ...valid, description: 'ab'.repeat(4) })).toHaveProperty('description');
  });

  it('accepts the range ends', () => {
    expect(
      validateIssueDetails({ ...valid, nozzleTemp: '0', bedTemp: '200', layerHeight: '0.05', printSpeed: '300', infill: '100' }),
    ).toEqual({});
    expect(validateIssueDetails({ ...valid, layerHeight: '1' })).toEqual({});
  });

  it('defaults the category to other', () => {
    expect(EMPTY_DETAILS.category).toBe('other');
  });
});

describe('numberOrNull', () => {
  it('maps empty to null and numbers to numbers', () => {
    expect(numberOrNull('')).toBeNull();
    expect(numberOrNull('  ')).toBeNull();
    expect(numberOrNull('0')).toBe(0);
    expect(numberOrNull('0.16')).toBe(0.16);
  });
});

it('issueFields trims the text and sends numbers and nulls for empty fields', () => {
  expect(issueFields({ ...valid, description: '  Corners lift.  ', material: ' ', layerHeight: ' 0.2 ', infill: '' })).toEqual({
    category: 'other',
    description: 'Corners lift.',
    material: null,
    nozzleTemp: null,
    bedTemp: null,
    layerHeight: 0.2,
    printSpeed: null,
    infill: null,
  });
});
