// The authentication state machine (loading, then signed in or out), the same for every
// identity backend:
//   loading → (signed in) token stored → profile fetched → user set
//           → (signed out / token failure) everything cleared.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSWRConfig } from 'swr';
import { ApiError, getUserProfile, setAccountDisabledHandler, setAuthToken, transferUsage } from '../api/client';
import type { UserProfile } from '../api/types';
import { config } from '../config';
import { createAuthBackend } from './backend';
import { AuthActionsContext, AuthContext, type AuthActions } from './context';
import { markSessionEnded } from './sessionEnded';
import { EXPIRY_MARGIN_MS, type AppUser, type AuthBackend, type AuthState, type IdentityUser } from './types';

// setTimeout cannot wait longer than this (about 24.8 days).
const MAX_TIMER_MS = 2 ** 31 - 1;
const MIN_TOKEN_CHECK_MS = 1000;

interface Snapshot {
  user: AppUser | null;
  firebaseUser: IdentityUser | null;
  token: string | null;
  /** Epoch ms of the token's expiry. */
  expiresAt: number | null;
  loading: boolean;
}

const initial: Snapshot = { user: null, firebaseUser: null, token: null, expiresAt: null, loading: true };
const cleared: Snapshot = { user: null, firebaseUser: null, token: null, expiresAt: null, loading: false };

/** The user built from the identity alone when the profile cannot be loaded. */
export function fallbackUser(identity: IdentityUser): AppUser {
  return {
    id: 0,
    firebaseUid: identity.uid,
    email: identity.email ?? '',
    displayName: identity.displayName ?? '',
    emailVerified: identity.emailVerified,
  };
}

function toAppUser(p: UserProfile): AppUser {
  const extra = p as Partial<Pick<AppUser, 'emailVerified' | 'monthlyLimit' | 'usageResetsAt'>>;
  return {
    id: p.id,
    emailVerified: extra.emailVerified,
    monthlyUsage: p.monthlyUsage,
    monthlyLimit: extra.monthlyLimit,
    usageResetsAt: extra.usageResetsAt,
    firebaseUid: p.firebaseUid ?? null,
    email: p.email ?? '',
    displayName: p.displayName ?? '',
    subscriptionStatus: p.subscriptionStatus ?? undefined,
    subscriptionTier: p.subscriptionTier ?? undefined,
  };
}

const UNAUTHORIZED = 'unauthorized';

/** The profile, null when the call fails, UNAUTHORIZED on HTTP 401. */
async function fetchProfile(): Promise<AppUser | null | typeof UNAUTHORIZED> {
  try {
    return toAppUser(await getUserProfile());
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return UNAUTHORIZED;
    return null;
  }
}

/** What a load ended with: the user it set, and the anonymous analyses moved to the account. */
interface Loaded {
  user: AppUser | null;
  transferred: number;
}

const NOTHING_LOADED: Loaded = { user: null, transferred: 0 };

interface LoadOptions {
  /** Call transfer-usage when a profile comes back, then re-fetch. */
  transfer: boolean;
  /** On a failed profile fetch: use the fallback user, or keep the state as it is. */
  onFailure: 'fallback' | 'keep';
}

export function AuthProvider({ backend: injected, children }: { backend?: AuthBackend; children: ReactNode }) {
  const [backend] = useState(() => injected ?? createAuthBackend(config));
  const [state, setState] = useState<Snapshot>(() => (backend.knownSignedOut?.() ? cleared : initial));
  const userRef = useRef<AppUser | null>(null);
  // Every load takes a number; only the latest one may change the state, so a
  // slow answer never overwrites a newer one or a sign-out.
  const seq = useRef(0);
  // The uid whose profile is loaded or loading; an identity event for the
  // same uid needs no second load.
  const loadedUid = useRef<string | null>(null);

  const apply = useCallback((patch: Partial<Snapshot>) => {
    setState((s) => {
      const next = { ...s, ...patch };
      userRef.current = next.user;
      return next;
    });
  }, []);

  const { mutate } = useSWRConfig();
  const signedOut = useCallback(() => {
    const wasSignedIn = loadedUid.current !== null || userRef.current !== null;
    seq.current++;
    loadedUid.current = null;
    setAuthToken(null);
    apply(cleared);
    // The next user must not see the previous user's cached data; screens
    // still on display fetch theirs again.
    if (wasSignedIn) void mutate(() => true, undefined);
  }, [apply, mutate]);

  const load = useCallback(
    async (identity: IdentityUser, { transfer, onFailure }: LoadOptions): Promise<Loaded> => {
      const my = ++seq.current;
      loadedUid.current = identity.uid;
      let tok;
      try {
        tok = await backend.getToken();
      } catch {
        if (my === seq.current) signedOut();
        return NOTHING_LOADED;
      }
      if (my !== seq.current) return NOTHING_LOADED;
      setAuthToken(tok.token);
      let profile = await fetchProfile();
      if (profile === UNAUTHORIZED && backend.sessionRejected) {
        // Local mode: the session was revoked (sign-out elsewhere, password change).
        if (my === seq.current) backend.sessionRejected();
        return NOTHING_LOADED;
      }
      if (profile === UNAUTHORIZED) profile = null;
      let transferred = 0;
      if (profile && transfer) {
        try {
          transferred = await transferUsage();
        } catch (err) {
          console.error('Usage transfer failed', err);
        }
        const again = await fetchProfile();
        if (again && again !== UNAUTHORIZED) profile = again;
      }
      if (my !== seq.current) return NOTHING_LOADED;
      if (!profile && onFailure === 'keep') {
        apply({ token: tok.token, expiresAt: tok.expiresAt, loading: false });
        return NOTHING_LOADED;
      }
      const user = profile ?? fallbackUser(identity);
      apply({ user, firebaseUser: identity, token: tok.token, expiresAt: tok.expiresAt, loading: false });
      return { user, transferred };
    },
    [apply, backend, signedOut],
  );

  // Identity changes and the redirect result, from app start on.
  useEffect(() => {
    const unsubscribe = backend.subscribe((identity) => {
      if (!identity) {
        signedOut();
        return;
      }
      apply({ firebaseUser: identity });
      if (identity.uid !== loadedUid.current) void load(identity, { transfer: false, onFailure: 'fallback' });
    });
    backend.completeRedirect().then(
      (identity) => {
        if (identity) void load(identity, { transfer: true, onFailure: 'fallback' });
      },
      (err: unknown) => {
        console.error('Sign-in redirect failed', err);
        apply({ loading: false });
      },
    );
    return unsubscribe;
  }, [apply, backend, load, signedOut]);

  // The server says the signed-in account is disabled: sign out here too, and the sign-in screen
  // says why (a signed-in screen sends the maker there).
  useEffect(() => {
    setAccountDisabledHandler(() => {
      if (backend.sessionRejected) backend.sessionRejected();
      else void backend.signOut().catch((err: unknown) => console.error('Sign out failed', err));
      markSessionEnded('disabled');
      signedOut();
    });
    return () => setAccountDisabledHandler(null);
  }, [backend, signedOut]);

  // The token counts as expired 30 s early: then it is refreshed (Firebase)
  // or the session ends (local).
  useEffect(() => {
    if (state.expiresAt === null) return;
    let timer: ReturnType<typeof setTimeout>;
    let cancelled = false;
    const schedule = (expiresAt: number) => {
      const wait = expiresAt - EXPIRY_MARGIN_MS - Date.now();
      timer = setTimeout(check, Math.min(MAX_TIMER_MS, Math.max(MIN_TOKEN_CHECK_MS, wait)));
    };
    const check = async () => {
      try {
        const tok = await backend.getToken();
        if (cancelled) return;
        if (tok.expiresAt === state.expiresAt) {
          schedule(tok.expiresAt);
          return;
        }
        setAuthToken(tok.token);
        apply({ token: tok.token, expiresAt: tok.expiresAt });
      } catch {
        if (!cancelled) signedOut();
      }
    };
    schedule(state.expiresAt);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [apply, backend, signedOut, state.expiresAt]);

  const signOut = useCallback(async () => {
    try {
      await backend.signOut();
    } catch (err) {
      // A failed sign-out is only logged, never shown.
      console.error('Sign out failed', err);
    }
    signedOut();
  }, [backend, signedOut]);

  const refreshUser = useCallback(async () => {
    const identity = backend.currentIdentity();
    if (!identity) return;
    await load(identity, { transfer: userRef.current === null, onFailure: 'keep' });
  }, [backend, load]);

  // After an interactive sign-in the anonymous usage moves to the account.
  const afterSignIn = useCallback(async (): Promise<Loaded> => {
    const identity = backend.currentIdentity();
    return identity ? load(identity, { transfer: true, onFailure: 'fallback' }) : NOTHING_LOADED;
  }, [backend, load]);

  const actions = useMemo<AuthActions>(
    () => ({
      mode: backend.mode,
      async signIn(email, password) {
        await backend.signIn(email, password);
        await afterSignIn();
      },
      async signUp(email, password, displayName) {
        const result = await backend.signUp(email, password, displayName);
        const { user, transferred } = await afterSignIn();
        return { ...result, transferred, user };
      },
      signInWithGoogle: backend.signInWithGoogle
        ? async () => {
            const result = await backend.signInWithGoogle!();
            await afterSignIn();
            return result;
          }
        : undefined,
      sendPasswordReset: (email) => backend.sendPasswordReset(email),
      account: backend.account,
      async accountDeleted() {
        try {
          if (backend.sessionRejected) backend.sessionRejected();
          else await backend.signOut();
        } catch (err) {
          console.error('Sign out failed', err);
        }
        signedOut();
      },
      verifyEmail: (oobCode) => backend.verifyEmail(oobCode),
      updatePassword: (oobCode, password) => backend.updatePassword(oobCode, password),
    }),
    [afterSignIn, backend, signedOut],
  );

  const value = useMemo<AuthState>(
    () => ({
      user: state.user,
      firebaseUser: state.firebaseUser,
      loading: state.loading,
      token: state.token,
      signOut,
      refreshUser,
    }),
    [state.user, state.firebaseUser, state.loading, state.token, signOut, refreshUser],
  );

  return (
    <AuthActionsContext.Provider value={actions}>
      <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
    </AuthActionsContext.Provider>
  );
}
