// Printer form rules of Add/Edit Printer and the inline add on the issue form.
import { charsError } from '../issueform/chars';
import type { HostKind, PrinterInput } from '../../api/client';

export const NOZZLE_SIZES = [0.2, 0.4, 0.6, 0.8, 1.0] as const;
export const DEFAULT_NOZZLE_SIZE = 0.4;
export const NAME_MAX = 100;
export const BUILD_VOLUME_MAX = 50;


export interface PrinterFormValues {
  name: string;
  brand: string;
  nozzleSize: number;
  buildVolume: string;
  /** The printer's host: '' for none. */
  hostKind: HostKind | '';
  hostUrl: string;
  /** A new API key; empty keeps the saved one. */
  hostKey: string;
  /** The server has a key for the host as saved. */
  hostHasKey: boolean;
  /** The saved host's kind and address: a saved key is only kept for those. */
  savedHost?: { kind: HostKind; url: string } | null;
}

// Every field of the API's printer body (generated from the server's
// types) is a form value, or is named here as one the form leaves to the
// server: typecheck fails when a printer field is added to the API but not
// to the form. filamentDiameter keeps the server's default (1.75 mm); the
// host is edited through hostKind, hostUrl and hostKey.
type NotInPrinterForm = 'filamentDiameter' | 'host';
type PrinterFieldsMissingFromForm = Exclude<keyof PrinterInput, keyof PrinterFormValues | NotInPrinterForm>;
export const EVERY_PRINTER_FIELD_IN_FORM: [PrinterFieldsMissingFromForm] extends [never] ? true : PrinterFieldsMissingFromForm = true;

export const HOST_KINDS: readonly { kind: HostKind; label: string; port: string; keyHelp: string }[] = [
  { kind: 'moonraker', label: 'Moonraker (Klipper)', port: '7125', keyHelp: "Optional: needed only when this server is not among Moonraker's trusted_clients" },
  { kind: 'octoprint', label: 'OctoPrint', port: '80', keyHelp: 'OctoPrint: Settings › Application Keys (or Settings › API)' },
  { kind: 'prusalink', label: 'PrusaLink', port: '80', keyHelp: "PrusaLink's web page: Settings › API Key" },
];
export const HOST_URL_MAX = 300;
export const HOST_KEY_MAX = 256;

export type PrinterFieldErrors = Partial<Record<keyof PrinterFormValues, string>>;

export const EMPTY_PRINTER: PrinterFormValues = {
  name: '',
  brand: '',
  nozzleSize: DEFAULT_NOZZLE_SIZE,
  buildVolume: '',
  hostKind: '',
  hostUrl: '',
  hostKey: '',
  hostHasKey: false,
};

const origin = (u: string): string | null => {
  try {
    const url = new URL(u);
    return `${url.protocol}//${url.host}`.toLowerCase();
  } catch {
    return null;
  }
};

// A saved key stays only for the same kind of host at the same address (scheme, host and port).
function keepsSavedKey(v: PrinterFormValues): boolean {
  return v.hostHasKey && !!v.savedHost && v.savedHost.kind === v.hostKind && origin(v.savedHost.url) === origin(v.hostUrl.trim());
}

// hostErrors mirrors the server's rules for the host fields.
function hostErrors(v: PrinterFormValues, errors: PrinterFieldErrors) {
  if (!v.hostKind) return;
  const url = v.hostUrl.trim();
  let parsed: URL | null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!url) errors.hostUrl = "Enter the host's address, such as http://192.168.1.20:7125";
  else if (length(url) > HOST_URL_MAX) errors.hostUrl = "The host's address must be less than 300 characters";
  else if (!parsed || !/^https?:$/.test(parsed.protocol) || !/^https?:\/\/[^/]/i.test(url))
    errors.hostUrl = "The host's address must be an http:// or https:// address, such as http://192.168.1.20:7125";
  else if (parsed.username || parsed.password) errors.hostUrl = 'Leave the user name and password out of the address: put the API key in its own field';
  else if (/[?#]/.test(url)) errors.hostUrl = "The host's address must not hold a query (?) or a fragment (#)";
  const key = v.hostKey.trim();
  if (length(key) > HOST_KEY_MAX) errors.hostKey = 'The API key must be less than 256 characters';
  else if (/[^\x21-\x7e]/.test(key)) errors.hostKey = 'The API key may hold only letters, digits and punctuation, without spaces';
  else if (!key && v.hostHasKey && v.savedHost && !keepsSavedKey(v) && !errors.hostUrl)
    errors.hostKey = 'Enter the API key again: a saved key is only sent to the host it was saved for';
  else if (!key && !keepsSavedKey(v) && v.hostKind !== 'moonraker')
    errors.hostKey = `${v.hostKind === 'octoprint' ? 'OctoPrint' : 'PrusaLink'} needs an API key`;
}

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
  hostErrors(v, errors);
  return errors;
}

// printerPayload is the POST/PUT body of a valid form.
export function printerPayload(v: PrinterFormValues): PrinterInput {
  return {
    name: v.name.trim(),
    brand: v.brand.trim(),
    nozzleSize: v.nozzleSize,
    buildVolume: v.buildVolume.trim() || null,
    host: v.hostKind
      ? { kind: v.hostKind, url: v.hostUrl.trim(), ...(v.hostKey.trim() ? { apiKey: v.hostKey.trim() } : {}) }
      : null,
  };
}

// inlinePrinterMissing tells whether the issue form's inline Add New Printer lacks a name or brand.
export function inlinePrinterMissing(name: string, brand: string): boolean {
  return name.trim() === '' || brand.trim() === '';
}

// deleteConfirmText is the question asked before a printer is deleted.
export function deleteConfirmText(name: string): string {
  return `Are you sure you want to delete "${name}"? This action cannot be undone.`;
}

// formatNozzle shows a nozzle size with one decimal at least: 0.4 mm, 1.0 mm.
export function formatNozzle(size: number): string {
  return `${Number.isInteger(size) ? size.toFixed(1) : String(size)} mm`;
}
