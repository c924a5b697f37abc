import { Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { SWRConfig } from 'swr';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { config } from './config';
import { theme } from './theme';
import { swrConfig } from './api/swr';
import { ToastProvider } from './components/Toast';
import { AppLayout } from './components/AppLayout';
import { ErrorBoundary } from './components/ErrorBoundary';
import { PageLoader } from './components/PageLoader';
import { ConsentBanner } from './components/ConsentBanner';
import { RouteAnalytics } from './components/RouteAnalytics';
import { AuthProvider } from './auth/AuthProvider';
import type { AuthBackend } from './auth/types';
import { routeElement, routes } from './routes';

/** Calls onCommit once what is beside it has been committed (hydrated, on a prerendered page). */
function Committed({ onCommit }: { onCommit: () => void }) {
  useEffect(onCommit, [onCommit]);
  return null;
}

/** All routes of the app: public, signed-in and legal screens. */
export function AppRoutes({ onHydrated }: { onHydrated?: () => void }) {
  // The screen hydrates after the frame around it (a Suspense boundary is hydrated on its own):
  // the screen's controls answer once this boundary has committed.
  return (
    <Suspense fallback={<PageLoader />}>
      <Routes>
        {routes.map((r) => (
          <Route key={r.path} path={r.path} element={routeElement(r)} />
        ))}
      </Routes>
      {onHydrated && <Committed onCommit={onHydrated} />}
    </Suspense>
  );
}

type RouterComponent = ComponentType<{ basename: string; children: ReactNode }>;

interface AppProps {
  /** BrowserRouter in the browser; a StaticRouter when prerendering. */
  router?: RouterComponent;
  authBackend?: AuthBackend;
  /** Called once the screen is hydrated (the page was prerendered) or first rendered. */
  onHydrated?: () => void;
}

export default function App({ router: Router = BrowserRouter, authBackend, onHydrated }: AppProps) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      <SWRConfig value={swrConfig}>
        <ToastProvider>
          <AuthProvider backend={authBackend}>
            <Router basename={config.basePath || '/'}>
              <RouteAnalytics />
              <ConsentBanner />
              {/* The outer boundary catches errors of the frame itself. */}
              <ErrorBoundary>
                <AppLayout>
                  <ErrorBoundary>
                    <AppRoutes onHydrated={onHydrated} />
                  </ErrorBoundary>
                </AppLayout>
              </ErrorBoundary>
            </Router>
          </AuthProvider>
        </ToastProvider>
      </SWRConfig>
    </ThemeProvider>
  );
}
