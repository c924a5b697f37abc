// The address bar is read by every script on the page (analytics among them), kept in the history
// and handed on as a referrer. One-time codes therefore leave it before anything else runs: the
// oobCode of a reset or verification link (with the mode, apiKey and the rest of a Firebase action
// link) and every parameter named like a code, token, secret, key or signature (e.g. the client
// secret Stripe appends after a bank redirect). The code of a /login link is kept in memory for the
// sign-in screen.
import { config } from './config';

/** The mode and one-time code of a reset or verification link. */
export interface ActionLink {
  mode: string;
  oobCode: string;
}

// What a Firebase action link carries besides its code.
const ACTION_LINK_PARAMS = ['mode', 'oobCode', 'apiKey', 'continueUrl', 'lang', 'tenantId'];

/** Whether a query parameter's name says it holds a secret. */
export function isSecretParam(name: string): boolean {
  return /(code|token|secret|key|sig|signature|password)$/i.test(name);
}

/** The action link in `params`, or null. */
export function actionLinkOf(params: URLSearchParams): ActionLink | null {
  const oobCode = params.get('oobCode');
  return oobCode ? { mode: params.get('mode') ?? '', oobCode } : null;
}

let captured: ActionLink | null = null;

/** The action link this page was opened with on /login, read before it left the address bar. */
export function capturedActionLink(): ActionLink | null {
  return captured;
}

/** Forgets the captured action link: its code works once. */
export function forgetActionLink(): void {
  captured = null;
}

// Drops the secret parameters of a query string or fragment; true when something was dropped.
function dropSecrets(params: URLSearchParams): boolean {
  const secret = [...params.keys()].filter(isSecretParam);
  secret.forEach((name) => params.delete(name));
  return secret.length > 0;
}

/** Takes one-time codes out of the address bar (history.replaceState), keeping the rest. */
export function scrubAddressBar(): void {
  if (typeof window === 'undefined') return;
  const url = new URL(window.location.href);
  const query = url.searchParams;
  let changed = false;
  const link = actionLinkOf(query);
  if (link) {
    if (url.pathname.slice(config.basePath.length) === '/login') captured = link;
    ACTION_LINK_PARAMS.forEach((name) => query.delete(name));
    changed = true;
  }
  changed = dropSecrets(query) || changed;
  let hash = url.hash;
  if (hash.includes('=')) {
    const fragment = new URLSearchParams(hash.slice(1));
    if (dropSecrets(fragment)) {
      hash = fragment.toString() ? `#${fragment}` : '';
      changed = true;
    }
  }
  if (!changed) return;
  const search = query.toString();
  window.history.replaceState(window.history.state, '', `${url.pathname}${search ? `?${search}` : ''}${hash}`);
}
