import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { trackPageView } from '../analytics';

/**
 * Sends a route-change event on every navigation, by route template only (no query string: reset
 * codes and share ids never leave); a no-op without ids or consent.
 */
export function RouteAnalytics() {
  const { pathname } = useLocation();
  useEffect(() => {
    trackPageView(pathname);
  }, [pathname]);
  return null;
}
