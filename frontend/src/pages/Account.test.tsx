import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { FinishSignOut } from '../auth/leaveSignedIn';
import { AuthActionsContext, AuthContext, signedOutState, type AuthActions } from '../auth/context';
import type { AccountBackend, AuthState } from '../auth/types';
import { renderWithProviders } from '../test/render';
import Account from './Account';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function setup({ account = {}, subscription = { hasSubscription: false, tier: 'free' } }: { account?: Partial<AccountBackend>; subscription?: object } = {}) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      calls.push(`${init.method ?? 'GET'} ${url} ${init.body ?? ''}`.trim());
      if (url.endsWith('/api/subscription')) return json(subscription);
      if (url.endsWith('/api/user/profile')) return json({ id: 7, email: 'ada@example.com', displayName: 'Grace Hopper' });
      return json({ error: { code: 'NOT_FOUND', message: 'not found' } }, 404);
    }),
  );
  const backend: AccountBackend = {
    signInMethods: () => ({ password: true, google: false }),
    setDisplayName: vi.fn(async () => {}),
    changePassword: vi.fn(async () => 'Your password was changed.'),
    changeEmail: vi.fn(async (email: string) => ({ email, pending: true, message: `We sent a confirmation link to ${email}.` })),
    deleteAccount: vi.fn(async () => ({ deleted: true, subscriptionCanceled: true, identityDeleted: false, message: 'Your account and everything in it were deleted.' })),
    ...account,
  };
  const actions: AuthActions = {
    mode: 'local',
    signIn: vi.fn(),
    signUp: vi.fn(),
    sendPasswordReset: vi.fn(),
    account: backend,
    // The sign-out waits for / to be on screen: signed out earlier, this screen's guard would send
    // the maker to /login.
    accountDeleted: vi.fn(async () => {
      expect(screen.queryByText('home screen')).toBeInTheDocument();
    }),
    verifyEmail: vi.fn(),
    updatePassword: vi.fn(),
  };
  const auth: AuthState = {
    ...signedOutState,
    user: { id: 7, firebaseUid: null, email: 'ada@example.com', displayName: 'Ada Lovelace', emailVerified: true },
    refreshUser: vi.fn(async () => {}),
  };
  renderWithProviders(
    <AuthActionsContext.Provider value={actions}>
      <AuthContext.Provider value={auth}>
        <Routes>
          <Route path="/account" element={<Account />} />
          <Route path="/" element={<div>home screen</div>} />
        </Routes>
        <FinishSignOut />
      </AuthContext.Provider>
    </AuthActionsContext.Provider>,
    { path: '/account' },
  );
  return { calls, backend, actions, auth };
}

const section = (id: string) => within(screen.getByTestId(id));
const fill = (id: string, label: string, value: string) =>
  fireEvent.change(section(id).getByLabelText(label), { target: { value } });

afterEach(() => vi.unstubAllGlobals());

describe('/account', { timeout: 20_000 }, () => {
  it('saves the display name in the provider, then on the server, then reloads the profile', async () => {
    const { calls, backend, auth } = setup();
    expect(screen.getByRole('heading', { name: 'Your Account', level: 1 })).toBeInTheDocument();
    fill('account-profile', 'Display Name', '  Grace Hopper ');
    fireEvent.click(section('account-profile').getByRole('button', { name: 'Save Name' }));
    await section('account-profile').findByText('Your display name was saved.');
    expect(backend.setDisplayName).toHaveBeenCalledWith('Grace Hopper');
    expect(calls).toContain('PATCH /api/user/profile {"displayName":"Grace Hopper"}');
    expect(auth.refreshUser).toHaveBeenCalled();
  });

  it('checks the new password before asking anyone, and shows the server refusal on its field', async () => {
    const refused = { error: { code: 'wrong-password', message: 'Incorrect password', fields: { currentPassword: 'Incorrect password' } } };
    const { backend } = setup({
      account: {
        changePassword: vi.fn(async () => {
          throw new ApiError(400, 'Bad Request', JSON.stringify(refused));
        }),
      },
    });
    fill('account-password', 'Current Password', 'old-secret');
    fill('account-password', 'New Password', 'new-secret');
    fill('account-password', 'Confirm New Password', 'other-secret');
    fireEvent.click(section('account-password').getByRole('button', { name: 'Change Password' }));
    expect(await section('account-password').findByText("Passwords don't match")).toBeInTheDocument();
    expect(backend.changePassword).not.toHaveBeenCalled();
    fill('account-password', 'Confirm New Password', 'new-secret');
    fireEvent.click(section('account-password').getByRole('button', { name: 'Change Password' }));
    expect(await section('account-password').findByText('Incorrect password')).toBeInTheDocument();
    expect(backend.changePassword).toHaveBeenCalledWith('old-secret', 'new-secret');
  });

  it('names the subscription that is canceled first, deletes, and signs out at /', async () => {
    const { backend, actions } = setup({ subscription: { hasSubscription: true, tier: 'pro' } });
    expect(await screen.findByTestId('delete-subscription-note')).toHaveTextContent('Your Pro subscription is canceled first');
    fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = within(await screen.findByRole('dialog'));
    fireEvent.click(dialog.getByRole('button', { name: 'Delete Account' }));
    expect(await dialog.findByText('Enter your password to delete your account.')).toBeInTheDocument();
    expect(backend.deleteAccount).not.toHaveBeenCalled();
    fireEvent.change(dialog.getByLabelText('Password'), { target: { value: 'old-secret' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Delete Account' }));
    await screen.findByText('home screen');
    expect(backend.deleteAccount).toHaveBeenCalledWith('old-secret');
    await waitFor(() => expect(actions.accountDeleted).toHaveBeenCalled());
    await expect(vi.mocked(actions.accountDeleted).mock.results[0].value).resolves.toBeUndefined();
    expect(await screen.findByText('Your account and everything in it were deleted.')).toBeInTheDocument();
  });

  it('a Google account has no password to change and confirms a deletion with Google', async () => {
    setup({ account: { signInMethods: () => ({ password: false, google: true }) } });
    expect(section('account-password').getByText(/no Layerfix password/)).toBeInTheDocument();
    expect(section('account-email').queryByLabelText('New Email')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText(/Google asks you to sign in again/)).toBeInTheDocument();
    expect(dialog.queryByLabelText('Password')).not.toBeInTheDocument();
  });
});
