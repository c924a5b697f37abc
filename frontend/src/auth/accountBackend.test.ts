// The account screen's changes through each identity backend: local accounts call the server,
// Firebase accounts sign in again before changing anything in Firebase.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAuthToken } from '../api/client';
import { createFirebaseBackend, GOOGLE_UNREACHABLE } from './firebaseBackend';
import { createLocalBackend } from './localBackend';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function stubFetch(answer: (url: string, init: RequestInit) => Response) {
  const calls: { call: string; auth: string | null; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const headers = (init.headers ?? {}) as Record<string, string>;
      calls.push({ call: `${init.method ?? 'GET'} ${String(input)}`, auth: headers.Authorization ?? null, body: init.body ? JSON.parse(String(init.body)) : null });
      return answer(String(input), init);
    }),
  );
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
  setAuthToken(null);
});

describe('local accounts', () => {
  it('send every change with the current password to the server', async () => {
    setAuthToken('session');
    const calls = stubFetch((url) =>
      url.endsWith('/api/user') ? json({ deleted: true, subscriptionCanceled: false, message: 'gone' }) : json({ message: 'ok', email: 'b@example.com', pending: false }),
    );
    const account = createLocalBackend({ storage: localStorage }).account!;
    expect(account.signInMethods()).toEqual({ password: true, google: false });
    await account.changePassword('old-secret', 'new-secret');
    await account.changeEmail('b@example.com', 'old-secret');
    expect((await account.deleteAccount('old-secret')).message).toBe('gone');
    expect(calls).toEqual([
      { call: 'POST /api/user/password', auth: 'Bearer session', body: { currentPassword: 'old-secret', newPassword: 'new-secret' } },
      { call: 'POST /api/user/email', auth: 'Bearer session', body: { newEmail: 'b@example.com', currentPassword: 'old-secret' } },
      { call: 'DELETE /api/user', auth: 'Bearer session', body: { password: 'old-secret' } },
    ]);
  });
});

describe('Firebase accounts', () => {
  function fakeSdk(providers: string[]) {
    const user = {
      uid: 'fb-1',
      email: 'ada@example.com',
      displayName: 'Ada',
      emailVerified: true,
      providerData: providers.map((providerId) => ({ providerId })),
      getIdToken: vi.fn(async (force?: boolean) => (force ? 'fresh-token' : 'old-token')),
    };
    const order: string[] = [];
    const step = (name: string) => vi.fn(async (...args: unknown[]) => void order.push(`${name} ${JSON.stringify(args.slice(1))}`));
    const fa = {
      onAuthStateChanged: (_a: unknown, cb: (u: unknown) => void) => (cb(user), () => {}),
      EmailAuthProvider: { credential: (email: string, password: string) => ({ email, password }) },
      GoogleAuthProvider: class {
        providerId = 'google.com';
      },
      reauthenticateWithCredential: step('reauth'),
      reauthenticateWithPopup: step('popup'),
      signInWithPopup: vi.fn(async () => ({ user })),
      updatePassword: step('updatePassword'),
      verifyBeforeUpdateEmail: step('verifyBeforeUpdateEmail'),
      updateProfile: step('updateProfile'),
      deleteUser: step('deleteUser'),
    };
    const backend = createFirebaseBackend({ apiKey: '', authDomain: '', projectId: '', appId: '' }, '', async () => ({ auth: { currentUser: user }, fa }) as never);
    return { user, fa, order, backend };
  }

  async function signedIn(providers: string[]) {
    const sdk = fakeSdk(providers);
    await new Promise<void>((resolve) => sdk.backend.subscribe(() => resolve()));
    return sdk;
  }

  it('sign in again with the password before changing the password or the email', async () => {
    const { backend, order } = await signedIn(['password']);
    expect(backend.account!.signInMethods()).toEqual({ password: true, google: false });
    expect(await backend.account!.changePassword('old-secret', 'new-secret')).toMatch(/changed/);
    const email = await backend.account!.changeEmail('new@example.com', 'old-secret');
    expect(email).toMatchObject({ email: 'new@example.com', pending: true });
    expect(order).toEqual([
      'reauth [{"email":"ada@example.com","password":"old-secret"}]',
      'updatePassword ["new-secret"]',
      'reauth [{"email":"ada@example.com","password":"old-secret"}]',
      'verifyBeforeUpdateEmail ["new@example.com"]',
    ]);
  });

  it('sets the display name in Firebase and refreshes the token that carries it', async () => {
    const { backend, user, order } = await signedIn(['password']);
    await backend.account!.setDisplayName('Grace Hopper');
    expect(order).toEqual(['updateProfile [{"displayName":"Grace Hopper"}]']);
    expect(user.getIdToken).toHaveBeenCalledWith(true);
  });

  it('deletes with a fresh token; the browser deletes the identity when the server could not', async () => {
    const { backend, order } = await signedIn(['password']);
    const calls = stubFetch(() => json({ deleted: true, subscriptionCanceled: false, identityDeleted: false, message: 'gone' }));
    await backend.account!.deleteAccount('old-secret');
    expect(calls).toEqual([{ call: 'DELETE /api/user', auth: 'Bearer fresh-token', body: {} }]);
    expect(order).toEqual(['reauth [{"email":"ada@example.com","password":"old-secret"}]', 'deleteUser []']);
  });

  it('a Google account confirms with the popup, and the server deletes the identity', async () => {
    const { backend, order } = await signedIn(['google.com']);
    expect(backend.account!.signInMethods()).toEqual({ password: false, google: true });
    stubFetch(() => json({ deleted: true, subscriptionCanceled: true, identityDeleted: true, message: 'gone' }));
    await backend.account!.deleteAccount('');
    expect(order).toEqual(['popup [{"providerId":"google.com"}]']);
  });

  it("says so in a sentence when Google's script cannot load; other failures pass unchanged", async () => {
    const { backend, fa } = await signedIn(['google.com']);
    const scriptFailed = Object.assign(new Error('Firebase: Error (auth/internal-error).'), { code: 'auth/internal-error', customData: new Event('error') });
    fa.reauthenticateWithPopup.mockRejectedValueOnce(scriptFailed);
    await expect(backend.account!.deleteAccount('')).rejects.toMatchObject({ code: 'auth/google-unreachable', message: GOOGLE_UNREACHABLE });
    const closed = Object.assign(new Error('Firebase: Error (auth/popup-closed-by-user).'), { code: 'auth/popup-closed-by-user' });
    fa.reauthenticateWithPopup.mockRejectedValueOnce(closed);
    await expect(backend.account!.deleteAccount('')).rejects.toBe(closed);
    fa.signInWithPopup.mockRejectedValueOnce(scriptFailed);
    await expect(backend.signInWithGoogle!()).rejects.toMatchObject({ code: 'auth/google-unreachable', message: GOOGLE_UNREACHABLE });
  });
});
