import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthState } from '../../auth/useAuth';
import { config } from '../../config';
import { renderWithProviders } from '../../test/render';
import SubscribeScreen from './SubscribeScreen';

const h = vi.hoisted(() => ({
  state: null as unknown as AuthState,
  refreshUser: vi.fn(async () => {}),
  addToCart: vi.fn(() => ''),
  purchase: vi.fn(() => ''),
  outcome: null as unknown,
}));
vi.mock('../../auth/useAuth', () => ({ useAuth: () => h.state }));
vi.mock('../../analytics', () => ({
  trackAddToCart: h.addToCart,
  trackPurchase: h.purchase,
  trackViewContent: () => '',
}));
// The Stripe step itself needs Stripe.js; here it reports a chosen outcome.
vi.mock('./PaymentStep', () => ({
  default: ({ clientSecret, onOutcome }: { clientSecret: string; onOutcome: (o: unknown) => void }) => (
    <button type="button" onClick={() => onOutcome(h.outcome)}>
      pay {clientSecret}
    </button>
  ),
}));

const LIMITS = {
  free: { name: 'Free', limit: 3 },
  hobby: { name: 'Hobby', limit: 20 },
  pro: { name: 'Pro', limit: 50 },
  farm: { name: 'Print Farm', limit: 175 },
};

type Answer = { status?: number; body: unknown };
let answers: Record<string, Answer>;
let calls: { method: string; path: string; body: unknown }[];

function stubApi(extra: Record<string, Answer>) {
  answers = {
    'GET /api/usage-limits': { body: LIMITS },
    'GET /api/pricing': { body: [{ tier: 'hobby', amount: 3.99 }, { tier: 'pro', amount: 7.99 }, { tier: 'farm', amount: 19.99 }] },
    ...extra,
  };
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input).replace(/^https?:\/\/[^/]+/, '');
      const method = init?.method ?? 'GET';
      calls.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const a = answers[`${method} ${path}`];
      if (!a) return new Response('{"error":{"code":"NOT_FOUND","message":"not found"}}', { status: 404 });
      return new Response(JSON.stringify(a.body), { status: a.status ?? 200 });
    }),
  );
}

function signIn(tier: string, status: string, extra: Record<string, unknown> = {}) {
  h.state = {
    user: { id: 1, firebaseUid: null, email: 'a@b.c', displayName: 'Ada', subscriptionTier: tier, subscriptionStatus: status, monthlyUsage: 1, ...extra },
    firebaseUser: null,
    loading: false,
    token: 't',
    signOut: async () => {},
    refreshUser: h.refreshUser,
  };
}

function renderScreen(path = '/subscribe') {
  return renderWithProviders(
    <Routes>
      <Route path="/subscribe" element={<SubscribeScreen />} />
      <Route path="/dashboard" element={<p>DASHBOARD</p>} />
    </Routes>,
    { path },
  );
}

const posts = () => calls.filter((c) => c.method === 'POST');

// Rendering MUI screens in jsdom is slow on a busy machine.
vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 8000 });

beforeEach(() => {
  config.billingEnabled = true;
  h.refreshUser.mockClear();
  h.addToCart.mockClear();
  h.purchase.mockClear();
});
afterEach(() => {
  config.billingEnabled = false;
  vi.unstubAllGlobals();
});

describe('plans', () => {
  it('shows the four plans with the current one marked', async () => {
    stubApi({});
    signIn('pro', 'active');
    renderScreen();
    const pro = await screen.findByTestId('subscribe-pro');
    expect(pro).toHaveAttribute('data-current', 'true');
    expect(within(pro).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
    expect(screen.queryByText('Coming Soon')).not.toBeInTheDocument();
    expect(within(screen.getByTestId('subscribe-hobby')).getByText('Popular')).toBeInTheDocument();
    expect(screen.getByTestId('subscribe-free')).not.toHaveAttribute('data-current');
    expect(screen.getByRole('button', { name: 'Switch to Hobby' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Switch to Free' })).toBeEnabled();
  });

  it('marks Free for a subscription that is not active', async () => {
    stubApi({});
    signIn('pro', 'past_due');
    renderScreen();
    expect(await screen.findByTestId('subscribe-free')).toHaveAttribute('data-current', 'true');
    expect(screen.getByRole('button', { name: 'Choose Pro' })).toBeInTheDocument();
  });
});

describe('billing off', () => {
  it('explains billing is off without calling the server', async () => {
    config.billingEnabled = false;
    stubApi({});
    signIn('free', 'inactive');
    renderScreen();
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Hobby' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Billing is not enabled on this server')).toBeInTheDocument();
    expect(within(dialog).getByText(/operator can grant plans/)).toBeInTheDocument();
    expect(posts()).toEqual([]);
    expect(h.addToCart).toHaveBeenCalledWith(3.99, 'USD', expect.objectContaining({ content_ids: ['hobby'] }));
  });

  it('explains billing is off on a 503 BILLING_DISABLED', async () => {
    stubApi({
      'POST /api/create-subscription': { status: 503, body: { error: { code: 'BILLING_DISABLED', message: 'off' } } },
    });
    signIn('free', 'inactive');
    renderScreen();
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Pro' }));
    expect(await screen.findByText('Billing is not enabled on this server')).toBeInTheDocument();
    expect(posts()).toEqual([{ method: 'POST', path: '/api/create-subscription', body: { tier: 'pro' } }]);
  });
});

describe('subscribing', () => {
  it("shows the server's error message when create fails", async () => {
    stubApi({
      'POST /api/create-subscription': { status: 502, body: { error: { code: 'PROVIDER_UNAVAILABLE', message: 'Payments are unavailable right now.' } } },
    });
    signIn('free', 'inactive');
    renderScreen();
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Pro' }));
    expect(await screen.findByTestId('toast')).toHaveTextContent('Payments are unavailable right now.');
  });

  it("falls back to 'Failed to create subscription'", async () => {
    stubApi({ 'POST /api/create-subscription': { status: 500, body: '' } });
    signIn('free', 'inactive');
    renderScreen();
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Pro' }));
    expect(await screen.findByTestId('toast')).toHaveTextContent('Failed to create subscription');
  });

  it('opens the payment step, then goes to the dashboard on success', async () => {
    stubApi({ 'POST /api/create-subscription': { body: { clientSecret: 'seti_1_secret_x' } } });
    signIn('free', 'inactive');
    h.outcome = { kind: 'done' };
    renderScreen();
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Hobby' }));
    await userEvent.click(await screen.findByRole('button', { name: 'pay seti_1_secret_x' }));
    expect(await screen.findByText('DASHBOARD')).toBeInTheDocument();
    expect(screen.getByTestId('toast')).toHaveTextContent('Subscription Active');
    expect(h.purchase).toHaveBeenCalledWith(3.99, 'USD', expect.objectContaining({ content_ids: ['hobby'] }));
    expect(h.refreshUser).toHaveBeenCalled();
  });

  it('stays on the payment step when the payment fails', async () => {
    stubApi({ 'POST /api/create-subscription': { body: { clientSecret: 'seti_2' } } });
    signIn('free', 'inactive');
    h.outcome = { kind: 'failed', message: 'Your card was declined.' };
    renderScreen();
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Pro' }));
    await userEvent.click(await screen.findByRole('button', { name: 'pay seti_2' }));
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('Payment Failed');
    expect(toast).toHaveTextContent('Your card was declined.');
    expect(screen.getByRole('button', { name: 'pay seti_2' })).toBeInTheDocument();
    expect(h.purchase).not.toHaveBeenCalled();
  });

  it("says 'Setup Complete, Finalizing...' and goes to the dashboard", async () => {
    stubApi({ 'POST /api/create-subscription': { body: { clientSecret: 'seti_3' } } });
    signIn('free', 'inactive');
    h.outcome = { kind: 'finalizing' };
    renderScreen();
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Pro' }));
    await userEvent.click(await screen.findByRole('button', { name: 'pay seti_3' }));
    expect(await screen.findByText('DASHBOARD')).toBeInTheDocument();
    expect(screen.getByTestId('toast')).toHaveTextContent('Setup Complete, Finalizing...');
  });

  it('completes a redirected SetupIntent on return', async () => {
    stubApi({ 'POST /api/complete-subscription': { body: { status: 'active', tier: 'pro' } } });
    signIn('free', 'inactive');
    renderScreen('/subscribe?tier=pro&setup_intent=seti_9&redirect_status=succeeded');
    expect(await screen.findByText('DASHBOARD')).toBeInTheDocument();
    expect(posts()).toEqual([{ method: 'POST', path: '/api/complete-subscription', body: { setupIntentId: 'seti_9' } }]);
  });
});

describe('changing and cancelling', () => {
  it('changes the plan after confirmation and shows the server message', async () => {
    stubApi({ 'POST /api/change-subscription': { body: { message: 'Your plan is now Print Farm.' } } });
    signIn('pro', 'active');
    renderScreen();
    await userEvent.click(await screen.findByRole('button', { name: 'Switch to Print Farm' }));
    expect(posts()).toEqual([]);
    await userEvent.click(await screen.findByRole('button', { name: 'Switch Plan' }));
    expect(await screen.findByTestId('toast')).toHaveTextContent('Your plan is now Print Farm.');
    expect(posts()).toEqual([{ method: 'POST', path: '/api/change-subscription', body: { newTier: 'farm' } }]);
    expect(h.refreshUser).toHaveBeenCalled();
  });

  it('shows the change failure text', async () => {
    stubApi({ 'POST /api/change-subscription': { status: 502, body: { error: { code: 'X', message: 'down' } } } });
    signIn('pro', 'active');
    renderScreen();
    await userEvent.click(await screen.findByRole('button', { name: 'Switch to Hobby' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Switch Plan' }));
    expect(await screen.findByTestId('toast')).toHaveTextContent('Failed to change subscription plan. Please try again.');
  });

  it('cancels at the period end the server names', async () => {
    stubApi({
      'GET /api/subscription': {
        body: { billingEnabled: true, tier: 'hobby', status: 'active', effectiveTier: 'hobby', hasSubscription: true, currentPeriodEnd: '2026-09-03T10:00:00Z', cancelAtPeriodEnd: false },
      },
      'POST /api/cancel-subscription': { body: { currentPeriodEnd: '2026-09-03T10:00:00Z' } },
    });
    signIn('hobby', 'active');
    renderScreen();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel Subscription' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Your Hobby plan stays active until September 3, 2026.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel Subscription' }));
    expect(await screen.findByTestId('toast')).toHaveTextContent('Your Hobby plan stays active until September 3, 2026.');
    expect(posts()).toEqual([{ method: 'POST', path: '/api/cancel-subscription', body: undefined }]);
  });

  it('shows the cancel failure text', async () => {
    stubApi({ 'POST /api/cancel-subscription': { status: 500, body: '' } });
    signIn('hobby', 'active');
    renderScreen();
    await userEvent.click(await screen.findByRole('button', { name: 'Switch to Free' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel Subscription' }));
    await waitFor(() => expect(screen.getByTestId('toast')).toHaveTextContent('Failed to cancel subscription. Please try again.'));
  });

  it('shows the scheduled end instead of a second cancel', async () => {
    stubApi({
      'GET /api/subscription': {
        body: { billingEnabled: true, tier: 'pro', status: 'active', effectiveTier: 'pro', hasSubscription: true, currentPeriodEnd: '2026-09-03T10:00:00Z', cancelAtPeriodEnd: true },
      },
    });
    signIn('pro', 'active');
    renderScreen();
    expect(await screen.findByRole('button', { name: 'Free from September 3, 2026' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).not.toBeInTheDocument();
    expect(screen.getByText(/Your Pro plan stays active until September 3, 2026/)).toBeInTheDocument();
  });

  it('treats a plan granted by the operator as something to buy, not to change', async () => {
    stubApi({
      'GET /api/subscription': {
        body: { billingEnabled: true, tier: 'pro', status: 'active', effectiveTier: 'pro', hasSubscription: false, currentPeriodEnd: null, cancelAtPeriodEnd: false },
      },
      'POST /api/create-subscription': { body: { clientSecret: 'seti_g' } },
    });
    signIn('pro', 'active');
    renderScreen();
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Print Farm' }));
    expect(await screen.findByRole('button', { name: 'pay seti_g' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).not.toBeInTheDocument();
  });
});
