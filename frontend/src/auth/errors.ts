// Authentication messages shown for each failure code. Local accounts answer with the
// same codes as Firebase ("invalid-credential", ...), so one table serves both.
import { ApiError } from '../api/client';

export interface AuthFailure {
  /** The code without Firebase's "auth/" prefix, '' when unknown. */
  code: string;
  /** The provider's own message, '' when there is none. */
  message: string;
}

/** Reads the code and message of a Firebase error, an API error or anything else. */
export function toAuthFailure(err: unknown): AuthFailure {
  if (err instanceof ApiError) {
    const d = err.details;
    return d ? { code: d.code ?? '', message: d.message ?? '' } : { code: '', message: '' };
  }
  if (err && typeof err === 'object') {
    const { code, message } = err as { code?: unknown; message?: unknown };
    return {
      code: typeof code === 'string' ? code.replace(/^auth\//, '') : '',
      message: typeof message === 'string' ? message : '',
    };
  }
  return { code: '', message: '' };
}

/** What a maker whose account was disabled is told (the server's own words for account-disabled). */
export const ACCOUNT_DISABLED_MESSAGE = 'This account has been disabled. Contact the operator of this site to have it restored.';

const AUTH_MESSAGES: Record<string, string> = {
  // Local mode answers account-disabled; Firebase says user-disabled.
  'account-disabled': ACCOUNT_DISABLED_MESSAGE,
  'user-disabled': ACCOUNT_DISABLED_MESSAGE,
  'email-already-in-use': 'An account with this email already exists',
  'weak-password': 'Password is too weak',
  'invalid-email': 'Invalid email address',
  'user-not-found': 'No account found with this email',
  'wrong-password': 'Incorrect password',
  // One answer for a wrong password and an unknown email: nobody can probe
  // which emails have accounts (local mode, and Firebase with enumeration protection).
  'invalid-credential': 'Incorrect email or password',
  'invalid-login-credentials': 'Incorrect email or password',
};

// Firebase's own messages read "Firebase: Error (auth/...)"; these codes get
// a sentence instead. Local mode's messages are already sentences.
const FIREBASE_FRIENDLY: Record<string, string> = {
  'too-many-requests': 'Too many attempts. Please wait a few minutes and try again.',
  'network-request-failed': 'No internet connection. Please check your connection and try again.',
  'popup-blocked': 'The sign-in popup was blocked. Please allow popups and try again.',
};

/** Sign-in and sign-up failures; '' for a cancelled popup, which needs no message. */
export function authErrorMessage(err: unknown): string {
  const { code, message } = toAuthFailure(err);
  if (code === 'popup-closed-by-user' || code === 'cancelled-popup-request') return '';
  if (AUTH_MESSAGES[code]) return AUTH_MESSAGES[code];
  if (FIREBASE_FRIENDLY[code] && (!message || message.startsWith('Firebase:'))) return FIREBASE_FRIENDLY[code];
  return message || 'Authentication failed';
}

/** Password reset failures. */
export function resetErrorMessage(err: unknown): string {
  const { code } = toAuthFailure(err);
  if (code === 'user-not-found') return 'No account found with this email address';
  if (code === 'invalid-email') return AUTH_MESSAGES['invalid-email'];
  return 'Failed to send reset email';
}

/** The failure code for analytics ('unknown' when there is none). */
export function failureCode(err: unknown): string {
  return toAuthFailure(err).code || 'unknown';
}
