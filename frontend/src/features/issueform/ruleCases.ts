// The shared rules as a table, for the tests of every form that applies them: a patch to a valid
// form, the one field it breaks, and the message it must show.
import type { IssueDetailsValues } from './validation';

export const SHARED_RULE_CASES: readonly [Partial<IssueDetailsValues>, keyof IssueDetailsValues, string][] = [
  [{ category: '' }, 'category', 'Please select an issue category'],
  [{ description: 'too short' }, 'description', 'Please provide a detailed description (at least 10 characters)'],
  [{ description: '   short    ' }, 'description', 'Please provide a detailed description (at least 10 characters)'],
  [{ description: 'a'.repeat(2001) }, 'description', 'Description must be less than 2000 characters'],
  [
    { description: 'Stringing \u202e everywhere' },
    'description',
    'Description contains invalid characters: an invisible formatting character (U+202E). Remove it and try again.',
  ],
  [{ material: 'P'.repeat(51) }, 'material', 'Material must be less than 50 characters'],
  [{ material: 'PLA\u0000' }, 'material', 'Material contains invalid characters: a control character (U+0000). Remove it and try again.'],
  [{ nozzleTemp: '501' }, 'nozzleTemp', 'Nozzle temperature must be between 0 and 500 °C'],
  [{ bedTemp: '-1' }, 'bedTemp', 'Bed temperature must be between 0 and 200 °C'],
  [{ layerHeight: '0.04' }, 'layerHeight', 'Layer height must be between 0.05 and 1 mm'],
  [{ printSpeed: '0' }, 'printSpeed', 'Print speed must be between 1 and 300 mm/s'],
  [{ infill: '101' }, 'infill', 'Infill must be between 0 and 100 %'],
  [{ infill: 'abc' }, 'infill', 'Infill must be between 0 and 100 %'],
];
