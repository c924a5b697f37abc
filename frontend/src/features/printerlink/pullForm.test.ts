import { describe, expect, test } from 'vitest';
import type { PullResult } from '../../api/client';
import { describeWithSummary, pulledSettings } from './pullForm';

const pulled: PullResult = {
  kind: 'moonraker',
  form: {
    category: 'heating-issues',
    material: 'PLA',
    nozzleTemp: 215,
    bedTemp: 60,
    layerHeight: 0.2,
    slicerSettings: { slicer: 'PrusaSlicer', nozzleDiameter: 0.4, firstLayerHeight: 0.2 },
  },
  attachments: [],
  summary: 'Last job benchy.gcode klippy shutdown; klippy.log: ADC out of range on mcu',
  notes: [],
};

describe('pulled form', () => {
  test('the host values become the settings a sliced file would give', () => {
    expect(pulledSettings(pulled)).toEqual({
      slicer: 'PrusaSlicer',
      nozzleDiameter: 0.4,
      firstLayerHeight: 0.2,
      material: 'PLA',
      nozzleTemp: 215,
      bedTemp: 60,
      layerHeight: 0.2,
    });
    expect(pulledSettings({ ...pulled, form: { slicerSettings: { slicer: 'Simplify3D' } } })).toEqual({ slicer: 'unknown' });
  });
  test('the summary joins the description once', () => {
    const once = describeWithSummary('', pulled.summary);
    expect(once).toBe(`What the printer says: ${pulled.summary}`);
    expect(describeWithSummary(once, pulled.summary)).toBe(once);
    expect(describeWithSummary('It stopped mid-print. ', pulled.summary)).toBe(`It stopped mid-print.\n\nWhat the printer says: ${pulled.summary}`);
  });
});
