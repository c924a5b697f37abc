import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppLayout } from '../components/AppLayout';
import { renderWithProviders, stubFetch } from '../test/render';
import { AuthContext, signedOutState } from './context';
import { ProtectedRoute } from './ProtectedRoute';
import type { AppUser, AuthState } from './types';

const ada: AppUser = {
  id: 7,
  firebaseUid: null,
  email: 'ada@example.com',
  displayName: 'Ada Lovelace',
  subscriptionStatus: 'inactive',
  subscriptionTier: 'free',
  monthlyUsage: 1,
};
const signedIn = (over: Partial<AuthState> = {}): AuthState => ({
  ...signedOutState,
  user: ada,
  firebaseUser: { uid: '7' },
  token: 'tok',
  ...over,
});

function renderApp(path: string, auth: AuthState) {
  return renderWithProviders(
    <AuthContext.Provider value={auth}>
      <AppLayout>
        <Routes>
          <Route path="/" element={<div>home screen</div>} />
          <Route path="/login" element={<div>login screen</div>} />
          <Route
            path="/dashboard"
            element={
              <ProtectedRoute>
                <div>dashboard screen</div>
              </ProtectedRoute>
            }
          />
        </Routes>
      </AppLayout>
    </AuthContext.Provider>,
    { path },
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('route guard', { timeout: 20_000 }, () => {
  it("shows 'Loading...' while authentication loads", () => {
    renderApp('/dashboard', { ...signedOutState, loading: true });
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(screen.queryByText('dashboard screen')).not.toBeInTheDocument();
  });

  it('sends a visitor without a user to /login', () => {
    renderApp('/dashboard', signedOutState);
    expect(screen.getByText('login screen')).toBeInTheDocument();
  });

  it("shows 'Loading user data...' when the identity exists but the profile does not", () => {
    renderApp('/dashboard', signedIn({ user: null }));
    expect(screen.getByRole('status')).toHaveTextContent('Loading user data...');
  });

  it('shows the screen to a signed-in user', () => {
    stubFetch({ '/api/usage-limits': { free: { name: 'Free', limit: 3 } } });
    renderApp('/dashboard', signedIn());
    expect(screen.getByText('dashboard screen')).toBeInTheDocument();
  });
});

describe('signed-in navigation', { timeout: 20_000 }, () => {
  it('links Dashboard, Issues and New Issue; the logo goes to /dashboard; the badge shows usage', async () => {
    stubFetch({ '/api/usage-limits': { free: { name: 'Free', limit: 3 } } });
    renderApp('/dashboard', signedIn());
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Issues' })).toHaveAttribute('href', '/issues');
    expect(screen.getAllByRole('link', { name: 'New Issue' })[0]).toHaveAttribute('href', '/report-issue');
    expect(screen.getByRole('link', { name: 'Layerfix home' })).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByRole('link', { name: 'Sign In' })).not.toBeInTheDocument();
    expect(await screen.findByText('1/3 credits used')).toBeInTheDocument();
  });

  it('the avatar menu shows initials, name, email, Account, Subscription and signs out to /', async () => {
    stubFetch({ '/api/usage-limits': {} });
    const signOut = vi.fn(async () => {});
    renderApp('/dashboard', signedIn({ signOut }));
    const user = userEvent.setup();
    const avatarButton = screen.getByRole('button', { name: 'Account menu' });
    expect(avatarButton).toHaveTextContent('AL');
    await user.click(avatarButton);
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByTestId('user-name')).toHaveTextContent('Ada Lovelace');
    expect(within(menu).getByTestId('user-email')).toHaveTextContent('ada@example.com');
    expect(within(menu).getByRole('menuitem', { name: 'Account' })).toHaveAttribute('href', '/account');
    expect(within(menu).getByRole('menuitem', { name: 'Subscription' })).toHaveAttribute('href', '/subscribe');
    await user.click(within(menu).getByRole('menuitem', { name: 'Sign Out' }));
    expect(await screen.findByText('home screen')).toBeInTheDocument();
    await waitFor(() => expect(signOut).toHaveBeenCalledTimes(1));
  });

  it('the mobile drawer names a user without a display name by the email prefix', async () => {
    stubFetch({ '/api/usage-limits': {} });
    renderApp('/dashboard', signedIn({ user: { ...ada, displayName: '' } }));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const drawer = await screen.findByTestId('drawer-user');
    expect(within(drawer).getByTestId('user-name')).toHaveTextContent('ada');
    expect(within(drawer).getByText('A')).toBeInTheDocument();
    const mobileNav = screen.getByRole('navigation', { name: 'Mobile' });
    expect(within(mobileNav).getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/account');
    expect(within(mobileNav).getByRole('link', { name: 'Subscription' })).toHaveAttribute('href', '/subscribe');
  });
});
