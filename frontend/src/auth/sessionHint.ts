// Where each identity backend keeps its session on this device. The entry reads these keys, without
// loading any auth code, to tell whether a visitor may be signed in: a signed-in visitor's first
// screen differs from a prerendered (signed-out) page, so the app must start at once.
import type { AuthMode } from '../config';

/** Local accounts: the session token, its expiry and the identity (localBackend). */
export const SESSION_STORAGE_KEY = 'layerfix.session';
/** Firebase: set while the SDK has (or is completing) a session; the SDK's own store is async. */
export const FIREBASE_SESSION_HINT_KEY = 'layerfix.firebase.signedIn';

/** False only when it is certain that nobody is signed in on this device. */
export function mayBeSignedIn(mode: AuthMode, storage: Pick<Storage, 'getItem'> = window.localStorage): boolean {
  try {
    return storage.getItem(mode === 'firebase' ? FIREBASE_SESSION_HINT_KEY : SESSION_STORAGE_KEY) !== null;
  } catch {
    return true; // storage unavailable: assume a session so the app decides
  }
}
