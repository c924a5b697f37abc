import { describe, expect, it } from 'vitest';
import { EMPTY_FORM, numberOrNull, validateTroubleshootForm, type TroubleshootFormValues } from './validation';

const valid: TroubleshootFormValues = {
  ...EMPTY_FORM,
  printerBrand: 'Prusa MK3S+',
  description: 'Corners lift off the bed after a few layers.',
};

describe('validateTroubleshootForm', () => {
  it('accepts a complete form and an empty set of optional fields', () => {
    expect(validateTroubleshootForm(valid)).toEqual({});
    expect(
      validateTroubleshootForm({
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

  it.each([
    [{ printerBrand: '   ' }, 'printerBrand', 'Please enter your printer brand'],
    [{ printerBrand: 'x'.repeat(101) }, 'printerBrand', 'Brand must be less than 100 characters'],
    [{ category: '' }, 'category', 'Please select an issue category'],
    [{ description: 'too short' }, 'description', 'Please provide a detailed description (at least 10 characters)'],
    [{ description: '   short    ' }, 'description', 'Please provide a detailed description (at least 10 characters)'],
    [{ description: 'a'.repeat(2001) }, 'description', 'Description must be less than 2000 characters'],
    [{ description: 'Stringing <script> everywhere' }, 'description', 'Description contains invalid characters'],
    [{ description: 'Nozzle at 245°C strings badly' }, 'description', 'Description contains invalid characters'],
    [{ material: 'P'.repeat(51) }, 'material', 'Material must be less than 50 characters'],
    [{ material: 'PLA/PETG' }, 'material', 'Material contains invalid characters'],
    [{ nozzleTemp: '501' }, 'nozzleTemp', 'Nozzle temperature must be between 0 and 500 °C'],
    [{ bedTemp: '-1' }, 'bedTemp', 'Bed temperature must be between 0 and 200 °C'],
    [{ layerHeight: '0.04' }, 'layerHeight', 'Layer height must be between 0.05 and 1 mm'],
    [{ printSpeed: '0' }, 'printSpeed', 'Print speed must be between 1 and 300 mm/s'],
    [{ infill: '101' }, 'infill', 'Infill must be between 0 and 100 %'],
    [{ infill: 'abc' }, 'infill', 'Infill must be between 0 and 100 %'],
  ] as const)('%o fails %s', (patch, field, message) => {
    expect(validateTroubleshootForm({ ...valid, ...patch })).toEqual({ [field]: message });
  });

  it('allows the punctuation of SPEC section 5, accents and phone-keyboard quotes', () => {
    const text = `Won’t stick: "corners" lift (PETG), 0.2 mm; qué? [brim] a/b \\ c - d_e! Überhang, naïve`;
    expect(validateTroubleshootForm({ ...valid, description: text })).toEqual({});
  });

  it('counts characters, not UTF-16 units, like the server', () => {
    expect(validateTroubleshootForm({ ...valid, description: 'ü'.repeat(2000) })).toEqual({});
    expect(validateTroubleshootForm({ ...valid, description: 'ab'.repeat(4) })).toHaveProperty('description');
  });

  it('accepts the range ends', () => {
    expect(
      validateTroubleshootForm({ ...valid, nozzleTemp: '0', bedTemp: '200', layerHeight: '0.05', printSpeed: '300', infill: '100' }),
    ).toEqual({});
    expect(validateTroubleshootForm({ ...valid, layerHeight: '1' })).toEqual({});
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
