import { act, renderHook } from '@testing-library/react';
import type { SlicerSettings } from '../slicedfile/parse';
import { useIssueForm } from './useIssueForm';
import { EMPTY_DETAILS, type IssueDetailsValues } from './validation';

type Values = IssueDetailsValues & { printerModel: string };
const EMPTY: Values = { ...EMPTY_DETAILS, printerModel: '' };

const first: SlicerSettings = { slicer: 'PrusaSlicer', printerModel: 'Prusa MK4', material: 'PETG', nozzleTemp: 240, bedTemp: 85, infill: 20, printSpeed: 120 };
const second: SlicerSettings = { slicer: 'Cura', printerModel: 'Creality Ender 3', nozzleTemp: 210, layerHeight: 0.2 };

describe('applySlicer', () => {
  it("replaces what a restored draft's file filled in when another file is imported, and keeps the maker's edits", () => {
    const restored = {
      // The first file filled these; the maker then changed the bed temperature and wrote a description.
      values: { ...EMPTY, description: 'Stringing between towers', printerModel: 'Prusa MK4', material: 'PETG', nozzleTemp: '240', bedTemp: '90', infill: '20', printSpeed: '120' },
      slicer: first,
      attachments: [],
    };
    const { result } = renderHook(() => useIssueForm<Values>(EMPTY, null, restored));
    act(() => result.current.applySlicer(second, 'printerModel'));
    expect(result.current.values).toEqual({
      ...EMPTY,
      description: 'Stringing between towers',
      printerModel: 'Creality Ender 3',
      material: '',
      nozzleTemp: '210',
      bedTemp: '90',
      layerHeight: '0.2',
      infill: '',
      printSpeed: '',
    });
    expect(result.current.slicer).toEqual(second);
  });

  it('replaces what the previous import of this form filled in', () => {
    const { result } = renderHook(() => useIssueForm<Values>(EMPTY));
    act(() => result.current.set('printerModel')('My Voron'));
    act(() => result.current.applySlicer(first, 'printerModel'));
    expect(result.current.values).toMatchObject({ printerModel: 'My Voron', infill: '20', material: 'PETG' });
    act(() => result.current.applySlicer(second, 'printerModel'));
    expect(result.current.values).toMatchObject({ printerModel: 'My Voron', nozzleTemp: '210', infill: '', material: '', bedTemp: '' });
  });
});
