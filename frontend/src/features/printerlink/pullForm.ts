// Turns what a printer's host said (POST /api/printers/{id}/pull) into the issue form's values.
import type { PullResult } from '../../api/client';
import type { Slicer, SlicerSettings } from '../slicedfile/parse';

const SLICERS: readonly Slicer[] = ['PrusaSlicer', 'SuperSlicer', 'OrcaSlicer', 'Bambu Studio', 'Cura'];

/** The pulled values as the settings a sliced file gives, so the form fills them the same way. */
export function pulledSettings(r: PullResult): SlicerSettings {
  const s = r.form.slicerSettings ?? {};
  const out: SlicerSettings = { slicer: SLICERS.find((n) => n === s.slicer) ?? 'unknown' };
  for (const [k, v] of Object.entries(s)) {
    if (typeof v === 'number' && Number.isFinite(v)) (out as unknown as Record<string, number>)[k] = v;
  }
  if (r.form.material) out.material = r.form.material;
  for (const k of ['nozzleTemp', 'bedTemp', 'layerHeight', 'infill'] as const) {
    const v = r.form[k];
    if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
  }
  return out;
}

/** The description with what the printer says added once. */
export function describeWithSummary(description: string, summary: string): string {
  const line = `What the printer says: ${summary}`;
  const d = description.trim();
  if (!summary || d.includes(line)) return description;
  return d ? `${d}\n\n${line}` : line;
}
