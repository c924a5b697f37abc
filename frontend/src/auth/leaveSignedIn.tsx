// Signing out on purpose (the menu's Sign Out, a deleted account) goes to / first and signs out
// once / is on screen. Router navigations are React transitions: an identity cleared before / is
// rendered would render the screen being left once more, signed out, and its guard would send the
// maker to /login.
import { useCallback, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

type Finish = () => Promise<void> | void;

// The sign-out waiting for /; kept in memory only, so a reload or Back never signs anyone out.
let pending: Finish | null = null;

/** Goes to / (replacing the current entry when `replace`), then runs `finish` there. */
export function useLeaveSignedIn(): (finish: Finish, options?: { replace?: boolean }) => void {
  const navigate = useNavigate();
  return useCallback(
    (finish, { replace = false } = {}) => {
      pending = finish;
      // The state tells / not to send the (still signed-in) maker to their issue form.
      navigate('/', { replace, state: { signingOut: true } });
    },
    [navigate],
  );
}

/** Mounted once inside the router: runs the waiting sign-out once / is rendered. */
export function FinishSignOut() {
  const location = useLocation();
  useEffect(() => {
    if (location.pathname !== '/' || !pending) return;
    const finish = pending;
    pending = null;
    void finish();
  }, [location]);
  return null;
}
