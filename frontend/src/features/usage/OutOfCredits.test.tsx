import { configure, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { config } from '../../config';
import { renderWithProviders, stubFetch } from '../../test/render';
import type { AuthState } from '../../auth/useAuth';
import { OutOfCredits } from './OutOfCredits';

const auth = vi.hoisted(() => ({ state: null as unknown as AuthState }));
vi.mock('../../auth/useAuth', () => ({ useAuth: () => auth.state }));

function signIn(tier: string, used: number) {
  auth.state = {
    user: { id: 1, firebaseUid: null, email: 'a@b.c', displayName: 'Ada', subscriptionStatus: 'active', subscriptionTier: tier, monthlyUsage: used, usageResetsAt: '2026-08-01T00:00:00Z' },
    firebaseUser: null,
    loading: false,
    token: 't',
    signOut: async () => {},
    refreshUser: async () => {},
  };
}

vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 8000 });

beforeEach(() => {
  stubFetch({ '/api/usage-limits': { free: { name: 'Free', limit: 3 }, pro: { name: 'Pro', limit: 50 }, farm: { name: 'Print Farm', limit: 175 } } });
});
afterEach(() => {
  vi.unstubAllGlobals();
  config.operatorName = '';
  config.contactEmail = '';
});

// The report form says there is no credit left before the maker types a description.
describe('OutOfCredits', () => {
  it('says nothing while credits remain', async () => {
    signIn('pro', 49);
    renderWithProviders(<OutOfCredits />);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('limit-reached-alert')).not.toBeInTheDocument();
  });

  it('at 0 credits says when they return and offers an upgrade', async () => {
    signIn('pro', 50);
    renderWithProviders(<OutOfCredits />);
    const alert = await screen.findByTestId('limit-reached-alert');
    expect(alert).toHaveTextContent('All 50 credits of your Pro plan are used this month, so no new analysis can run until they reset. Your credits reset on August 1.');
    expect(screen.getByRole('link', { name: 'Upgrade Now' })).toHaveAttribute('href', '/subscribe');
  });

  it('a Print Farm at 0 is given the reset date and the operator, not an upgrade', async () => {
    config.operatorName = 'Ada Prints';
    config.contactEmail = 'ops@example.com';
    signIn('farm', 175);
    renderWithProviders(<OutOfCredits />);
    const alert = await screen.findByTestId('limit-reached-alert');
    expect(alert).toHaveTextContent('Your credits reset on August 1.');
    expect(alert).toHaveTextContent('Ask Ada Prints, who runs this server,');
    expect(screen.getByRole('link', { name: 'ops@example.com' })).toHaveAttribute('href', 'mailto:ops@example.com');
    expect(screen.queryByRole('link', { name: 'Upgrade Now' })).not.toBeInTheDocument();
    expect(alert).not.toHaveTextContent(/LAYERFIX_/);
  });
});
