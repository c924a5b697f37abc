import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubFetch } from '../../test/render';
import { testIssue } from '../../test/fixtures';
import { issueDetails } from '../workspace/savedIssue';
import { AttachmentList } from './AttachmentList';

afterEach(() => vi.unstubAllGlobals());

describe('attached files of an analysis', { timeout: 15_000 }, () => {
  it('names a saved issue opened from a list and opens its text from the server', async () => {
    const saved = testIssue({
      id: 7,
      attachmentCount: 2,
      attachments: [
        { name: 'klippy.log', kind: 'klippy-log', label: 'Klipper log', bytes: 2048 },
        { name: 'M503.txt', kind: 'marlin-m503', label: 'Marlin M503 settings', bytes: 95 },
      ],
    });
    const fetch = stubFetch({ '/api/issues/7': saved });
    // From a list the issue knows only its count.
    renderWithProviders(<AttachmentList issue={issueDetails({ ...saved, attachments: undefined })} />);
    const list = await screen.findByTestId('issue-attachments');
    await within(list).findByText('klippy.log');
    expect(list).toHaveTextContent('Klipper log · 2 KB');
    expect(list).toHaveTextContent('Marlin M503 settings · 95 B');

    fetch.mockImplementation(async () => new Response('echo:  M301 P21.73 I1.54 D76.55\n', { status: 200, headers: { 'Content-Type': 'text/plain' } }));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Open M503.txt' }));
    const dialog = await screen.findByRole('dialog', { name: /M503\.txt/ });
    await within(dialog).findByText(/M301 P21\.73/);
    expect(String(fetch.mock.calls.at(-1)?.[0])).toMatch(/\/api\/issues\/7\/attachments\/1$/);
    expect(within(dialog).getByRole('button', { name: 'Download' })).toBeEnabled();
  });

  it('shows an anonymous analysis its own files without asking the server', async () => {
    const fetch = stubFetch({});
    renderWithProviders(
      <AttachmentList
        issue={{ category: 'heating-issues', description: 'x', attachments: [{ name: 'serial.log', text: 'Recv: Error:Thermal Runaway\n' }] }}
      />,
    );
    expect(screen.getByTestId('issue-attachments')).toHaveTextContent('serial.log');
    expect(screen.getByTestId('issue-attachments')).toHaveTextContent('Marlin serial log · 28 B');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Open serial.log' }));
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveTextContent('Thermal Runaway'));
    expect(fetch).not.toHaveBeenCalled();
  });
});
