// Firebase mode: the Firebase JS SDK, initialised from the runtime config.
// The SDK is imported on demand, so local mode never downloads it.
import type { Auth, User, UserCredential } from 'firebase/auth';
import { deleteMyAccount } from '../api/client';
import type { FirebaseWebConfig } from '../config';
import { FIREBASE_SESSION_HINT_KEY as SESSION_HINT_KEY } from './sessionHint';
import { isExpiring, type AuthBackend, type IdentityUser } from './types';

type AuthModule = typeof import('firebase/auth');

interface Sdk {
  auth: Auth;
  fa: AuthModule;
}

function hadSession(): boolean {
  try {
    return window.localStorage.getItem(SESSION_HINT_KEY) !== null;
  } catch {
    return true; // unknown: wait for the SDK
  }
}

function rememberSession(signedIn: boolean) {
  try {
    if (signedIn) window.localStorage.setItem(SESSION_HINT_KEY, '1');
    else window.localStorage.removeItem(SESSION_HINT_KEY);
  } catch {
    // storage unavailable: the app waits for the SDK on every load
  }
}

export const GOOGLE_UNREACHABLE = 'Google sign-in could not be reached. Please check your connection and try again.';

/**
 * Google's popup and redirect need Google's script (apis.google.com/js/api.js), also against the
 * Auth emulator; when it cannot load (offline, or a blocker), the SDK says only
 * "Firebase: Error (auth/internal-error)." with the script's error event: that failure gets a sentence.
 */
async function viaGoogle<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (err) {
    const e = err as { code?: string; customData?: unknown };
    if (e?.code === 'auth/internal-error' && typeof Event !== 'undefined' && e.customData instanceof Event) {
      throw Object.assign(new Error(GOOGLE_UNREACHABLE), { code: 'auth/google-unreachable' });
    }
    throw err;
  }
}

function toIdentity(u: User | null): IdentityUser | null {
  if (!u) return null;
  return { uid: u.uid, email: u.email, displayName: u.displayName, emailVerified: u.emailVerified };
}

async function loadSdk(webConfig: FirebaseWebConfig, emulatorUrl: string): Promise<Sdk> {
  const [{ initializeApp, getApps }, fa] = await Promise.all([import('firebase/app'), import('firebase/auth')]);
  const app = getApps()[0] ?? initializeApp(webConfig);
  const auth = fa.getAuth(app);
  // Only a server running against the Auth emulator (a demo project) names one.
  if (emulatorUrl && !auth.emulatorConfig) fa.connectAuthEmulator(auth, emulatorUrl, { disableWarnings: true });
  return { auth, fa };
}

export function createFirebaseBackend(
  webConfig: FirebaseWebConfig,
  emulatorUrl = '',
  load: () => Promise<Sdk> = () => loadSdk(webConfig, emulatorUrl),
): AuthBackend {
  let sdk: Promise<Sdk> | null = null;
  const ready = () => (sdk ??= load());
  let current: User | null = null;

  function currentUser(s: Sdk): User {
    const u = s.auth.currentUser;
    if (!u) throw Object.assign(new Error('Not signed in'), { code: 'auth/no-current-user' });
    return u;
  }

  return {
    mode: 'firebase',

    subscribe(listener) {
      let unsubscribe: (() => void) | null = null;
      let stopped = false;
      ready().then(
        ({ auth, fa }) => {
          if (stopped) return;
          unsubscribe = fa.onAuthStateChanged(auth, (u) => {
            current = u;
            rememberSession(u !== null);
            listener(toIdentity(u));
          });
        },
        (err: unknown) => {
          // Without the SDK nobody can be signed in; loading must still end.
          console.error('Failed to load Firebase Auth', err);
          if (!stopped) listener(null);
        },
      );
      return () => {
        stopped = true;
        unsubscribe?.();
      };
    },

    currentIdentity: () => toIdentity(current),
    // The SDK restores its session asynchronously; a hint kept beside it says whether there was one.
    knownSignedOut: () => !hadSession(),

    async getToken() {
      const user = currentUser(await ready());
      let result = await user.getIdTokenResult();
      if (isExpiring(Date.parse(result.expirationTime))) result = await user.getIdTokenResult(true);
      return { token: result.token, expiresAt: Date.parse(result.expirationTime) };
    },

    async completeRedirect() {
      const { auth, fa } = await ready();
      const cred = await fa.getRedirectResult(auth);
      if (cred) current = cred.user;
      return cred ? toIdentity(cred.user) : null;
    },

    async signIn(email, password) {
      const { auth, fa } = await ready();
      current = (await fa.signInWithEmailAndPassword(auth, email, password)).user;
    },

    async signUp(email, password, displayName) {
      const { auth, fa } = await ready();
      const { user } = await fa.createUserWithEmailAndPassword(auth, email, password);
      current = user;
      await fa.updateProfile(user, { displayName });
      let verificationSent = false;
      try {
        await fa.sendEmailVerification(user);
        verificationSent = true;
      } catch (err) {
        console.error('Failed to send the verification email', err);
      }
      // A fresh token carries the display name to the server.
      await user.getIdToken(true);
      return { verificationSent };
    },

    async signInWithGoogle() {
      const { auth, fa } = await ready();
      const provider = new fa.GoogleAuthProvider();
      let cred: UserCredential;
      try {
        cred = await viaGoogle(() => fa.signInWithPopup(auth, provider));
      } catch (err) {
        // A blocked popup falls back to a full-page redirect; the result is
        // processed by completeRedirect when the app starts again.
        if ((err as { code?: string }).code === 'auth/popup-blocked') {
          // The page the redirect returns to must start the app at once to complete the sign-in.
          rememberSession(true);
          await fa.signInWithRedirect(auth, provider);
        }
        throw err;
      }
      current = cred.user;
      return { isNewUser: fa.getAdditionalUserInfo(cred)?.isNewUser === true };
    },

    async sendPasswordReset(email) {
      const { auth, fa } = await ready();
      await fa.sendPasswordResetEmail(auth, email);
    },

    async verifyEmail(oobCode) {
      const { auth, fa } = await ready();
      await fa.applyActionCode(auth, oobCode);
      // A signed-in user's next token says the address is verified.
      const u = auth.currentUser;
      if (u) {
        await u.reload();
        await u.getIdToken(true);
      }
      return { message: '' };
    },

    async updatePassword(oobCode, password) {
      const { auth, fa } = await ready();
      await fa.confirmPasswordReset(auth, oobCode, password);
      return { message: '' };
    },

    async signOut() {
      const { auth, fa } = await ready();
      await fa.signOut(auth);
      current = null;
    },

    account: {
      signInMethods() {
        const providers = (current?.providerData ?? []).map((p) => p.providerId);
        return { password: providers.includes('password'), google: providers.includes('google.com') };
      },

      async setDisplayName(name) {
        const s = await ready();
        const user = currentUser(s);
        await s.fa.updateProfile(user, { displayName: name });
        // A fresh token carries the name to the server, which would otherwise write the old one back.
        await user.getIdToken(true);
      },

      async changePassword(currentPassword, newPassword) {
        const user = await reauthenticate(currentPassword);
        const { fa } = await ready();
        await fa.updatePassword(user, newPassword);
        return 'Your password was changed.';
      },

      async changeEmail(newEmail, currentPassword) {
        const user = await reauthenticate(currentPassword);
        const { fa } = await ready();
        // Firebase emails a link to the new address; the change takes effect when it is opened.
        await fa.verifyBeforeUpdateEmail(user, newEmail);
        return {
          email: newEmail,
          pending: true,
          message: `We sent a confirmation link to ${newEmail}. Your email address changes when you open it.`,
        };
      },

      async deleteAccount(password) {
        const user = await reauthenticate(password);
        // The server accepts only a token of a sign-in of the last few minutes.
        const token = await user.getIdToken(true);
        const result = await deleteMyAccount({}, token);
        if (!result.identityDeleted) {
          // The server has no Google credentials: the freshly signed-in browser deletes the identity.
          const { fa } = await ready();
          await fa.deleteUser(user);
        }
        return result;
      },
    },
  };

  /** Signs the current user in again: with the password when given, else with Google's popup. */
  async function reauthenticate(password: string): Promise<User> {
    const s = await ready();
    const user = currentUser(s);
    if (password) {
      await s.fa.reauthenticateWithCredential(user, s.fa.EmailAuthProvider.credential(user.email ?? '', password));
    } else {
      await viaGoogle(() => s.fa.reauthenticateWithPopup(user, new s.fa.GoogleAuthProvider()));
    }
    return user;
  }
}
