// Build-time prerendering of the public screens (scripts/prerender.mjs runs this in Node after the
// client build). It renders a screen signed out, with a given runtime configuration, and returns
// its markup and the critical CSS emotion generated for it.
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import type { ReactNode } from 'react';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import App from '../App';
import { config } from '../config';
import { preloadRoute } from '../routes';
import type { AuthBackend } from '../auth/types';

export { prerenderedPaths } from '../routes';
export { defaultConfig } from '../config';
export { INERT_ATTR } from '../boot/takeover';

const signedOut: AuthBackend = {
  mode: 'local',
  subscribe: () => () => {},
  currentIdentity: () => null,
  knownSignedOut: () => true,
  getToken: () => Promise.reject(new Error('not signed in')),
  completeRedirect: () => Promise.resolve(null),
} as unknown as AuthBackend;

export interface Rendered {
  html: string;
  styles: string;
}

/** Renders `path` with the configuration this module instance was loaded with. */
export async function render(path: string): Promise<Rendered> {
  const cfg = config;
  await preloadRoute(path);
  const cache = createCache({ key: 'css' });
  const server = createEmotionServer(cache);
  const Router = ({ basename, children }: { basename: string; children: ReactNode }) => (
    <StaticRouter basename={basename} location={(cfg.basePath || '') + path}>
      {children}
    </StaticRouter>
  );
  const html = renderToString(
    <CacheProvider value={cache}>
      <App router={Router} authBackend={signedOut} />
    </CacheProvider>,
  );
  const chunks = server.extractCriticalToChunks(html);
  return { html: chunks.html, styles: server.constructStyleTagsFromChunks(chunks) };
}
