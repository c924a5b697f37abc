import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { trackLoginAttempt, trackLoginFailure, trackSignUp } from '../analytics';
import { scrubAddressBar } from '../addressBar';
import { ApiError, setAuthToken } from '../api/client';
import { AuthProvider } from '../auth/AuthProvider';
import { ACCOUNT_DISABLED_MESSAGE } from '../auth/errors';
import { createLocalBackend, SESSION_STORAGE_KEY } from '../auth/localBackend';
import { localPasswordUpdate, localVerifyEmail } from '../auth/localApi';
import { AuthActionsContext, AuthContext, signedOutState, type AuthActions } from '../auth/context';
import { ProtectedRoute } from '../auth/ProtectedRoute';
import { SIGNED_OUT_ERROR } from '../features/troubleshoot/errors';
import type { AuthState } from '../auth/types';
import { config } from '../config';
import { renderWithProviders } from '../test/render';
import Login, { REDIRECT_DELAY_MS, SIGNUP_TOAST_TEXT, SIGNUP_TOAST_TITLE, loginModeOf } from './Login';

vi.mock('../analytics', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../analytics')>()),
  trackLoginAttempt: vi.fn(),
  trackLoginSuccess: vi.fn(),
  trackLoginFailure: vi.fn(),
  trackSignUp: vi.fn(() => ''),
}));

function fakeActions(overrides: Partial<AuthActions> = {}): AuthActions {
  return {
    mode: 'local',
    signIn: vi.fn(async () => {}),
    signUp: vi.fn(async () => ({ verificationSent: true })),
    sendPasswordReset: vi.fn(async () => {}),
    accountDeleted: vi.fn(async () => {}),
    verifyEmail: localVerifyEmail,
    updatePassword: localPasswordUpdate,
    ...overrides,
  };
}

function renderLogin(path: string, actions: AuthActions = fakeActions(), auth: AuthState = signedOutState) {
  renderWithProviders(
    <AuthActionsContext.Provider value={actions}>
      <AuthContext.Provider value={auth}>
        <Routes>
          <Route path="/login" element={<Login />} />
          <Route path="/dashboard" element={<div>dashboard screen</div>} />
        </Routes>
      </AuthContext.Provider>
    </AuthActionsContext.Provider>,
    { path },
  );
  return { actions, user: userEvent.setup() };
}

// MUI appends ' *' to the labels of required fields.
const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}[\\s*]*$`)) as HTMLInputElement;
const fill = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });

describe('/login', { timeout: 20_000 }, () => {
  it('signs in with the spec texts; Google only when the provider has it', () => {
    renderLogin('/login');
    expect(screen.getByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
    expect(field('Email')).toHaveAttribute('type', 'email');
    expect(field('Email')).toBeRequired();
    expect(field('Password')).toBeRequired();
    expect(screen.getByRole('button', { name: 'Forgot password?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: "Don't have an account? Sign up" })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue with Google' })).not.toBeInTheDocument();
  });

  it('shows Continue with Google in Firebase mode', () => {
    renderLogin('/login', fakeActions({ mode: 'firebase', signInWithGoogle: vi.fn(async () => ({ isNewUser: false })) }));
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeInTheDocument();
  });

  it('starts in sign-up mode with mode=signup', () => {
    renderLogin('/login?mode=signup');
    expect(screen.getByRole('heading', { name: 'Create Account' })).toBeInTheDocument();
    expect(field('Display Name')).toBeInTheDocument();
    expect(field('Confirm Password')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Already have an account? Sign in' })).toBeInTheDocument();
  });

  it('toggling modes clears the fields and the error', async () => {
    const signIn = vi.fn(async () => {
      throw new ApiError(401, 'Unauthorized', '{"error":{"code":"invalid-credential","message":"x"}}');
    });
    const { user } = renderLogin('/login', fakeActions({ signIn }));
    fill('Email', 'ada@example.com');
    fill('Password', 'wrong-pass');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByTestId('auth-error')).toHaveTextContent('Incorrect email or password');
    expect(signIn).toHaveBeenCalledWith('ada@example.com', 'wrong-pass');
    expect(trackLoginAttempt).toHaveBeenCalledWith('email');
    expect(trackLoginFailure).toHaveBeenCalledWith('email', 'invalid-credential');

    await user.click(screen.getByRole('button', { name: "Don't have an account? Sign up" }));
    expect(screen.getByRole('heading', { name: 'Create Account' })).toBeInTheDocument();
    expect(screen.queryByTestId('auth-error')).not.toBeInTheDocument();
    expect(field('Email').value).toBe('');
    expect(field('Password').value).toBe('');

    fill('Email', 'x@example.com');
    await user.click(screen.getByRole('button', { name: 'Already have an account? Sign in' }));
    expect(field('Email').value).toBe('');
  });

  it.each([
    ['secret1', 'secret2', 'Ada', "Passwords don't match"],
    ['abc12', 'abc12', 'Ada', 'Password must be at least 6 characters'],
    ['abc123', 'abc123', '  ', 'Please enter your display name'],
  ])('validates sign-up (%s / %s / %j)', async (password, confirm, name, message) => {
    const { user, actions } = renderLogin('/login?mode=signup');
    fill('Display Name', name);
    fill('Email', 'ada@example.com');
    fill('Password', password);
    fill('Confirm Password', confirm);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByTestId('auth-error')).toHaveTextContent(message);
    expect(actions.signUp).not.toHaveBeenCalled();
  });

  it('after sign-up shows the toast and the verify notice, then goes to /dashboard after 1 s', async () => {
    const { user, actions } = renderLogin('/login?mode=signup');
    fill('Display Name', ' Ada Lovelace ');
    fill('Email', 'ada@example.com');
    fill('Password', 'secret1');
    fill('Confirm Password', 'secret1');
    const started = Date.now();
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(actions.signUp).toHaveBeenCalledWith('ada@example.com', 'secret1', 'Ada Lovelace');
    expect(trackSignUp).toHaveBeenCalledWith('email');
    expect(await screen.findByText(SIGNUP_TOAST_TITLE)).toBeInTheDocument();
    expect(screen.getByText(SIGNUP_TOAST_TEXT)).toBeInTheDocument();
    expect(screen.getByTestId('auth-success')).toHaveTextContent('check your email to verify');
    expect(screen.queryByText('dashboard screen')).not.toBeInTheDocument();
    await screen.findByText('dashboard screen', {}, { timeout: 3000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(REDIRECT_DELAY_MS - 50);
  });

  it('a new account that inherits the month\'s anonymous analyses is told what happened and when credits return', async () => {
    const actions = fakeActions({
      signUp: vi.fn(async () => ({
        verificationSent: false,
        transferred: 3,
        user: { id: 9, firebaseUid: null, email: 'ada@example.com', displayName: 'Ada', monthlyUsage: 3, monthlyLimit: 3, usageResetsAt: '2026-12-01T00:00:00Z' },
      })),
    });
    const { user } = renderLogin('/login?mode=signup', actions);
    fill('Display Name', 'Ada');
    fill('Email', 'ada@example.com');
    fill('Password', 'secret1');
    fill('Confirm Password', 'secret1');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText(SIGNUP_TOAST_TITLE)).toBeInTheDocument();
    expect(
      screen.getByText(
        "The 3 free analyses already used from this network this month count toward your account, so this month's 3 free credits are used up. New credits arrive on December 1; until then your account keeps your printers and issue log.",
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/right away/)).not.toBeInTheDocument();
  });

  it('sends an already signed-in visitor to /dashboard at once', () => {
    const auth: AuthState = {
      ...signedOutState,
      user: { id: 1, firebaseUid: null, email: 'a@b.co', displayName: 'A' },
    };
    renderLogin('/login', fakeActions(), auth);
    expect(screen.getByText('dashboard screen')).toBeInTheDocument();
  });

  it('reset mode: requires an email, then shows success, disables the button and toasts', async () => {
    const actions = fakeActions({ mode: 'firebase' });
    const { user } = renderLogin('/login?mode=reset', actions);
    expect(screen.getByRole('button', { name: 'Back to Sign In' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send Reset Email' }));
    expect(await screen.findByTestId('auth-error')).toHaveTextContent('Please enter your email address');
    expect(actions.sendPasswordReset).not.toHaveBeenCalled();

    fill('Email', 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Reset Email' }));
    expect(await screen.findByText('Password Reset Email Sent')).toBeInTheDocument();
    expect(screen.getByTestId('auth-success')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send Reset Email' })).toBeDisabled();
    expect(actions.sendPasswordReset).toHaveBeenCalledWith('ada@example.com');
  });

  it('reset mode of a local server without email tells who can reset the password', () => {
    renderLogin('/login?mode=reset');
    expect(screen.getByTestId('operator-reset')).toHaveTextContent('layerfix user reset-password');
    expect(screen.queryByRole('button', { name: 'Send Reset Email' })).not.toBeInTheDocument();
  });

  it('reads the mode of local reset and verification links', () => {
    const p = (q: string) => new URLSearchParams(q);
    expect(loginModeOf(p('mode=reset&oobCode=abc'), true)).toBe('new-password');
    expect(loginModeOf(p('mode=verify&oobCode=abc'), true)).toBe('verify');
    expect(loginModeOf(p('mode=reset&oobCode=abc'), false)).toBe('reset');
    expect(loginModeOf(p('mode=verify'), true)).toBe('signin');
    expect(loginModeOf(p('mode=signup'), false)).toBe('signup');
    // Firebase's action links.
    expect(loginModeOf(p('mode=resetPassword&oobCode=abc'), false)).toBe('new-password');
    expect(loginModeOf(p('mode=verifyEmail&oobCode=abc'), false)).toBe('verify');
    expect(loginModeOf(p('mode=resetPassword&oobCode=abc'), true)).toBe('signin');
  });

  it("a Firebase reset link sets the new password through the identity provider", async () => {
    const updatePassword = vi.fn(async () => ({ message: '' }));
    const { user } = renderLogin('/login?mode=resetPassword&oobCode=fb-1&apiKey=k', fakeActions({ mode: 'firebase', updatePassword }));
    fill('New Password', 'newpass1');
    fill('Confirm Password', 'newpass1');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
    expect(screen.getByTestId('auth-success')).toHaveTextContent('Your password was changed. Please sign in.');
    expect(updatePassword).toHaveBeenCalledWith('fb-1', 'newpass1');
  });

  it('a Firebase verification link verifies the email through the identity provider', async () => {
    const verifyEmail = vi.fn(async () => ({ message: '' }));
    renderLogin('/login?mode=verifyEmail&oobCode=fb-2', fakeActions({ mode: 'firebase', verifyEmail }));
    await waitFor(() => expect(screen.getByTestId('auth-success')).toHaveTextContent('Your email is verified.'));
    expect(verifyEmail).toHaveBeenCalledWith('fb-2');
  });

  it('a verification link opened while the session is still restoring offers no sign-in form', async () => {
    const verifyEmail = vi.fn(async () => ({ message: '' }));
    renderLogin('/login?mode=verifyEmail&oobCode=fb-3', fakeActions({ mode: 'firebase', verifyEmail }), { ...signedOutState, loading: true });
    await waitFor(() => expect(screen.getByTestId('auth-success')).toHaveTextContent('Your email is verified.'));
    expect(screen.queryByRole('button', { name: 'Sign In' })).not.toBeInTheDocument();
  });

  // The code comes in the address (an in-app visit) or, as a real link does, left the address bar
  // before the app started.
  it.each([
    ['in the address', '/login?mode=reset&oobCode=code-1', () => {}],
    [
      'taken out of the address bar at start',
      '/login',
      () => {
        window.history.replaceState(null, '', '/login?mode=reset&oobCode=code-1');
        scrubAddressBar();
        expect(window.location.search).toBe('');
      },
    ],
  ])('a local reset link (code %s) sets a new password, then asks to sign in', async (_, path, arrive) => {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push(`${url} ${String(init.body)}`);
        return new Response('{"message":"Your password was changed. Please sign in."}', { status: 200 });
      }),
    );
    try {
      arrive();
      const { user } = renderLogin(path);
      expect(screen.getByRole('heading', { name: 'Choose a New Password' })).toBeInTheDocument();
      fill('New Password', 'newpass1');
      fill('Confirm Password', 'newpass1');
      await user.click(screen.getByRole('button', { name: 'Update Password' }));
      expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
      expect(screen.getByTestId('auth-success')).toHaveTextContent('Your password was changed. Please sign in.');
      expect(calls).toEqual(['/api/auth/password-update {"oobCode":"code-1","password":"newpass1"}']);
    } finally {
      vi.unstubAllGlobals();
      window.history.replaceState(null, '', '/');
    }
  });

  it('a local verification link verifies the email once', async () => {
    const fetchMock = vi.fn(async () => new Response('{"message":"Your email is verified."}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    try {
      renderLogin('/login?mode=verify&oobCode=v-1');
      await waitFor(() => expect(screen.getByTestId('auth-success')).toHaveTextContent('Your email is verified.'));
      expect(fetchMock).toHaveBeenCalledTimes(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('a disabled account', { timeout: 20_000 }, () => {
  const jsonAnswer = (body: unknown, status: number) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

  it.each([
    ['disabled (403 account-disabled)', 403, 'account-disabled', ACCOUNT_DISABLED_MESSAGE, /MuiAlert-.*[Ee]rror/],
    ['whose session ended (401)', 401, 'UNAUTHENTICATED', SIGNED_OUT_ERROR, /MuiAlert-.*[Ww]arning/],
  ])('a signed-in maker %s is signed out and the sign-in screen says why', async (_, status, code, notice, severity) => {
    setAuthToken(null);
    sessionStorage.clear();
    localStorage.setItem(
      SESSION_STORAGE_KEY,
      JSON.stringify({ token: 'local-tok', expiresAt: Date.now() + 3600_000, identity: { uid: '7', email: 'ada@example.com', displayName: 'Ada', emailVerified: true } }),
    );
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonAnswer({ error: { code, message: code === 'account-disabled' ? ACCOUNT_DISABLED_MESSAGE : 'expired' } }, status)),
    );
    try {
      renderWithProviders(
        <AuthProvider backend={createLocalBackend({ emailEnabled: false })}>
          <Routes>
            <Route path="/login" element={<Login />} />
            <Route path="/dashboard" element={<ProtectedRoute><div>dashboard screen</div></ProtectedRoute>} />
          </Routes>
        </AuthProvider>,
        { path: '/dashboard' },
      );
      const alert = await screen.findByTestId('auth-success');
      expect(alert).toHaveTextContent(notice);
      expect(alert.className).toMatch(severity);
      expect(screen.getByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
      expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    } finally {
      vi.unstubAllGlobals();
      localStorage.clear();
      sessionStorage.clear();
      setAuthToken(null);
    }
  });

  it.each([
    ['local mode: the right password of a disabled account', new ApiError(403, 'Forbidden', JSON.stringify({ error: { code: 'account-disabled', message: ACCOUNT_DISABLED_MESSAGE } }))],
    ["Firebase's own disabled flag", Object.assign(new Error('Firebase: Error (auth/user-disabled).'), { code: 'auth/user-disabled' })],
  ])('a sign-in refused for %s shows why', async (_, err) => {
    const { user } = renderLogin('/login', fakeActions({ signIn: vi.fn(async () => Promise.reject(err)) }));
    fill('Email', 'ada@example.com');
    fill('Password', 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByTestId('auth-error')).toHaveTextContent(ACCOUNT_DISABLED_MESSAGE);
  });

  it("names the operator's contact email after the message when one is set", async () => {
    config.contactEmail = 'ops@example.com';
    try {
      const err = new ApiError(403, 'Forbidden', JSON.stringify({ error: { code: 'account-disabled', message: ACCOUNT_DISABLED_MESSAGE } }));
      const { user } = renderLogin('/login', fakeActions({ signIn: vi.fn(async () => Promise.reject(err)) }));
      fill('Email', 'ada@example.com');
      fill('Password', 'secret1');
      await user.click(screen.getByRole('button', { name: 'Sign In' }));
      expect(await screen.findByTestId('auth-error')).toHaveTextContent(`${ACCOUNT_DISABLED_MESSAGE} Contact: ops@example.com`);
      expect(screen.getByRole('link', { name: 'ops@example.com' })).toHaveAttribute('href', 'mailto:ops@example.com');
    } finally {
      config.contactEmail = '';
    }
  });
});
