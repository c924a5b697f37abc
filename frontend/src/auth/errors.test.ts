import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { authErrorMessage, failureCode, resetErrorMessage } from './errors';

const api = (status: number, code: string, message: string) =>
  new ApiError(status, 'x', JSON.stringify({ error: { code, message } }));
const firebase = (code: string) => Object.assign(new Error(`Firebase: Error (${code}).`), { code });

describe('authentication messages', () => {
  it.each([
    ['auth/email-already-in-use', 'An account with this email already exists'],
    ['auth/weak-password', 'Password is too weak'],
    ['auth/invalid-email', 'Invalid email address'],
    ['auth/user-not-found', 'No account found with this email'],
    ['auth/wrong-password', 'Incorrect password'],
    ['auth/invalid-credential', 'Incorrect email or password'],
    ['auth/too-many-requests', 'Too many attempts. Please wait a few minutes and try again.'],
  ])('Firebase %s → %s', (code, message) => {
    expect(authErrorMessage(firebase(code))).toBe(message);
  });

  it('maps local error codes the same way, and never tells which emails exist', () => {
    expect(authErrorMessage(api(409, 'email-already-in-use', 'dup'))).toBe('An account with this email already exists');
    expect(authErrorMessage(api(400, 'weak-password', 'Password is too common'))).toBe('Password is too weak');
    expect(authErrorMessage(api(401, 'invalid-credential', 'whatever'))).toBe('Incorrect email or password');
  });

  it("shows the provider's message for other codes, else 'Authentication failed'", () => {
    expect(authErrorMessage(api(429, 'too-many-requests', 'Too many failed sign-in attempts.'))).toBe(
      'Too many failed sign-in attempts.',
    );
    expect(authErrorMessage(new ApiError(502, 'Bad Gateway', ''))).toBe('Authentication failed');
    expect(authErrorMessage(null)).toBe('Authentication failed');
  });

  it('says nothing when the user closes the Google popup', () => {
    expect(authErrorMessage(firebase('auth/popup-closed-by-user'))).toBe('');
  });

  it('maps reset failures', () => {
    expect(resetErrorMessage(firebase('auth/user-not-found'))).toBe('No account found with this email address');
    expect(resetErrorMessage(api(500, 'INTERNAL', 'db down'))).toBe('Failed to send reset email');
    expect(resetErrorMessage(new TypeError('Failed to fetch'))).toBe('Failed to send reset email');
  });

  it('gives analytics a failure code', () => {
    expect(failureCode(firebase('auth/wrong-password'))).toBe('wrong-password');
    expect(failureCode(new Error('x'))).toBe('unknown');
  });
});
