import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { CONSENT_KEY, resetAnalyticsForTests } from '../analytics';
import { config } from '../config';
import { renderWithProviders } from '../test/render';
import { ConsentBanner } from './ConsentBanner';

afterEach(() => {
  config.gaMeasurementId = '';
  config.metaPixelId = '';
  localStorage.clear();
  resetAnalyticsForTests();
  delete window.gtag;
  delete window.dataLayer;
  document.head.querySelectorAll('script').forEach((s) => s.remove());
});

describe('analytics consent banner', () => {
  it('is not shown on a server without analytics', () => {
    renderWithProviders(<ConsentBanner />);
    expect(screen.queryByRole('region', { name: 'Analytics consent' })).not.toBeInTheDocument();
  });

  it('asks first; declining loads nothing and is remembered', async () => {
    config.gaMeasurementId = 'G-TEST';
    const view = renderWithProviders(<ConsentBanner />);
    const banner = screen.getByRole('region', { name: 'Analytics consent' });
    expect(document.head.querySelectorAll('script')).toHaveLength(0);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Decline' }));
    expect(banner).not.toBeInTheDocument();
    expect(localStorage.getItem(CONSENT_KEY)).toBe('denied');
    expect(document.head.querySelectorAll('script')).toHaveLength(0);
    view.unmount();
    renderWithProviders(<ConsentBanner />);
    expect(screen.queryByRole('region', { name: 'Analytics consent' })).not.toBeInTheDocument();
  });

  it('accepting loads analytics', async () => {
    config.gaMeasurementId = 'G-TEST';
    renderWithProviders(<ConsentBanner />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Accept' }));
    expect(localStorage.getItem(CONSENT_KEY)).toBe('granted');
    expect([...document.head.querySelectorAll('script')].map((s) => s.getAttribute('src'))).toContain(
      'https://www.googletagmanager.com/gtag/js?id=G-TEST',
    );
  });
});
