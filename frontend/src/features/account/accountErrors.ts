// Failures of the account screen's changes, from the server (one JSON error shape, with a message
// per field) or from Firebase (auth/... codes), as a message per form field and one for the form.
import { toAuthFailure } from '../../auth/errors';
import { ApiError } from '../../api/client';

export interface FormFailure {
  /** Messages by the form's field names. */
  fields: Record<string, string>;
  /** A message for the whole form, '' when the fields say it all. */
  message: string;
}

// Firebase's codes, by the field they are about.
const FIREBASE_FIELDS: Record<string, [field: 'current' | 'new' | 'email', message: string]> = {
  'wrong-password': ['current', 'Incorrect password'],
  'invalid-credential': ['current', 'Incorrect password'],
  'invalid-login-credentials': ['current', 'Incorrect password'],
  'missing-password': ['current', 'Enter your current password.'],
  'weak-password': ['new', 'Password is too weak'],
  'password-does-not-meet-requirements': ['new', 'Password is too weak'],
  'email-already-in-use': ['email', 'An account with this email already exists'],
  'invalid-email': ['email', 'Invalid email address'],
  'invalid-new-email': ['email', 'Invalid email address'],
};

const FIREBASE_MESSAGES: Record<string, string> = {
  'too-many-requests': 'Too many attempts. Please wait a few minutes and try again.',
  'network-request-failed': 'No internet connection. Please check your connection and try again.',
  'requires-recent-login': 'For your safety, please sign in again and retry.',
  'operation-not-allowed': 'This change needs the email address to be verified first. Check your inbox for the verification link.',
  'user-mismatch': 'That is not the account you are signed in with.',
};

/**
 * Maps a failure to the form's fields. `names` gives the form's name for the server's field names
 * and for Firebase's current password, new password and email.
 */
export function formFailure(
  err: unknown,
  names: { current?: string; new?: string; email?: string; server?: Record<string, string> },
  fallback: string,
): FormFailure {
  if (err instanceof ApiError) {
    const d = err.details;
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries(d?.fields ?? {})) fields[names.server?.[k] ?? k] = v;
    return { fields, message: Object.keys(fields).length > 0 ? '' : d?.message || fallback };
  }
  const { code, message } = toAuthFailure(err);
  if (code === 'popup-closed-by-user' || code === 'cancelled-popup-request') return { fields: {}, message: '' };
  const known = FIREBASE_FIELDS[code];
  if (known && names[known[0]]) return { fields: { [names[known[0]]!]: known[1] }, message: '' };
  if (known) return { fields: {}, message: known[1] };
  if (FIREBASE_MESSAGES[code]) return { fields: {}, message: FIREBASE_MESSAGES[code] };
  if (err instanceof TypeError) return { fields: {}, message: 'No internet connection. Please check your connection and try again.' };
  return { fields: {}, message: message && !message.startsWith('Firebase:') ? message : fallback };
}
