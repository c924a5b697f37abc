// The one auth hook: screens do not care which identity provider is active.
import { useContext } from 'react';
import { AuthActionsContext, AuthContext, type AuthActions } from './context';
import type { AuthState } from './types';

export type { AppUser, AuthState } from './types';
export type { AuthActions } from './context';

export function useAuth(): AuthState {
  return useContext(AuthContext);
}

/** Sign-in, sign-up and password reset; only inside <AuthProvider>. */
export function useAuthActions(): AuthActions {
  const actions = useContext(AuthActionsContext);
  if (!actions) throw new Error('useAuthActions must be used inside <AuthProvider>');
  return actions;
}
