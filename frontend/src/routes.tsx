// The route table of the app, and the screens behind it. Every screen but the landing one
// loads on demand; a screen can be loaded ahead (preloadRoute) so a prerendered page is replaced by
// the same screen in one commit, with no loader in between (lazyPage.tsx).
import type { ComponentType, ReactElement } from 'react';
import { matchPath } from 'react-router-dom';
import { ProtectedRoute } from './auth/ProtectedRoute';
import Home from './pages/Home';
import { lazyPage, ResultsPage, type Page } from './lazyPage';

function eager(C: ComponentType): Page {
  const page = () => <C />;
  page.preload = () => Promise.resolve();
  return page;
}

const HomePage = eager(Home);
const Features = lazyPage(() => import('./pages/Features'));
const Pricing = lazyPage(() => import('./pages/Pricing'));
const Subscribe = lazyPage(() => import('./pages/Subscribe'));
const PrivacyPolicy = lazyPage(() => import('./pages/PrivacyPolicy'));
const TermsOfService = lazyPage(() => import('./pages/TermsOfService'));
const Login = lazyPage(() => import('./pages/Login'));
const Dashboard = lazyPage(() => import('./pages/Dashboard'));
const ReportIssue = lazyPage(() => import('./pages/ReportIssue'));
const Issues = lazyPage(() => import('./pages/Issues'));
const Account = lazyPage(() => import('./pages/Account'));
const TroubleshootingResults = ResultsPage;
const IssueResults = lazyPage(() => import('./pages/IssueResults'));
const SharedGuide = lazyPage(() => import('./pages/SharedGuide'));
const NotFound = lazyPage(() => import('./pages/NotFound'));

export interface RouteDef {
  path: string;
  page: Page;
  signedIn?: boolean;
}

/** All routes of the app, /account included, in matching order ('*' last). */
export const routes: RouteDef[] = [
  { path: '/', page: HomePage },
  { path: '/preview', page: HomePage },
  { path: '/features', page: Features },
  { path: '/pricing', page: Pricing },
  { path: '/subscribe', page: Subscribe, signedIn: true },
  { path: '/privacy-policy', page: PrivacyPolicy },
  { path: '/terms-of-service', page: TermsOfService },
  { path: '/login', page: Login },
  { path: '/dashboard', page: Dashboard, signedIn: true },
  { path: '/report-issue', page: ReportIssue, signedIn: true },
  { path: '/issues', page: Issues, signedIn: true },
  { path: '/issues/:id', page: IssueResults, signedIn: true },
  { path: '/account', page: Account, signedIn: true },
  { path: '/troubleshooting-results', page: TroubleshootingResults },
  { path: '/share/:shareId', page: SharedGuide },
  { path: '*', page: NotFound },
];

/** The element a route renders. */
export function routeElement(r: RouteDef): ReactElement {
  const Page = r.page;
  return r.signedIn ? (
    <ProtectedRoute>
      <Page />
    </ProtectedRoute>
  ) : (
    <Page />
  );
}

/** Loads the screen of `pathname` (relative to the base path) ahead of the first render. */
export function preloadRoute(pathname: string): Promise<void> {
  const r = routes.find((d) => matchPath(d.path, pathname));
  return r ? r.page.preload() : Promise.resolve();
}

/** Public screens prerendered at build time (served as HTML before the app's JavaScript runs). */
export const prerenderedPaths = ['/', '/preview', '/features', '/pricing', '/login', '/privacy-policy', '/terms-of-service'];
