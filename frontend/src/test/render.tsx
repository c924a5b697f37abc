import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { ThemeProvider } from '@mui/material/styles';
import { swrConfig } from '../api/swr';
import { ToastProvider } from '../components/Toast';
import { theme } from '../theme';

/** Renders with the app's providers, a fresh SWR cache and a memory router at `path`. */
export function renderWithProviders(ui: ReactElement, { path = '/' }: { path?: string } = {}) {
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <ThemeProvider theme={theme}>
        <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
          <ToastProvider>
            <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
          </ToastProvider>
        </SWRConfig>
      </ThemeProvider>
    );
  }
  return render(ui, { wrapper: Wrapper });
}

/** A fetch stub answering JSON by URL path; unknown paths get 404. */
export function stubFetch(routes: Record<string, unknown>) {
  const fn = vi.fn(async (input: RequestInfo | URL) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = url.replace(/^https?:\/\/[^/]+/, '').split('?')[0];
    if (path in routes) {
      return new Response(JSON.stringify(routes[path]), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }
    return new Response('{"error":{"code":"NOT_FOUND","message":"not found"}}', { status: 404, statusText: 'Not Found' });
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}
