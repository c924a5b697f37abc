// The route guard of the signed-in screens: signed out, they go to /login.
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { SIGNED_OUT_ERROR } from '../features/troubleshoot/errors';
import { ACCOUNT_DISABLED_MESSAGE } from './errors';
import { sessionEndReason } from './sessionEnded';
import { useAuth } from './useAuth';

/** A spinner over the whole screen with a short text. */
export function FullScreenLoader({ text }: { text: string }) {
  return (
    <Box
      role="status"
      aria-live="polite"
      sx={{
        position: 'fixed',
        inset: 0,
        zIndex: (t) => t.zIndex.appBar + 1,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 2,
        bgcolor: 'background.default',
      }}
    >
      <CircularProgress aria-label="Loading" />
      <Typography color="text.secondary">{text}</Typography>
    </Box>
  );
}

/**
 * Shows `children` to a signed-in user. While authentication loads it shows
 * 'Loading...'; when the identity is known but the profile is not (yet), 'Loading
 * user data...'; a visitor without a user goes to /login.
 */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const { user, firebaseUser, loading } = useAuth();
  const location = useLocation();
  if (loading) return <FullScreenLoader text="Loading..." />;
  if (!user && !firebaseUser) {
    // A session that ended by itself says why; the screen's form keeps its draft for the next sign-in.
    const reason = sessionEndReason();
    const state =
      reason === 'disabled'
        ? { from: location, notice: ACCOUNT_DISABLED_MESSAGE, signedOut: true, disabled: true }
        : reason
          ? { from: location, notice: SIGNED_OUT_ERROR, signedOut: true }
          : { from: location };
    return <Navigate to="/login" replace state={state} />;
  }
  if (!user) return <FullScreenLoader text="Loading user data..." />;
  return <>{children}</>;
}
