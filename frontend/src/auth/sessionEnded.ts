// A session that ended by itself (it expired, the server refused it, or the account was disabled)
// rather than by the maker's own sign-out: the sign-in screen then says why, and the maker comes
// back to what they were doing.
const KEY = 'layerfix.sessionEnded';
const DISABLED = 'disabled';

/** Why the session ended: 'ended' (expired or refused) or 'disabled' (the account was disabled). */
export type SessionEndReason = 'ended' | 'disabled';

export function markSessionEnded(reason: SessionEndReason = 'ended'): void {
  try {
    sessionStorage.setItem(KEY, reason === 'disabled' ? DISABLED : '1');
  } catch {
    // Storage disabled: the sign-in screen shows no reason.
  }
}

/** Why the last session ended by itself, or null when it did not. */
export function sessionEndReason(): SessionEndReason | null {
  try {
    const v = sessionStorage.getItem(KEY);
    if (v === DISABLED) return 'disabled';
    return v === '1' ? 'ended' : null;
  } catch {
    return null;
  }
}

export function forgetSessionEnded(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing stored.
  }
}
