import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { SIGNED_OUT_ERROR } from '../features/troubleshoot/errors';
import { markSessionEnded } from './sessionEnded';
import { useAuth } from './useAuth';

// useEndSession handles a request the server refused because the session is gone (HTTP 401): the
// maker is signed out here too and sent to sign in again, told why, and brought back to the issue
// form afterwards, where their draft is waiting.
export function useEndSession(): () => void {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  return useCallback(() => {
    markSessionEnded();
    void signOut().finally(() =>
      navigate('/login', { replace: true, state: { from: { pathname: '/report-issue' }, notice: SIGNED_OUT_ERROR, signedOut: true } }),
    );
  }, [navigate, signOut]);
}
