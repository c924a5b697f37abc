// Data hooks of the workspace screens. Lists are fetched only when signed in.
import useSWR from 'swr';
import useSWRInfinite from 'swr/infinite';
import { getPrinters, type Issue, type Printer } from '../../api/client';
import { pageQuery, type IssueFilters } from './issueFilters';
import { useAuth } from '../../auth/useAuth';
import { STATS_KEY } from './history';

export const PRINTERS_KEY = '/api/printers';
export const ISSUES_KEY = '/api/issues';
export const SUMMARY_KEY = '/api/issues/summary';
export const PAGE_SIZE = 50;

// usePrinters: any failure is an empty list.
export function usePrinters() {
  const { user } = useAuth();
  const { data, isLoading, mutate } = useSWR<Printer[]>(user ? PRINTERS_KEY : null, getPrinters);
  return { printers: data ?? [], loading: isLoading || (data === undefined && Boolean(user)), mutate };
}

export interface IssueSummary {
  total: number;
  open: number;
  pending: number;
  inProgress: number;
  resolved: number;
  recent: Issue[];
}

// useIssueSummary: the dashboard's counts and newest issues, however long the log is.
export function useIssueSummary() {
  const { user } = useAuth();
  const { data, error, isLoading } = useSWR<IssueSummary>(user ? SUMMARY_KEY : null);
  return { summary: data, error: error as Error | undefined, loading: isLoading || (data === undefined && !error && Boolean(user)) };
}

interface IssuePage {
  items: Issue[];
  nextCursor: string | null;
  total: number;
}

// useIssuePages: the issue log a page at a time, filtered by the server. The pages are fetched
// again whenever the screen mounts, so a change made on another screen always shows.
// `pages` is how many pages to show at first: as many as the maker had open when they left the list.
export function useIssuePages(filters: IssueFilters, pages = 1) {
  const { user } = useAuth();
  const query = pageQuery(filters, PAGE_SIZE);
  const { data, error, isLoading, isValidating, size, setSize } = useSWRInfinite<IssuePage>(
    (index, prev: IssuePage | null) => {
      if (!user || (prev && !prev.nextCursor)) return null;
      return index === 0 ? `${ISSUES_KEY}?${query}` : `${ISSUES_KEY}?${query}&cursor=${encodeURIComponent(prev!.nextCursor!)}`;
    },
    { revalidateOnMount: true, revalidateFirstPage: true, initialSize: pages },
  );
  const loaded = data ?? [];
  const last = loaded[loaded.length - 1];
  return {
    issues: loaded.flatMap((p) => p.items),
    total: loaded[0]?.total ?? 0,
    error: error as Error | undefined,
    loading: isLoading || (data === undefined && !error && Boolean(user)),
    hasMore: Boolean(last?.nextCursor),
    loadingMore: isValidating && size > loaded.length,
    loadMore: () => void setSize(size + 1),
  };
}

type Mutate = (key: string, data?: undefined, opts?: { revalidate: boolean }) => Promise<unknown>;

// revalidateIssues drops everything derived from the issue log after a change made on another
// screen: with the SWR defaults (never stale) the next screen would otherwise show the old data.
// (The Issues screen's pages refetch on mount.)
export function revalidateIssues(mutate: Mutate): void {
  void mutate(ISSUES_KEY, undefined, { revalidate: true });
  void mutate(SUMMARY_KEY, undefined, { revalidate: true });
  void mutate(STATS_KEY, undefined, { revalidate: true });
}
