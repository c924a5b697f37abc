// A session that ended by itself (it expired, or the server refused it) rather than by the maker's
// own sign-out: the sign-in screen then says so, and the maker comes back to what they were doing.
const KEY = 'layerfix.sessionEnded';

export function markSessionEnded(): void {
  try {
    sessionStorage.setItem(KEY, '1');
  } catch {
    // Storage disabled: the sign-in screen shows no reason.
  }
}

export function sessionEnded(): boolean {
  try {
    return sessionStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

export function forgetSessionEnded(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing stored.
  }
}
