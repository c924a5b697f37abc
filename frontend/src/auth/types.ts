// Types shared by the auth state machine and the two identity backends
// (local accounts and Firebase).
import type { DeleteAccountResult, EmailChangeResult } from '../api/types';
import type { AuthMode } from '../config';

/** The signed-in user as the app sees it: the profile, or the fallback user. */
export interface AppUser {
  id: number;
  firebaseUid: string | null;
  email: string;
  displayName: string;
  emailVerified?: boolean;
  subscriptionStatus?: string;
  subscriptionTier?: string;
  monthlyUsage?: number;
  monthlyLimit?: number;
  usageResetsAt?: string;
}

/** What useAuth() returns (frontend contract). */
export interface AuthState {
  user: AppUser | null;
  /** The identity provider's user (an IdentityUser), null when signed out. */
  firebaseUser: unknown | null;
  loading: boolean;
  token: string | null;
  signOut(): Promise<void>;
  refreshUser(): Promise<void>;
}

/** The identity as the provider knows it, independent of our profile. */
export interface IdentityUser {
  uid: string;
  email: string | null;
  displayName: string | null;
  emailVerified: boolean;
}

/** A bearer token and its expiry in epoch milliseconds. */
export interface IdToken {
  token: string;
  expiresAt: number;
}

export interface SignUpResult {
  /** A verification email was sent. */
  verificationSent: boolean;
  /** Anonymous analyses of this month moved to the new account (set once the profile is loaded). */
  transferred?: number;
  /** The new account's profile, with its usage after the transfer. */
  user?: AppUser | null;
}

/**
 * One identity provider. The state machine in AuthProvider drives it; the
 * screens never see which one is active.
 */
export interface AuthBackend {
  readonly mode: AuthMode;
  /** Calls `listener` with the current identity (now or once known) and on every change. */
  subscribe(listener: (user: IdentityUser | null) => void): () => void;
  /** The identity right now, or null. */
  currentIdentity(): IdentityUser | null;
  /**
   * True when it is certain at start-up, before any network or SDK, that nobody is signed in; the
   * app then renders the signed-out screens at once (a prerendered page stays as it is).
   */
  knownSignedOut?(): boolean;
  /** The current token, refreshed when within 30 s of expiry; rejects when there is none. */
  getToken(): Promise<IdToken>;
  /** Processes a pending sign-in redirect; resolves to the identity it signed in, if any. */
  completeRedirect(): Promise<IdentityUser | null>;
  signIn(email: string, password: string): Promise<void>;
  signUp(email: string, password: string, displayName: string): Promise<SignUpResult>;
  /** Google popup sign-in (Firebase only); isNewUser is true for a new account. */
  signInWithGoogle?(): Promise<{ isNewUser: boolean }>;
  sendPasswordReset(email: string): Promise<void>;
  /** Uses the code of a verification link; resolves to the message to show ('' for the default). */
  verifyEmail(oobCode: string): Promise<{ message: string }>;
  /** Sets a new password with the code of a reset link; resolves to the message to show. */
  updatePassword(oobCode: string, password: string): Promise<{ message: string }>;
  signOut(): Promise<void>;
  /** Local mode: the server refused the session (401), so it is gone. */
  sessionRejected?(): void;
  /** The account screen's changes to the identity (absent in isolated tests). */
  account?: AccountBackend;
}

/** How the signed-in identity signs in. */
export interface SignInMethods {
  password: boolean;
  google: boolean;
}

/**
 * What the account screen asks of the identity provider: local accounts go to the server, Firebase
 * accounts to Firebase after a fresh sign-in with the current password (or Google's popup).
 */
export interface AccountBackend {
  signInMethods(): SignInMethods;
  /** Sets the display name where the provider keeps it too; the caller then saves it on the server. */
  setDisplayName(name: string): Promise<void>;
  /** Resolves to the message to show. */
  changePassword(currentPassword: string, newPassword: string): Promise<string>;
  changeEmail(newEmail: string, currentPassword: string): Promise<EmailChangeResult>;
  /** Proves a fresh sign-in (the password, or Google's popup without one) and deletes the account. */
  deleteAccount(password: string): Promise<DeleteAccountResult>;
}

/** A token counts as expired this long before its expiry. */
export const EXPIRY_MARGIN_MS = 30_000;

export function isExpiring(expiresAt: number, now: number = Date.now()): boolean {
  return expiresAt - EXPIRY_MARGIN_MS <= now;
}
