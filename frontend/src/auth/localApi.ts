// Calls of the built-in local accounts (LAYERFIX_AUTH_MODE=local).
import { apiRequest } from '../api/client';
import type { UserProfile } from '../api/types';

export interface LocalSession {
  token: string;
  /** RFC 3339 time. */
  expiresAt: string;
  user: UserProfile & { emailVerified?: boolean };
}

async function post<T>(url: string, body: unknown, headers?: Record<string, string>): Promise<T> {
  const res = await apiRequest('POST', url, body, { headers });
  return (await res.json()) as T;
}

export const localSignup = (email: string, password: string, displayName: string): Promise<LocalSession> =>
  post('/api/auth/signup', { email, password, displayName });

export const localLogin = (email: string, password: string): Promise<LocalSession> =>
  post('/api/auth/login', { email, password });

/** Revokes the session of `token` on the server. */
export async function localLogout(token: string): Promise<void> {
  await apiRequest('POST', '/api/auth/logout', undefined, { headers: { Authorization: `Bearer ${token}` } });
}

/** Always 202; emailEnabled tells whether a link was (possibly) emailed. */
export const localPasswordReset = (email: string): Promise<{ emailEnabled: boolean }> =>
  post('/api/auth/password-reset', { email });

/** Sets a new password with the code of a reset link. */
export const localPasswordUpdate = (oobCode: string, password: string): Promise<{ message: string }> =>
  post('/api/auth/password-update', { oobCode, password });

/** Confirms the email with the code of a verification link. */
export const localVerifyEmail = (oobCode: string): Promise<{ message: string }> =>
  post('/api/auth/verify-email', { oobCode });
