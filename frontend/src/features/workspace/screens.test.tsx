import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

const ue = userEvent.setup({ delay: null });
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { testIssue } from '../../test/fixtures';
import { renderWithProviders, stubFetch } from '../../test/render';
import Dashboard from '../../pages/Dashboard';
import Issues from '../../pages/Issues';
import { ResolveDialog } from './SavedIssueActions';

const user = { id: 1, firebaseUid: null, email: 'ada@example.com', displayName: 'Ada Lovelace', subscriptionStatus: 'inactive' };
vi.mock('../../auth/useAuth', () => ({
  useAuth: () => ({ user, firebaseUser: null, loading: false, token: 't', signOut: vi.fn(), refreshUser: vi.fn() }),
}));
vi.mock('../usage/UsageCard', () => ({ UsageCard: () => <div>usage card</div> }));

const printer = { id: 3, name: 'Workshop Ender', brand: 'Creality', nozzleSize: 0.4, buildVolume: '220×220×250' };
const base = { category: 'stringing', aiChecklist: { summary: 's', steps: [], additionalTips: [] } };
const issues = [
  testIssue({ ...base, id: 1, printerId: 3, status: 'pending', description: 'Strings between towers', createdAt: '2025-03-01T10:00:00Z', printer }),
  testIssue({ ...base, id: 2, printerId: 3, status: 'in-progress', description: 'More strings', createdAt: '2025-03-05T10:00:00Z', printer }),
  testIssue({
    ...base,
    id: 3,
    printerId: null,
    status: 'resolved',
    description: 'Warped corners',
    createdAt: '2025-03-09T10:00:00Z',
    resolvedAt: '2025-03-10T10:00:00Z',
    workingRecommendations: ['Use a brim'],
    printer: null,
  }),
  testIssue({ ...base, id: 4, printerId: 3, status: 'resolved', description: 'Blobs', createdAt: '2025-03-11T10:00:00Z', printer }),
];

// A small stand-in for the server's issue pages and summary: it filters by status and printer
// name as GET /api/issues does, newest first, and counts by status.
function stubIssueApi() {
  const other = stubFetch({ '/api/printers': [printer], '/api/printers/stats': { printers: [] } });
  const newestFirst = [...issues].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  const fn = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://test');
    if (url.pathname === '/api/issues/summary') {
      const count = (st: string) => issues.filter((i) => i.status === st).length;
      return json({ total: issues.length, pending: count('pending'), inProgress: count('in-progress'), resolved: count('resolved'),
        open: issues.length - count('resolved'), recent: newestFirst.slice(0, 5) });
    }
    if (url.pathname === '/api/issues') {
      const status = url.searchParams.get('status');
      const printerName = url.searchParams.get('printer');
      const items = newestFirst.filter(
        (i) =>
          (!status || (status === 'open' ? i.status !== 'resolved' : i.status === status)) &&
          (!printerName || (i.printer?.name ?? 'Unknown Printer') === printerName),
      );
      return json({ items, nextCursor: null, total: items.length });
    }
    return other(input);
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

beforeEach(() => {
  stubIssueApi();
});
afterEach(() => vi.unstubAllGlobals());

// MUI screens render slowly on a busy machine.
describe('workspace screens', { timeout: 30_000 }, () => {

test('dashboard: greeting, counts, three recent issues, upgrade card, delete confirmation', async () => {
  localStorage.setItem('layerfix.welcomed.1', '1'); // not this account's first dashboard here
  renderWithProviders(<Dashboard />);
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Welcome back, Ada!');
  expect(await screen.findByText('Workshop Ender', {}, { timeout: 5000 })).toBeInTheDocument();
  expect(await screen.findByTestId('stat-Printers')).toHaveTextContent('1');
  expect(await screen.findAllByTestId('recent-issue')).toHaveLength(3);
  // Open work counts new (pending) issues too: one pending, one in progress.
  expect(screen.getByTestId('stat-Open')).toHaveTextContent('2');
  expect(screen.getByTestId('stat-Open-note')).toHaveTextContent('1 in progress');
  expect(screen.getByTestId('stat-Resolved')).toHaveTextContent('2');
  expect(screen.queryByText('Strings between towers')).not.toBeInTheDocument(); // the oldest is not recent
  expect(screen.getByText(/Unknown Printer/)).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'View Plans' })).toHaveAttribute('href', '/subscribe');

  await ue.click(screen.getByRole('button', { name: 'Edit Workshop Ender' }));
  const dialog = await screen.findByRole('dialog', { name: 'Edit Printer' });
  expect(within(dialog).getByLabelText(/Printer Name/)).toHaveValue('Workshop Ender');
  await ue.click(within(dialog).getByRole('button', { name: 'Delete' }));
  expect(
    await screen.findByText('Are you sure you want to delete "Workshop Ender"? This action cannot be undone.'),
  ).toBeInTheDocument();
});

test('issues: a long log comes a page at a time with Show More', async () => {
  const other = stubIssueApi();
  const many = Array.from({ length: 60 }, (_, n) =>
    testIssue({ ...base, id: 100 + n, printerId: 3, status: 'pending', description: `Issue ${n}`, createdAt: new Date(Date.UTC(2025, 0, 1) - n * 86400000).toISOString(), printer }),
  );
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  const seen: string[] = [];
  vi.stubGlobal('fetch', vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://test');
    if (url.pathname === '/api/issues/summary') return json({ total: 60, pending: 60, inProgress: 0, resolved: 0, open: 60, recent: [] });
    if (url.pathname === '/api/issues') {
      seen.push(url.search);
      const second = url.searchParams.get('cursor') === 'c2';
      return json({ items: second ? many.slice(50) : many.slice(0, 50), nextCursor: second ? null : 'c2', total: 60 });
    }
    return other(input);
  }));
  renderWithProviders(<Issues />);
  expect(await screen.findAllByTestId('issue-card', {}, { timeout: 5000 })).toHaveLength(50);
  // Text, not role, queries: working out every accessible name of 50 cards takes jsdom seconds.
  const more = screen.getByText('Show More (50 of 60)');
  expect(more.closest('button')).toBeEnabled();
  await ue.click(more);
  await waitFor(() => expect(screen.getAllByTestId('issue-card')).toHaveLength(60));
  expect(screen.queryByText(/Show More/)).not.toBeInTheDocument();
  expect(seen).toContain('?limit=50&cursor=c2');
});

test('issues: filters show "Showing X of Y issues" and the working solutions', async () => {
  renderWithProviders(<Issues />);
  expect(await screen.findAllByTestId('issue-card', {}, { timeout: 5000 })).toHaveLength(4);
  expect(screen.getByText('Unknown Printer (Unknown Brand)')).toBeInTheDocument();
  expect(screen.queryByTestId('filter-count')).not.toBeInTheDocument();

  await ue.click(screen.getByRole('combobox', { name: 'Status' }));
  await ue.click(await screen.findByRole('option', { name: 'Resolved' }));
  expect(screen.getAllByTestId('issue-card')).toHaveLength(2);
  expect(screen.getByTestId('filter-count')).toHaveTextContent('Showing 2 of 4 issues');
  expect(screen.getByText('Use a brim')).toBeInTheDocument();

  await ue.click(screen.getByRole('button', { name: 'Clear Filters' }));
  expect(screen.getAllByTestId('issue-card')).toHaveLength(4);
});

test('issues: the error card', async () => {
  stubFetch({});
  renderWithProviders(<Issues />);
  expect(await screen.findByText('Failed to Load Issues')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
});

test('resolve dialog preselects the ticked steps and sends the chosen titles', async () => {
  const steps = ['Level the bed', 'Dry the filament', 'Use a brim'].map((title) => ({ title, description: '', priority: 'high' as const }));
  const onResolve = vi.fn();
  renderWithProviders(<ResolveDialog steps={steps} checked={[0, 2]} saving={false} onCancel={() => {}} onResolve={onResolve} />);
  expect(screen.getByRole('checkbox', { name: 'Level the bed' })).toBeChecked();
  expect(screen.getByRole('checkbox', { name: 'Dry the filament' })).not.toBeChecked();
  expect(screen.getByRole('checkbox', { name: 'Use a brim' })).toBeChecked();

  await ue.click(screen.getByRole('checkbox', { name: 'Dry the filament' }));
  await ue.type(screen.getByLabelText(/Resolution Notes/), '  Brim fixed it  ');
  await ue.click(screen.getByRole('button', { name: 'Mark as Resolved' }));
  expect(onResolve).toHaveBeenCalledWith(['Level the bed', 'Dry the filament', 'Use a brim'], '  Brim fixed it  ');
});
});
