import useSWR from 'swr';
import type { PublicUsage } from '../../api/client';
import { config } from '../../config';

export const PUBLIC_USAGE_KEY = '/api/public-usage';

export interface PublicUsageState {
  used: number | undefined;
  limit: number;
  limitReached: boolean;
  isLoading: boolean;
  /** When this month's free analyses return, as the server says (RFC 3339). */
  resetsAt?: string;
}

// usePublicUsage is this visitor's anonymous allowance. It refetches whenever a screen showing it
// mounts: the count changes on the server with every analysis.
export function usePublicUsage(): PublicUsageState {
  const { data, isLoading } = useSWR<PublicUsage>(PUBLIC_USAGE_KEY, { revalidateOnMount: true });
  const limit = config.anonMonthlyLimit;
  const used = data?.currentUsage;
  return { used, limit, limitReached: used !== undefined && used >= limit, isLoading, resetsAt: data?.resetsAt };
}
