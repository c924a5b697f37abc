import type { SWRConfiguration } from 'swr';
import { swrFetcher } from './client';

/** SWR defaults of SPEC section 7: no retry, no focus refetch, no polling, never stale. */
export const swrConfig: SWRConfiguration = {
  fetcher: swrFetcher,
  shouldRetryOnError: false,
  revalidateOnFocus: false,
  refreshInterval: 0,
  revalidateIfStale: false,
  revalidateOnReconnect: false,
};
