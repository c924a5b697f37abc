import { configure, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubFetch } from '../../test/render';
import type { AuthState } from '../../auth/useAuth';
import { UsageBadge } from './UsageBadge';
import { UsageCard } from './UsageCard';

const auth = vi.hoisted(() => ({ state: null as unknown as AuthState }));
vi.mock('../../auth/useAuth', () => ({ useAuth: () => auth.state }));

const LIMITS = {
  free: { name: 'Free', limit: 3 },
  hobby: { name: 'Hobby', limit: 20 },
  pro: { name: 'Pro', limit: 50 },
  farm: { name: 'Print Farm', limit: 175 },
};

function signIn(fields: Partial<AuthState['user'] & object>, loading = false) {
  auth.state = {
    user: { id: 1, firebaseUid: null, email: 'a@b.c', displayName: 'Ada', ...fields },
    firebaseUser: null,
    loading,
    token: 't',
    signOut: async () => {},
    refreshUser: async () => {},
  };
}

// Rendering MUI screens in jsdom is slow on a busy machine.
vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 8000 });

beforeEach(() => {
  stubFetch({ '/api/usage-limits': LIMITS });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('UsageCard', () => {
  it('shows a skeleton while the user loads', () => {
    auth.state = { ...auth.state, user: null, loading: true };
    renderWithProviders(<UsageCard />);
    expect(screen.getByTestId('usage-card-loading')).toBeInTheDocument();
    expect(screen.queryByText('AI Troubleshooting Sessions')).not.toBeInTheDocument();
  });

  it('shows a fresh free account as 0 of 3 credits', async () => {
    signIn({ subscriptionStatus: 'inactive', subscriptionTier: 'free', monthlyUsage: 0 });
    renderWithProviders(<UsageCard />);
    expect(await screen.findByText('0 of 3 credits')).toBeInTheDocument();
    expect(screen.getByText('AI Troubleshooting Sessions')).toBeInTheDocument();
    expect(screen.getByText('Used this month')).toBeInTheDocument();
    expect(screen.getByTestId('usage-remaining')).toHaveTextContent('3 credits remaining');
    expect(screen.getByTestId('usage-remaining')).toHaveAttribute('data-color', 'success');
    expect(screen.getByTestId('usage-bar')).toHaveAttribute('data-color', 'info');
    expect(screen.queryByRole('link', { name: 'Get More' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Manage Subscription' })).toHaveAttribute('href', '/subscribe');
  });

  it('warns a free user with 1 left and offers Get More', async () => {
    signIn({ subscriptionStatus: 'inactive', subscriptionTier: 'free', monthlyUsage: 2 });
    renderWithProviders(<UsageCard />);
    expect(await screen.findByText('Running low on sessions')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Get More' })).toHaveAttribute('href', '/subscribe');
    expect(screen.getByTestId('usage-remaining')).toHaveTextContent('1 credit remaining');
    expect(screen.getByTestId('usage-remaining')).toHaveAttribute('data-color', 'warning');
    expect(screen.queryByText("You've reached your limit")).not.toBeInTheDocument();
  });

  it('shows the limit reached with Upgrade Now and the reset date', async () => {
    signIn({ subscriptionStatus: 'inactive', subscriptionTier: 'free', monthlyUsage: 3, usageResetsAt: '2026-08-01T00:00:00Z' });
    renderWithProviders(<UsageCard />);
    expect(await screen.findByText("You've reached your limit")).toBeInTheDocument();
    expect(screen.getByText('Your credits reset on August 1.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade Now' })).toHaveAttribute('href', '/subscribe');
    expect(screen.getByTestId('usage-bar')).toHaveAttribute('data-color', 'error');
    expect(screen.getByTestId('usage-remaining')).toHaveAttribute('data-color', 'error');
    expect(screen.queryByText('Running low on sessions')).not.toBeInTheDocument();
  });

  it('tells a Print Farm at its limit when credits reset and what to do instead of upgrading', async () => {
    signIn({ subscriptionStatus: 'active', subscriptionTier: 'farm', monthlyUsage: 175, usageResetsAt: '2026-08-01T00:00:00Z' });
    renderWithProviders(<UsageCard />);
    expect(await screen.findByText("You've reached your limit")).toBeInTheDocument();
    expect(screen.getByText('Your credits reset on August 1.', { exact: false })).toBeInTheDocument();
    expect(screen.getByTestId('top-tier-note')).toHaveTextContent(/no higher tier.*operator of this server/);
    expect(screen.getByTestId('top-tier-note')).not.toHaveTextContent(/LAYERFIX_|TIER_LIMITS/);
    expect(screen.queryByRole('link', { name: 'Upgrade Now' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Consider upgrading to a higher tier/)).not.toBeInTheDocument();
  });

  it('uses the paid limit while active, with the upgrade hint at 5 left', async () => {
    signIn({ subscriptionStatus: 'active', subscriptionTier: 'pro', monthlyUsage: 45 });
    renderWithProviders(<UsageCard />);
    expect(await screen.findByText('45 of 50 credits')).toBeInTheDocument();
    expect(screen.getByText('Need more sessions? Consider upgrading to a higher tier.')).toBeInTheDocument();
    expect(screen.getByTestId('usage-bar')).toHaveAttribute('data-color', 'error');
    expect(screen.getByTestId('usage-plan')).toHaveTextContent('Pro plan');
    expect(screen.queryByRole('link', { name: 'Get More' })).not.toBeInTheDocument();
  });

  it('counts an inactive paid tier as free', async () => {
    signIn({ subscriptionStatus: 'canceled', subscriptionTier: 'pro', monthlyUsage: 1 });
    renderWithProviders(<UsageCard />);
    expect(await screen.findByText('1 of 3 credits')).toBeInTheDocument();
  });
});

describe('UsageBadge', () => {
  it('shows {used}/{limit} credits used', async () => {
    signIn({ subscriptionStatus: 'active', subscriptionTier: 'hobby', monthlyUsage: 7 });
    renderWithProviders(<UsageBadge />);
    expect(await screen.findByTestId('usage-badge')).toHaveTextContent('7/20 credits used');
  });

  it('shows a skeleton while loading', () => {
    auth.state = { ...auth.state, user: null, loading: true };
    renderWithProviders(<UsageBadge />);
    expect(screen.getByTestId('usage-badge-loading')).toBeInTheDocument();
  });
});
