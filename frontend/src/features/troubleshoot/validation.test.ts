import { describe, expect, it } from 'vitest';
import { SHARED_RULE_CASES } from '../issueform/ruleCases';
import { EMPTY_FORM, validateTroubleshootForm, type TroubleshootFormValues } from './validation';

const valid: TroubleshootFormValues = {
  ...EMPTY_FORM,
  printerBrand: 'Prusa MK3S+',
  description: 'Corners lift off the bed after a few layers.',
};

describe('validateTroubleshootForm', () => {
  it('accepts a complete form and an empty set of optional fields', () => {
    expect(validateTroubleshootForm(valid)).toEqual({});
    const details = { material: 'PLA+', nozzleTemp: '215', bedTemp: '60', layerHeight: '0.2', printSpeed: '60', infill: '20' };
    expect(validateTroubleshootForm({ ...valid, ...details })).toEqual({});
  });

  it.each([
    [{ printerBrand: '   ' }, 'printerBrand', 'Please enter your printer brand'],
    [{ printerBrand: 'x'.repeat(101) }, 'printerBrand', 'Brand must be less than 100 characters'],
    [{ printerBrand: 'Prusa\u0007MK4' }, 'printerBrand', 'Brand contains invalid characters: a control character (U+0007). Remove it and try again.'],
    ...SHARED_RULE_CASES,
  ] as const)('%o fails %s', (patch, field, message) => {
    expect(validateTroubleshootForm({ ...valid, ...patch })).toEqual({ [field]: message });
  });

  it('reports the brand together with the shared rules', () => {
    expect(validateTroubleshootForm({ ...valid, printerBrand: '', description: 'short' })).toEqual({
      printerBrand: 'Please enter your printer brand',
      description: 'Please provide a detailed description (at least 10 characters)',
    });
  });

  it('has no printer id rule and defaults the category to other', () => {
    expect(EMPTY_FORM.category).toBe('other');
    expect(validateTroubleshootForm(valid)).not.toHaveProperty('printerId');
  });
});
