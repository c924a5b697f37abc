// The app's side of start-up, loaded by the entry (main.tsx) once the app is wanted.
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import App from '../App';
import { config } from '../config';
import { preloadRoute } from '../routes';
import type { StartMode } from './startMode';

export async function startApp(root: HTMLElement, mode: StartMode, onHydrated: () => void = () => {}): Promise<void> {
  // Handing over what was typed meanwhile dispatches events the app must answer with a render,
  // which React defers while it is still running effects: the hand-over runs in a task of its own.
  const hydrated = () => void setTimeout(onHydrated, 0);
  const app = (
    <StrictMode>
      <App onHydrated={mode === 'hydrate' ? hydrated : undefined} />
    </StrictMode>
  );
  if (mode === 'mount') {
    createRoot(root).render(app);
    return;
  }
  // A prerendered page is on screen: load its screen first, so the first commit shows the same
  // screen rather than a loader.
  await preloadRoute(window.location.pathname.slice(config.basePath.length) || '/').catch(() => {});
  if (mode === 'replace') {
    createRoot(root).render(app);
    return;
  }
  // Hydration as a transition works in slices, so a tap or a key press is answered in between.
  startTransition(() => {
    hydrateRoot(root, app);
  });
}
