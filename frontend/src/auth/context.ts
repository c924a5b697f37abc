import { createContext } from 'react';
import type { AuthMode } from '../config';
import type { AccountBackend, AuthState, SignUpResult } from './types';

/** Outside an AuthProvider (isolated component tests) everybody is signed out. */
export const signedOutState: AuthState = {
  user: null,
  firebaseUser: null,
  loading: false,
  token: null,
  signOut: async () => {},
  refreshUser: async () => {},
};

export const AuthContext = createContext<AuthState>(signedOutState);

/** Sign-in actions (the /login screen) and the account screen's changes. */
export interface AuthActions {
  mode: AuthMode;
  /** Each sign-in action resolves once the profile is loaded. */
  signIn(email: string, password: string): Promise<void>;
  signUp(email: string, password: string, displayName: string): Promise<SignUpResult>;
  /** Present in Firebase mode only. */
  signInWithGoogle?: () => Promise<{ isNewUser: boolean }>;
  sendPasswordReset(email: string): Promise<void>;
  /** The account screen's changes to the identity; absent for a backend without them. */
  account?: AccountBackend;
  /** Ends the session of an account the server just deleted, without asking the server. */
  accountDeleted(): Promise<void>;
  verifyEmail(oobCode: string): Promise<{ message: string }>;
  updatePassword(oobCode: string, password: string): Promise<{ message: string }>;
}

export const AuthActionsContext = createContext<AuthActions | null>(null);
