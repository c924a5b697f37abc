import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { config } from '../config';
import Pricing from './Pricing';
import { renderWithProviders, stubFetch } from '../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
  config.billingEnabled = false;
  config.contactEmail = '';
});

describe('public pricing page', () => {
  it('renders the four plans from /api/pricing and /api/usage-limits', async () => {
    const fetch = stubFetch({
      '/api/pricing': [
        { tier: 'free', amount: 0 },
        { tier: 'hobby', amount: 4.49 },
        { tier: 'pro', amount: 7.99 },
        { tier: 'farm', amount: 19.99 },
      ],
      '/api/usage-limits': {
        free: { name: 'Free', limit: 3 },
        hobby: { name: 'Hobby', limit: 25 },
        pro: { name: 'Pro', limit: 50 },
        farm: { name: 'Print Farm', limit: 175 },
      },
    });
    renderWithProviders(<Pricing />, { path: '/pricing' });

    const hobby = await screen.findByTestId('plan-hobby');
    await waitFor(() => expect(within(hobby).getByTestId('plan-price')).toHaveTextContent('$4.49'));
    expect(within(hobby).getByTestId('plan-limit')).toHaveTextContent('25 issues per month');
    expect(within(hobby).getByText('Popular')).toBeInTheDocument();

    const farm = screen.getByTestId('plan-farm');
    expect(within(farm).getByText('Print Farm')).toBeInTheDocument();
    expect(within(farm).getByTestId('plan-limit')).toHaveTextContent('175 issues per month');
    expect(screen.queryByText('Coming Soon')).not.toBeInTheDocument();
    expect(within(farm).getByText(/Narrow-it-down questions/)).toBeInTheDocument();
    expect(within(screen.getByTestId('plan-free')).getByText(/Narrow-it-down questions/)).toBeInTheDocument();
    expect(within(screen.getByTestId('plan-free')).queryByText('Popular')).not.toBeInTheDocument();

    const buttons = screen.getAllByRole('link', { name: 'Get Started Free' });
    expect(buttons).toHaveLength(4);
    expect(buttons[0]).toHaveAttribute('href', '/login?mode=signup');
    const urls = fetch.mock.calls.map((c) => String(c[0]));
    expect(urls).toEqual(expect.arrayContaining(['/api/pricing', '/api/usage-limits']));
  });

  it('says billing is off before anyone clicks, with the operator contact when set', async () => {
    stubFetch({});
    config.contactEmail = 'ops@example.com';
    renderWithProviders(<Pricing />, { path: '/pricing' });
    const notice = await screen.findByTestId('billing-off-notice');
    expect(notice).toHaveTextContent('Billing is not enabled on this server');
    expect(within(notice).getByRole('link', { name: 'ops@example.com' })).toHaveAttribute('href', 'mailto:ops@example.com');
  });

  it('says nothing about billing when it is on', async () => {
    stubFetch({});
    config.billingEnabled = true;
    renderWithProviders(<Pricing />, { path: '/pricing' });
    await screen.findByTestId('plan-pro');
    expect(screen.queryByTestId('billing-off-notice')).not.toBeInTheDocument();
  });

  it('shows the fallback prices when the calls fail', async () => {
    stubFetch({});
    renderWithProviders(<Pricing />, { path: '/pricing' });
    const pro = await screen.findByTestId('plan-pro');
    await waitFor(() => expect(within(pro).getByTestId('plan-price')).toHaveTextContent('$7.99'));
    expect(within(pro).getByTestId('plan-limit')).toHaveTextContent('3 issues per month');
  });
});
