import type { SWRConfiguration } from 'swr';
import { swrFetcher } from './client';

/** SWR defaults: no retry, no focus refetch, no polling, never stale. */
export const swrConfig: SWRConfiguration = {
  fetcher: swrFetcher,
  shouldRetryOnError: false,
  revalidateOnFocus: false,
  refreshInterval: 0,
  revalidateIfStale: false,
  revalidateOnReconnect: false,
};
