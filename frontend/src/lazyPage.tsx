// Screens loaded on demand. A screen's code can fail to load (offline, a server restarting, a
// flaky phone connection): the import is tried again a few times, and a failure is not kept, so
// the next render (the error screen's 'Try Again', or coming back to the screen) loads it afresh.
import { lazy, type ComponentType, type ReactElement } from 'react';

export interface Page {
  (): ReactElement;
  preload(): Promise<void>;
}

/** Pauses between the tries of a failed import. */
export const IMPORT_RETRY_DELAYS_MS = [400, 1200];

/** Runs `load`, and again after each delay while it fails. */
export async function importWithRetry<T>(load: () => Promise<T>, delays: readonly number[] = IMPORT_RETRY_DELAYS_MS): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await load();
    } catch (err) {
      if (attempt >= delays.length) throw err;
      await new Promise((resolve) => setTimeout(resolve, delays[attempt]));
    }
  }
}

/** A lazily loaded screen that renders at once, without suspending, once preloaded. */
export function lazyPage(load: () => Promise<{ default: ComponentType }>, delays: readonly number[] = IMPORT_RETRY_DELAYS_MS): Page {
  let loaded: ComponentType | null = null;
  let loading: Promise<ComponentType> | null = null;
  const fetchScreen = (): Promise<ComponentType> => {
    loading ??= importWithRetry(load, delays).then(
      (m) => (loaded = m.default),
      (err: unknown) => {
        // React keeps a lazy component's failure for good: the next render gets a fresh one.
        loading = null;
        Lazy = fresh();
        throw err;
      },
    );
    return loading;
  };
  const fresh = () => lazy(() => fetchScreen().then((C) => ({ default: C })));
  let Lazy = fresh();
  const page = () => {
    const Screen = loaded ?? Lazy;
    return <Screen />;
  };
  page.preload = () => fetchScreen().then(() => undefined);
  return page;
}

/** The results screen, which the issue forms load before they send an analysis. */
export const ResultsPage = lazyPage(() => import('./pages/TroubleshootingResults'));
