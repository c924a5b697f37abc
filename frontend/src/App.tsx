import { Suspense, type ComponentType, type ReactNode } from 'react';
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

/** All routes of the app: public, signed-in and legal screens. */
export function AppRoutes() {
  return (
    <Suspense fallback={<PageLoader />}>
      <Routes>
        {routes.map((r) => (
          <Route key={r.path} path={r.path} element={routeElement(r)} />
        ))}
      </Routes>
    </Suspense>
  );
}

type RouterComponent = ComponentType<{ basename: string; children: ReactNode }>;

interface AppProps {
  /** BrowserRouter in the browser; a StaticRouter when prerendering. */
  router?: RouterComponent;
  authBackend?: AuthBackend;
}

export default function App({ router: Router = BrowserRouter, authBackend }: AppProps) {
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
                    <AppRoutes />
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
