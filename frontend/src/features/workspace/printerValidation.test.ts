import { describe, expect, test } from 'vitest';
import {
  deleteConfirmText,
  EMPTY_PRINTER,
  formatNozzle,
  inlinePrinterMissing,
  printerPayload,
  validatePrinter,
  type PrinterFormValues,
} from './printerValidation';

const valid: PrinterFormValues = { ...EMPTY_PRINTER, name: 'Workshop Ender', brand: 'Creality Ender-3 V2', nozzleSize: 0.4, buildVolume: '220×220×250' };

describe('validatePrinter', () => {
  test('accepts a valid printer and an empty build volume', () => {
    expect(validatePrinter(valid)).toEqual({});
    expect(validatePrinter({ ...valid, buildVolume: '' })).toEqual({});
    expect(validatePrinter({ ...valid, buildVolume: '220 x 220 x 250' })).toEqual({});
  });

  test.each([
    [{ name: '  ' }, 'name', 'Printer name is required'],
    [{ name: 'a'.repeat(101) }, 'name', 'Printer name must be less than 100 characters'],
    [{ name: 'Ender\u200b3' }, 'name', 'Printer name contains invalid characters: an invisible formatting character (U+200B). Remove it and try again.'],
    [{ brand: '' }, 'brand', 'Brand is required'],
    [{ brand: 'b'.repeat(101) }, 'brand', 'Brand must be less than 100 characters'],
    [{ brand: 'Prusa\u0007MK4' }, 'brand', 'Brand contains invalid characters: a control character (U+0007). Remove it and try again.'],
    [{ buildVolume: '1'.repeat(51) }, 'buildVolume', 'Build volume must be less than 50 characters'],
    [{ buildVolume: '220\n220' }, 'buildVolume', 'Build volume contains invalid characters: a line break or tab (U+000A). Remove it and try again.'],
    [{ nozzleSize: 0.5 }, 'nozzleSize', 'Please choose a nozzle size'],
  ] as const)('%j -> %s: %s', (patch, field, message) => {
    expect(validatePrinter({ ...valid, ...patch })).toEqual({ [field]: message });
  });

  test('100 characters is still allowed', () => {
    expect(validatePrinter({ ...valid, name: 'a'.repeat(100), brand: 'b'.repeat(100) })).toEqual({});
  });

  test('the edit form asks for Brand/Model', () => {
    expect(validatePrinter({ ...valid, brand: ' ' }, 'edit').brand).toBe('Brand/Model is required');
  });

  test('defaults to a 0.4 mm nozzle', () => {
    expect(EMPTY_PRINTER.nozzleSize).toBe(0.4);
  });
});

test('printerPayload trims and sends no empty build volume', () => {
  expect(printerPayload({ ...EMPTY_PRINTER, name: ' A ', brand: ' B ', nozzleSize: 0.6, buildVolume: '  ' })).toEqual({
    name: 'A',
    brand: 'B',
    nozzleSize: 0.6,
    buildVolume: null,
    host: null,
  });
});

describe('printer host', () => {
  const moon = { ...valid, hostKind: 'moonraker' as const, hostUrl: ' http://192.168.1.20:7125 ' };
  test('a Moonraker host needs no key; the payload sends a new key only', () => {
    expect(validatePrinter(moon)).toEqual({});
    expect(printerPayload(moon).host).toEqual({ kind: 'moonraker', url: 'http://192.168.1.20:7125' });
    expect(printerPayload({ ...moon, hostKey: ' abc ' }).host).toEqual({ kind: 'moonraker', url: 'http://192.168.1.20:7125', apiKey: 'abc' });
  });
  test.each([
    [{ hostUrl: '' }, 'hostUrl', "Enter the host's address, such as http://192.168.1.20:7125"],
    [{ hostUrl: '192.168.1.20:7125' }, 'hostUrl', "The host's address must be an http:// or https:// address, such as http://192.168.1.20:7125"],
    [{ hostUrl: 'http://pi:raspberry@10.0.0.5' }, 'hostUrl', 'Leave the user name and password out of the address: put the API key in its own field'],
    [{ hostUrl: 'http://10.0.0.5/?a=1' }, 'hostUrl', "The host's address must not hold a query (?) or a fragment (#)"],
    [{ hostKey: 'ab cd' }, 'hostKey', 'The API key may hold only letters, digits and punctuation, without spaces'],
    [{ hostKind: 'octoprint' }, 'hostKey', 'OctoPrint needs an API key'],
    [{ hostKind: 'prusalink' }, 'hostKey', 'PrusaLink needs an API key'],
    [
      { hostKind: 'octoprint', hostHasKey: true, savedHost: { kind: 'octoprint', url: 'http://10.0.0.9' } },
      'hostKey',
      'Enter the API key again: a saved key is only sent to the host it was saved for',
    ],
  ] as const)('%o: %s', (patch, field, message) => {
    expect(validatePrinter({ ...moon, ...patch } as PrinterFormValues)).toEqual({ [field]: message });
  });
  test('a saved key stays for the same host', () => {
    const saved = { ...moon, hostKind: 'octoprint' as const, hostHasKey: true, savedHost: { kind: 'octoprint' as const, url: 'http://192.168.1.20:7125/' } };
    expect(validatePrinter(saved)).toEqual({});
  });
});

test('inline add needs both name and brand after trimming', () => {
  expect(inlinePrinterMissing('Ender', ' ')).toBe(true);
  expect(inlinePrinterMissing(' ', 'Creality')).toBe(true);
  expect(inlinePrinterMissing('Ender', 'Creality')).toBe(false);
});

test('delete confirmation text', () => {
  expect(deleteConfirmText('Workshop Ender')).toBe('Are you sure you want to delete "Workshop Ender"? This action cannot be undone.');
});

test('nozzle sizes read with one decimal', () => {
  expect(formatNozzle(1)).toBe('1.0 mm');
  expect(formatNozzle(0.4)).toBe('0.4 mm');
});
