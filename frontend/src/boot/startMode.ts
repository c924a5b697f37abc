// How the app starts on this page load, decided by the entry before any of the app's code loads.
import { analyticsConfigured } from '../analytics';
import { mayBeSignedIn } from '../auth/sessionHint';
import type { RuntimeConfig } from '../config';

/**
 * - 'mount': a plain page (no prerendered screen): the app renders at once.
 * - 'replace': the screen is prerendered, but the app's first screen here differs from it (a session
 *   may be stored, or the analytics consent and settings belong on the page): the app loads after
 *   the first paint and replaces the page.
 * - 'hydrate': the prerendered page is what the app would show: nothing more loads until someone
 *   is on the page, then the app takes it over in place.
 */
export type StartMode = 'mount' | 'replace' | 'hydrate';

export function startMode(
  root: HTMLElement,
  cfg: Pick<RuntimeConfig, 'authMode' | 'gaMeasurementId' | 'metaPixelId'>,
  storage: Pick<Storage, 'getItem'> = window.localStorage,
): StartMode {
  if (!root.firstElementChild) return 'mount';
  if (mayBeSignedIn(cfg.authMode, storage) || analyticsConfigured(cfg)) return 'replace';
  return 'hydrate';
}
