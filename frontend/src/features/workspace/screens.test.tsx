import { screen, within } from '@testing-library/react';
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

beforeEach(() => {
  stubFetch({ '/api/printers': [printer], '/api/issues': issues, '/api/printers/stats': { printers: [] } });
});
afterEach(() => vi.unstubAllGlobals());

// MUI screens render slowly on a busy machine.
describe('workspace screens', { timeout: 30_000 }, () => {

test('dashboard: greeting, counts, three recent issues, upgrade card, delete confirmation', async () => {
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
