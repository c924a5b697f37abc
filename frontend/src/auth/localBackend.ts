// Local accounts: the server issues a session token (30 days); it is kept in
// localStorage with its expiry and counted as expired 30 s early.
import { changeLocalEmail, changeLocalPassword, deleteMyAccount } from '../api/client';
import { config } from '../config';
import { localLogin, localLogout, localPasswordReset, localPasswordUpdate, localSignup, localVerifyEmail, type LocalSession } from './localApi';
import { markSessionEnded } from './sessionEnded';
import { SESSION_STORAGE_KEY } from './sessionHint';
import { isExpiring, type AuthBackend, type IdentityUser } from './types';

export { SESSION_STORAGE_KEY };

interface StoredSession {
  token: string;
  expiresAt: number;
  identity: IdentityUser;
}

export interface LocalBackendOptions {
  storage?: Storage;
  now?: () => number;
  emailEnabled?: boolean;
}

function parseStored(raw: string | null): StoredSession | null {
  if (!raw) return null;
  try {
    const s = JSON.parse(raw) as Partial<StoredSession>;
    if (typeof s.token !== 'string' || typeof s.expiresAt !== 'number' || !s.identity || typeof s.identity.uid !== 'string') {
      return null;
    }
    return s as StoredSession;
  } catch {
    return null;
  }
}

function toStored(s: LocalSession): StoredSession {
  return {
    token: s.token,
    expiresAt: Date.parse(s.expiresAt),
    identity: {
      uid: String(s.user.id),
      email: s.user.email ?? null,
      displayName: s.user.displayName ?? null,
      emailVerified: s.user.emailVerified === true,
    },
  };
}

export function createLocalBackend(options: LocalBackendOptions = {}): AuthBackend {
  const storage = options.storage ?? window.localStorage;
  const now = options.now ?? Date.now;
  const emailEnabled = options.emailEnabled ?? config.emailEnabled;
  const listeners = new Set<(u: IdentityUser | null) => void>();
  let lastUid: string | null | undefined;

  /** The stored session unless it counts as expired, which is then forgotten. */
  function read(): StoredSession | null {
    const s = parseStored(storage.getItem(SESSION_STORAGE_KEY));
    if (s && isExpiring(s.expiresAt, now())) {
      storage.removeItem(SESSION_STORAGE_KEY);
      markSessionEnded();
      return null;
    }
    if (!s) storage.removeItem(SESSION_STORAGE_KEY);
    return s;
  }

  function emit(): void {
    const identity = read()?.identity ?? null;
    lastUid = identity?.uid ?? null;
    for (const l of [...listeners]) l(identity);
  }

  function save(s: StoredSession | null): void {
    if (s) storage.setItem(SESSION_STORAGE_KEY, JSON.stringify(s));
    else storage.removeItem(SESSION_STORAGE_KEY);
    emit();
  }

  // Another tab signed in or out.
  function onStorage(e: StorageEvent): void {
    if (e.key !== SESSION_STORAGE_KEY && e.key !== null) return;
    const uid = read()?.identity.uid ?? null;
    if (uid !== lastUid) emit();
  }

  return {
    mode: 'local',

    subscribe(listener) {
      listeners.add(listener);
      if (listeners.size === 1) window.addEventListener('storage', onStorage);
      const identity = read()?.identity ?? null;
      lastUid = identity?.uid ?? null;
      listener(identity);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) window.removeEventListener('storage', onStorage);
      };
    },

    currentIdentity: () => read()?.identity ?? null,
    knownSignedOut: () => read() === null,

    async getToken() {
      const s = read();
      if (!s) {
        if (lastUid) emit(); // it just expired: everyone learns it is signed out
        throw new Error('Your session has expired. Please sign in again.');
      }
      return { token: s.token, expiresAt: s.expiresAt };
    },

    completeRedirect: async () => null,

    async signIn(email, password) {
      save(toStored(await localLogin(email, password)));
    },

    async signUp(email, password, displayName) {
      save(toStored(await localSignup(email, password, displayName)));
      return { verificationSent: emailEnabled };
    },

    async sendPasswordReset(email) {
      await localPasswordReset(email);
    },

    verifyEmail: (oobCode) => localVerifyEmail(oobCode),
    updatePassword: (oobCode, password) => localPasswordUpdate(oobCode, password),

    async signOut() {
      const s = parseStored(storage.getItem(SESSION_STORAGE_KEY));
      try {
        if (s) await localLogout(s.token);
      } finally {
        save(null);
      }
    },

    sessionRejected() {
      markSessionEnded();
      save(null);
    },

    // The server checks the current password (under the sign-in limits) for each change.
    account: {
      signInMethods: () => ({ password: true, google: false }),
      setDisplayName: async () => {},
      changePassword: async (current, next) => (await changeLocalPassword(current, next)).message,
      changeEmail: (newEmail, current) => changeLocalEmail(newEmail, current),
      deleteAccount: (password) => deleteMyAccount({ password }),
    },
  };
}
