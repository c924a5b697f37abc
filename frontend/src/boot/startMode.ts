// How the app starts on this page load, decided by the entry before any of the app's code loads.
import { analyticsConfigured } from '../analytics';
import { mayBeSignedIn } from '../auth/sessionHint';
import type { RuntimeConfig } from '../config';

/**
 * - 'mount': a plain page (no prerendered screen): the app renders at once.
 * - 'replace': the screen is prerendered, but the app's first screen here differs from it (accounts
 *   are Firebase's, a session may be stored, the analytics consent and settings belong on the page, or this tab holds what
 *   the app shows: a draft, a notice carried by the navigation): the app loads after the first
 *   paint and replaces the page.
 * - 'hydrate': the prerendered page is what the app would show: nothing more loads until someone
 *   is on the page, then the app takes it over in place.
 */
export type StartMode = 'mount' | 'replace' | 'hydrate';

export function startMode(
  root: HTMLElement,
  cfg: Pick<RuntimeConfig, 'authMode' | 'gaMeasurementId' | 'metaPixelId'>,
  storage: Pick<Storage, 'getItem'> = window.localStorage,
  tabStorage: Pick<Storage, 'length'> | null = safeSessionStorage(),
  historyState: unknown = window.history.state,
): StartMode {
  if (!root.firstElementChild) return 'mount';
  // The screens are prerendered with the built-in accounts: with Firebase the sign-in screens
  // differ (Continue with Google, the identity provider's messages).
  if (cfg.authMode !== 'local') return 'replace';
  if (mayBeSignedIn(cfg.authMode, storage) || analyticsConfigured(cfg)) return 'replace';
  if (holdsAppState(tabStorage) || carriesRouteState(historyState)) return 'replace';
  return 'hydrate';
}

function safeSessionStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * Whether this tab's session storage holds anything: only the app writes there (a draft, results,
 * a notice), and a visitor's first page in a tab finds it empty.
 */
function holdsAppState(tabStorage: Pick<Storage, 'length'> | null): boolean {
  return (tabStorage?.length ?? 0) > 0;
}

/** Whether the history entry carries the router's state (a reload keeps it): a screen may show it. */
function carriesRouteState(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'usr' in state && state.usr != null;
}
