// Data hooks of the workspace screens. Lists are fetched only when signed in (SPEC section 6).
import useSWR from 'swr';
import { getPrinters, type Issue, type Printer } from '../../api/client';
import { useAuth } from '../../auth/useAuth';
import { STATS_KEY } from './history';

export const PRINTERS_KEY = '/api/printers';
export const ISSUES_KEY = '/api/issues';

// usePrinters: any failure is an empty list (SPEC section 7).
export function usePrinters() {
  const { user } = useAuth();
  const { data, isLoading, mutate } = useSWR<Printer[]>(user ? PRINTERS_KEY : null, getPrinters);
  return { printers: data ?? [], loading: isLoading || (data === undefined && Boolean(user)), mutate };
}

// useIssues keeps the error so /issues can show its error card; the dashboard ignores it.
export function useIssues() {
  const { user } = useAuth();
  const { data, error, isLoading, mutate } = useSWR<Issue[]>(user ? ISSUES_KEY : null);
  return {
    issues: Array.isArray(data) ? data : [],
    error: error as Error | undefined,
    loading: isLoading || (data === undefined && !error && Boolean(user)),
    mutate,
  };
}

type Mutate = (key: string, data?: undefined, opts?: { revalidate: boolean }) => Promise<unknown>;

// revalidateIssues drops everything derived from the issue log after a change made on another
// screen: with the SWR defaults (never stale) the next screen would otherwise show the old list.
export function revalidateIssues(mutate: Mutate): void {
  void mutate(ISSUES_KEY, undefined, { revalidate: true });
  void mutate(STATS_KEY, undefined, { revalidate: true });
}
