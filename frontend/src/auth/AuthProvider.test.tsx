import { act, render, waitFor } from '@testing-library/react';
import { SWRConfig, type Cache } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getAuthToken, setAuthToken } from '../api/client';
import { AuthProvider } from './AuthProvider';
import { createFirebaseBackend } from './firebaseBackend';
import { createLocalBackend, SESSION_STORAGE_KEY } from './localBackend';
import type { AuthActions } from './context';
import type { AuthBackend, AuthState, IdentityUser, IdToken } from './types';
import { useAuth, useAuthActions } from './useAuth';

const ada: IdentityUser = { uid: 'uid-ada', email: 'ada@example.com', displayName: 'Ada Lovelace', emailVerified: false };
const profile = (monthlyUsage: number) => ({
  id: 7,
  firebaseUid: 'uid-ada',
  email: 'ada@example.com',
  displayName: 'Ada Lovelace',
  subscriptionStatus: 'inactive',
  subscriptionTier: 'free',
  monthlyUsage,
});

/** A controllable identity backend. */
function fakeBackend(overrides: Partial<AuthBackend> = {}) {
  let listener: (u: IdentityUser | null) => void = () => {};
  let identity: IdentityUser | null = null;
  const backend: AuthBackend = {
    mode: 'firebase',
    subscribe(l) {
      listener = l;
      return () => {};
    },
    currentIdentity: () => identity,
    getToken: vi.fn(async (): Promise<IdToken> => ({ token: 'tok-1', expiresAt: Date.now() + 3600_000 })),
    completeRedirect: vi.fn(async () => null),
    signIn: vi.fn(async () => {
      emit(ada);
    }),
    signUp: vi.fn(async () => ({ verificationSent: true })),
    sendPasswordReset: vi.fn(async () => {}),
    verifyEmail: vi.fn(async () => ({ message: '' })),
    updatePassword: vi.fn(async () => ({ message: '' })),
    signOut: vi.fn(async () => {}),
    ...overrides,
  };
  function emit(u: IdentityUser | null) {
    identity = u;
    act(() => listener(u));
  }
  return { backend, emit };
}

type Responder = (url: string, init: RequestInit) => Response | Promise<Response>;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Stubs fetch; returns the list of calls as "METHOD /path". */
function stubApi(responder: Responder) {
  const calls: { call: string; auth: string | null }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      const headers = (init.headers ?? {}) as Record<string, string>;
      calls.push({ call: `${init.method ?? 'GET'} ${url}`, auth: headers.Authorization ?? null });
      return responder(url, init);
    }),
  );
  return calls;
}

let state: AuthState;
let actions: AuthActions;
function Probe() {
  state = useAuth();
  actions = useAuthActions();
  return null;
}

function renderProvider(backend: AuthBackend) {
  return render(
    <AuthProvider backend={backend}>
      <Probe />
    </AuthProvider>,
  );
}

beforeEach(() => {
  setAuthToken(null);
  localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('auth state machine', { timeout: 20_000 }, () => {
  it('starts loading, then stores the token, fetches the profile and sets the user', async () => {
    const calls = stubApi(() => json(profile(2)));
    const { backend, emit } = fakeBackend();
    renderProvider(backend);
    expect(state).toMatchObject({ loading: true, user: null, token: null, firebaseUser: null });

    emit(ada);
    await waitFor(() => expect(state.loading).toBe(false));
    expect(state.user).toMatchObject({ id: 7, email: 'ada@example.com', displayName: 'Ada Lovelace', monthlyUsage: 2 });
    expect(state.token).toBe('tok-1');
    expect(state.firebaseUser).toEqual(ada);
    expect(getAuthToken()).toBe('tok-1');
    expect(calls).toEqual([{ call: 'GET /api/user/profile', auth: 'Bearer tok-1' }]);
  });

  it('uses the fallback user when the profile call fails', async () => {
    stubApi(() => new Response('boom', { status: 500 }));
    const { backend, emit } = fakeBackend();
    renderProvider(backend);
    emit({ ...ada, email: null });
    await waitFor(() => expect(state.loading).toBe(false));
    expect(state.user).toEqual({
      id: 0,
      firebaseUid: 'uid-ada',
      email: '',
      displayName: 'Ada Lovelace',
      emailVerified: false,
    });
  });

  it('clears everything when the token cannot be obtained', async () => {
    const calls = stubApi(() => json(profile(0)));
    const { backend, emit } = fakeBackend({ getToken: vi.fn(async () => Promise.reject(new Error('revoked'))) });
    renderProvider(backend);
    emit(ada);
    await waitFor(() => expect(state.loading).toBe(false));
    expect(state).toMatchObject({ user: null, firebaseUser: null, token: null });
    expect(getAuthToken()).toBeNull();
    expect(calls).toEqual([]);
  });

  it('ends loading when the redirect result fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { backend } = fakeBackend({ completeRedirect: vi.fn(async () => Promise.reject(new Error('redirect'))) });
    renderProvider(backend);
    await waitFor(() => expect(state.loading).toBe(false));
    expect(state.user).toBeNull();
  });

  it('signs out: clears user, identity and token even when the provider fails (only logged)', async () => {
    stubApi(() => json(profile(1)));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { backend, emit } = fakeBackend({ signOut: vi.fn(async () => Promise.reject(new Error('offline'))) });
    renderProvider(backend);
    emit(ada);
    await waitFor(() => expect(state.user).not.toBeNull());
    await act(() => state.signOut());
    expect(state).toMatchObject({ user: null, firebaseUser: null, token: null, loading: false });
    expect(getAuthToken()).toBeNull();
    expect(logged).toHaveBeenCalledWith('Sign out failed', expect.any(Error));
  });

  it("forgets the previous user's cached data on sign-out", async () => {
    stubApi(() => json(profile(1)));
    const cache = new Map() as unknown as Cache;
    const { backend, emit } = fakeBackend();
    render(
      <SWRConfig value={{ provider: () => cache }}>
        <AuthProvider backend={backend}>
          <Probe />
        </AuthProvider>
      </SWRConfig>,
    );
    emit(ada);
    await waitFor(() => expect(state.user).not.toBeNull());
    cache.set('/api/printers', { data: [{ id: 1, name: 'MK4' }] });
    await act(() => state.signOut());
    await waitFor(() => expect(cache.get('/api/printers')?.data).toBeUndefined());
  });

  it('refreshUser with no user in state transfers usage, then re-fetches the profile', async () => {
    let profileCalls = 0;
    const calls = stubApi((url) => {
      if (url.endsWith('/api/transfer-usage')) return json({ transferred: 2 });
      profileCalls++;
      return json(profile(profileCalls === 1 ? 0 : 2));
    });
    const { backend } = fakeBackend({ currentIdentity: () => ada });
    renderProvider(backend);
    expect(state.user).toBeNull();
    await act(() => state.refreshUser());
    expect(calls).toEqual([
      { call: 'GET /api/user/profile', auth: 'Bearer tok-1' },
      { call: 'POST /api/transfer-usage', auth: 'Bearer tok-1' },
      { call: 'GET /api/user/profile', auth: 'Bearer tok-1' },
    ]);
    expect(state.user?.monthlyUsage).toBe(2);
    expect(state.loading).toBe(false);
  });

  it('refreshUser falls back to the first profile when the re-fetch fails', async () => {
    let profileCalls = 0;
    stubApi((url) => {
      if (url.endsWith('/api/transfer-usage')) return json({ transferred: 0 });
      profileCalls++;
      return profileCalls === 1 ? json(profile(5)) : new Response('', { status: 500 });
    });
    const { backend } = fakeBackend({ currentIdentity: () => ada });
    renderProvider(backend);
    await act(() => state.refreshUser());
    expect(state.user?.monthlyUsage).toBe(5);
    expect(state.user?.id).toBe(7);
  });

  it('refreshUser with a user in state only re-fetches', async () => {
    let usage = 1;
    const calls = stubApi(() => json(profile(usage)));
    const { backend, emit } = fakeBackend();
    renderProvider(backend);
    emit(ada);
    await waitFor(() => expect(state.user?.monthlyUsage).toBe(1));
    usage = 2;
    await act(() => state.refreshUser());
    expect(state.user?.monthlyUsage).toBe(2);
    expect(calls.map((c) => c.call)).toEqual(['GET /api/user/profile', 'GET /api/user/profile']);
  });

  it('an interactive sign-in moves anonymous usage to the account', async () => {
    let transferred = false;
    const calls = stubApi((url) => {
      if (url.endsWith('/api/transfer-usage')) {
        transferred = true;
        return json({ transferred: 3 });
      }
      return json(profile(transferred ? 3 : 0));
    });
    const { backend } = fakeBackend();
    renderProvider(backend);
    await act(() => actions.signIn('ada@example.com', 'secret1'));
    expect(calls.map((c) => c.call)).toContain('POST /api/transfer-usage');
    expect(state.user?.monthlyUsage).toBe(3);
  });
});

describe('local accounts', { timeout: 20_000 }, () => {
  const stored = (expiresAt: number) =>
    JSON.stringify({ token: 'local-tok', expiresAt, identity: { ...ada, uid: '7' } });

  it('with no stored session, is signed out from the first render (no loader over a prerendered page)', () => {
    stubApi(() => json(profile(0)));
    renderProvider(createLocalBackend({ emailEnabled: false }));
    expect(state).toMatchObject({ loading: false, user: null });
  });

  it('with a stored session, loads first', () => {
    stubApi(() => json(profile(0)));
    localStorage.setItem(SESSION_STORAGE_KEY, stored(Date.now() + 90_000));
    renderProvider(createLocalBackend({ emailEnabled: false }));
    expect(state.loading).toBe(true);
  });

  it('counts a session as expired 30 s before its expiry', async () => {
    stubApi(() => json(profile(0)));
    localStorage.setItem(SESSION_STORAGE_KEY, stored(Date.now() + 29_000));
    renderProvider(createLocalBackend({ emailEnabled: false }));
    await waitFor(() => expect(state.loading).toBe(false));
    expect(state.user).toBeNull();
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('restores a stored session and signs out 30 s before it expires', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = stubApi(() => json(profile(0)));
    localStorage.setItem(SESSION_STORAGE_KEY, stored(Date.now() + 90_000));
    renderProvider(createLocalBackend({ emailEnabled: false }));
    await waitFor(() => expect(state.user?.id).toBe(7));
    expect(calls[0]).toEqual({ call: 'GET /api/user/profile', auth: 'Bearer local-tok' });

    await act(async () => {
      await vi.advanceTimersByTimeAsync(55_000);
    });
    expect(state.user?.id).toBe(7);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(6_000);
    });
    expect(state).toMatchObject({ user: null, firebaseUser: null, token: null });
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('signs out when the server rejects the stored session', async () => {
    stubApi(() => json({ error: { code: 'UNAUTHENTICATED', message: 'expired' } }, 401));
    localStorage.setItem(SESSION_STORAGE_KEY, stored(Date.now() + 3600_000));
    renderProvider(createLocalBackend({ emailEnabled: false }));
    await waitFor(() => expect(state.loading).toBe(false));
    expect(state.user).toBeNull();
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('signs up, keeps the session in localStorage and revokes it on sign-out', async () => {
    const expiresAt = new Date(Date.now() + 30 * 86400_000).toISOString();
    const calls = stubApi((url) => {
      if (url.endsWith('/api/auth/signup')) return json({ token: 'new-tok', expiresAt, user: profile(0) }, 201);
      if (url.endsWith('/api/auth/logout')) return new Response(null, { status: 204 });
      if (url.endsWith('/api/transfer-usage')) return json({ transferred: 0 });
      return json(profile(0));
    });
    renderProvider(createLocalBackend({ emailEnabled: false }));
    await waitFor(() => expect(state.loading).toBe(false));
    let result;
    await act(async () => {
      result = await actions.signUp('ada@example.com', 'secret1', 'Ada Lovelace');
    });
    expect(result).toMatchObject({ verificationSent: false, transferred: 0, user: { id: 7 } });
    expect(state.user?.id).toBe(7);
    expect(JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY)!)).toMatchObject({ token: 'new-tok', expiresAt: Date.parse(expiresAt) });

    await act(() => state.signOut());
    expect(calls.at(-1)).toEqual({ call: 'POST /api/auth/logout', auth: 'Bearer new-tok' });
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(state.user).toBeNull();
  });
});

describe('firebase tokens', () => {
  function fakeSdk(expiresInMs: number) {
    const user = {
      uid: 'fb-1',
      email: 'ada@example.com',
      displayName: 'Ada',
      emailVerified: true,
      getIdTokenResult: vi.fn(async (force?: boolean) => ({
        token: force ? 'fresh' : 'cached',
        expirationTime: new Date(Date.now() + (force ? 3600_000 : expiresInMs)).toUTCString(),
      })),
    };
    const load = async () => ({ auth: { currentUser: user }, fa: {} }) as never;
    return { user, backend: createFirebaseBackend({ apiKey: '', authDomain: '', projectId: '', appId: '' }, '', load) };
  }

  it('refreshes an ID token within 30 s of its expiry', async () => {
    const { user, backend } = fakeSdk(20_000);
    expect((await backend.getToken()).token).toBe('fresh');
    expect(user.getIdTokenResult).toHaveBeenLastCalledWith(true);
  });

  it('remembers whether there was a session, so the next load knows at once when nobody is signed in', async () => {
    let emit: (u: unknown) => void = () => {};
    const user = { uid: 'fb-1', email: null, displayName: null, emailVerified: false };
    const load = async () => ({ auth: {}, fa: { onAuthStateChanged: (_a: unknown, cb: (u: unknown) => void) => ((emit = cb), () => {}) } }) as never;
    const backend = createFirebaseBackend({ apiKey: '', authDomain: '', projectId: '', appId: '' }, '', load);
    expect(backend.knownSignedOut?.()).toBe(true);
    backend.subscribe(() => {});
    await waitFor(() => expect(emit).not.toBe(undefined));
    await new Promise((r) => setTimeout(r, 0));
    emit(user);
    expect(backend.knownSignedOut?.()).toBe(false);
    emit(null);
    expect(backend.knownSignedOut?.()).toBe(true);
  });

  it('keeps an ID token with more than 30 s left', async () => {
    const { user, backend } = fakeSdk(120_000);
    expect((await backend.getToken()).token).toBe('cached');
    expect(user.getIdTokenResult).toHaveBeenCalledTimes(1);
  });
});
