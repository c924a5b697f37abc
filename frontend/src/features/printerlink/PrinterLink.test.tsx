import { act, renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { testPrinter } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { PrinterDialog } from '../workspace/PrinterDialog';
import { useIssueForm } from '../issueform/useIssueForm';
import { EMPTY_DETAILS } from '../issueform/validation';
import { DiagnoseLastPrint } from './DiagnoseLastPrint';

const ue = userEvent.setup({ delay: null });
const linked = testPrinter({
  id: 7,
  name: 'Voron',
  brand: 'Voron 2.4',
  host: { kind: 'moonraker', url: 'http://192.168.1.20:7125', hasApiKey: true },
});

afterEach(() => vi.unstubAllGlobals());

describe('printer host settings', () => {
  test('a saved key shows as saved, stays empty and is kept by leaving it empty', async () => {
    const onSave = vi.fn();
    renderWithProviders(<PrinterDialog open printer={linked} saving={false} onClose={() => {}} onSave={onSave} />);
    expect(screen.getByText('Key saved: leave empty to keep it')).toBeInTheDocument();
    expect(screen.getByLabelText('API Key')).toHaveValue('');
    await ue.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ hostKind: 'moonraker', hostKey: '', hostHasKey: true }));
  });

  test('OctoPrint without a key is refused before sending', async () => {
    const onSave = vi.fn();
    renderWithProviders(<PrinterDialog open printer={null} saving={false} onClose={() => {}} onSave={onSave} />);
    await ue.type(screen.getByLabelText(/Printer Name/), 'Ender');
    await ue.type(screen.getByLabelText(/^Brand/), 'Creality');
    await ue.click(screen.getByLabelText('Printer Host'));
    await ue.click(screen.getByRole('option', { name: 'OctoPrint' }));
    await ue.type(screen.getByLabelText('Host Address'), 'http://octopi.local');
    await ue.click(screen.getByRole('button', { name: 'Add Printer' }));
    expect(await screen.findByText('OctoPrint needs an API key')).toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();
  });
});

describe('Diagnose the last print', () => {
  test('fills the form and shows what the printer says; an error shows the server message', async () => {
    const answers = [
      new Response(
        JSON.stringify({
          kind: 'moonraker',
          software: 'Klipper v0.12.0',
          form: { category: 'heating-issues', material: 'PLA', nozzleTemp: 215 },
          attachments: [{ name: 'klippy.log', text: 'Starting Klippy...\nMCU shutdown: ADC out of range\n' }],
          summary: 'klippy.log: ADC out of range on mcu',
          notes: ['klippy.log: its last 248 KB'],
        }),
        { status: 200, headers: { 'Content-Type': 'application/json' } },
      ),
      new Response('{"error":{"code":"PRINTER_LINK_OFF","message":"The printer link is off on this server: its operator has not enabled it."}}', {
        status: 403,
      }),
    ];
    const fetch = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => answers.shift()!);
    vi.stubGlobal('fetch', fetch);
    const { result } = renderHook(() => useIssueForm({ ...EMPTY_DETAILS }));
    const view = renderWithProviders(<DiagnoseLastPrint printer={linked} form={result.current} />);
    await ue.click(screen.getByRole('button', { name: 'Diagnose the last print' }));
    await screen.findByText('What the printer says');
    expect(String(fetch.mock.calls[0][0])).toMatch(/\/api\/printers\/7\/pull$/);
    await waitFor(() => expect(result.current.values.description).toBe('What the printer says: klippy.log: ADC out of range on mcu'));
    expect(result.current.values).toMatchObject({ category: 'heating-issues', material: 'PLA', nozzleTemp: '215' });
    expect(result.current.attachments.map((a) => a.name)).toEqual(['klippy.log']);
    expect(screen.getByText('klippy.log: its last 248 KB')).toBeInTheDocument();

    act(() => view.rerender(<DiagnoseLastPrint printer={linked} form={result.current} />));
    await ue.click(screen.getByRole('button', { name: 'Diagnose the last print' }));
    expect(await screen.findByText(/operator has not enabled it/)).toBeInTheDocument();
  });

  test('a printer without a host shows no button', () => {
    const { result } = renderHook(() => useIssueForm({ ...EMPTY_DETAILS }));
    renderWithProviders(<DiagnoseLastPrint printer={{ ...linked, host: null }} form={result.current} />);
    expect(screen.queryByRole('button', { name: 'Diagnose the last print' })).toBeNull();
  });
});
