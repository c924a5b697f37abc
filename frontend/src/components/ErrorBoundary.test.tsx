import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../App';
import { ErrorBoundary } from './ErrorBoundary';
import { renderWithProviders } from '../test/render';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('not-found screen', () => {
  it('shows 404 Page Not Found and the router hint for an unknown route', async () => {
    renderWithProviders(<AppRoutes />, { path: '/no/such/page' });
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText(/forget to add the page to the router/)).toBeInTheDocument();
  });

  it('does not show for a known route', async () => {
    renderWithProviders(<AppRoutes />, { path: '/terms-of-service' });
    expect(await screen.findByRole('heading', { name: 'Terms of Service', level: 1 })).toBeInTheDocument();
    expect(screen.queryByText('404 Page Not Found')).not.toBeInTheDocument();
  });
});

describe('error boundary', () => {
  it('shows the error screen and recovers with Try Again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = true;
    function Flaky() {
      if (fail) throw new Error('render failed');
      return <p>content is back</p>;
    }
    renderWithProviders(
      <ErrorBoundary>
        <Flaky />
      </ErrorBoundary>,
    );
    expect(screen.getByText('Something went wrong')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh Page' })).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByText('content is back')).toBeInTheDocument();
    expect(screen.queryByText('Something went wrong')).not.toBeInTheDocument();
  });

  it('says the connection is gone when the browser is offline', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    function Broken(): never {
      throw new TypeError('Failed to fetch dynamically imported module');
    }
    renderWithProviders(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByText('No internet connection. Please check your connection and try again.')).toBeInTheDocument();
  });
});
