import { lazy, Suspense } from 'react';
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
import { ProtectedRoute } from './auth/ProtectedRoute';
import Home from './pages/Home';

// The landing screen is in the main chunk; every other screen loads on demand.
const Features = lazy(() => import('./pages/Features'));
const Pricing = lazy(() => import('./pages/Pricing'));
const Subscribe = lazy(() => import('./pages/Subscribe'));
const PrivacyPolicy = lazy(() => import('./pages/PrivacyPolicy'));
const TermsOfService = lazy(() => import('./pages/TermsOfService'));
const Login = lazy(() => import('./pages/Login'));
const Dashboard = lazy(() => import('./pages/Dashboard'));
const ReportIssue = lazy(() => import('./pages/ReportIssue'));
const Issues = lazy(() => import('./pages/Issues'));
const TroubleshootingResults = lazy(() => import('./pages/TroubleshootingResults'));
const SharedGuide = lazy(() => import('./pages/SharedGuide'));
const NotFound = lazy(() => import('./pages/NotFound'));

/** All routes of SPEC section 2. */
export function AppRoutes() {
  return (
    <Suspense fallback={<PageLoader />}>
      <Routes>
        <Route path="/" element={<Home />} />
        <Route path="/preview" element={<Home />} />
        <Route path="/features" element={<Features />} />
        <Route path="/pricing" element={<Pricing />} />
        <Route path="/subscribe" element={<ProtectedRoute><Subscribe /></ProtectedRoute>} />
        <Route path="/privacy-policy" element={<PrivacyPolicy />} />
        <Route path="/terms-of-service" element={<TermsOfService />} />
        <Route path="/login" element={<Login />} />
        <Route path="/dashboard" element={<ProtectedRoute><Dashboard /></ProtectedRoute>} />
        <Route path="/report-issue" element={<ProtectedRoute><ReportIssue /></ProtectedRoute>} />
        <Route path="/issues" element={<ProtectedRoute><Issues /></ProtectedRoute>} />
        <Route path="/troubleshooting-results" element={<TroubleshootingResults />} />
        <Route path="/share/:shareId" element={<SharedGuide />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Suspense>
  );
}

export default function App() {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      <SWRConfig value={swrConfig}>
        <ToastProvider>
          <AuthProvider>
            <BrowserRouter basename={config.basePath || '/'}>
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
            </BrowserRouter>
          </AuthProvider>
        </ToastProvider>
      </SWRConfig>
    </ThemeProvider>
  );
}
