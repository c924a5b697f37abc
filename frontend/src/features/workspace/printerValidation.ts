// Printer form rules of SPEC section 5 ("Printer (add and edit)" and "Inline add printer").
import { charsError } from '../issueform/chars';
import type { PrinterInput } from '../../api/client';

export const NOZZLE_SIZES = [0.2, 0.4, 0.6, 0.8, 1.0] as const;
export const DEFAULT_NOZZLE_SIZE = 0.4;
export const NAME_MAX = 100;
export const BUILD_VOLUME_MAX = 50;


export interface PrinterFormValues {
  name: string;
  brand: string;
  nozzleSize: number;
  buildVolume: string;
}

export type PrinterFieldErrors = Partial<Record<keyof PrinterFormValues, string>>;

export const EMPTY_PRINTER: PrinterFormValues = { name: '', brand: '', nozzleSize: DEFAULT_NOZZLE_SIZE, buildVolume: '' };

const length = (s: string) => [...s].length;

// validatePrinter checks the Add Printer ('add') or Edit Printer ('edit') form. The edit form
// names the brand field 'Brand/Model' in its required message.
export function validatePrinter(v: PrinterFormValues, mode: 'add' | 'edit' = 'add'): PrinterFieldErrors {
  const errors: PrinterFieldErrors = {};
  const name = v.name.trim();
  if (!name) errors.name = 'Printer name is required';
  else if (length(name) > NAME_MAX) errors.name = 'Printer name must be less than 100 characters';
  else if (charsError('Printer name', name)) errors.name = charsError('Printer name', name)!;

  const brand = v.brand.trim();
  if (!brand) errors.brand = mode === 'edit' ? 'Brand/Model is required' : 'Brand is required';
  else if (length(brand) > NAME_MAX) errors.brand = 'Brand must be less than 100 characters';
  else if (charsError('Brand', brand)) errors.brand = charsError('Brand', brand)!;

  const volume = v.buildVolume.trim();
  if (length(volume) > BUILD_VOLUME_MAX) errors.buildVolume = 'Build volume must be less than 50 characters';
  else if (charsError('Build volume', volume)) errors.buildVolume = charsError('Build volume', volume)!;

  if (!NOZZLE_SIZES.some((n) => n === v.nozzleSize)) errors.nozzleSize = 'Please choose a nozzle size';
  return errors;
}

// printerPayload is the POST/PUT body of a valid form.
export function printerPayload(v: PrinterFormValues): PrinterInput {
  return {
    name: v.name.trim(),
    brand: v.brand.trim(),
    nozzleSize: v.nozzleSize,
    buildVolume: v.buildVolume.trim() || null,
  };
}

// inlinePrinterMissing tells whether the issue form's inline Add New Printer lacks a name or brand.
export function inlinePrinterMissing(name: string, brand: string): boolean {
  return name.trim() === '' || brand.trim() === '';
}

// deleteConfirmText is the delete confirmation of SPEC section 8.
export function deleteConfirmText(name: string): string {
  return `Are you sure you want to delete "${name}"? This action cannot be undone.`;
}

// formatNozzle shows a nozzle size with one decimal at least: 0.4 mm, 1.0 mm.
export function formatNozzle(size: number): string {
  return `${Number.isInteger(size) ? size.toFixed(1) : String(size)} mm`;
}
