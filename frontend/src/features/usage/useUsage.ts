import useSWR from 'swr';
import type { UsageLimits } from '../../api/types';
import { useAuth } from '../../auth/useAuth';
import { computeUsage, type Usage } from './usage';

export interface UsageData {
  /** null while the user or the limits load. */
  usage: Usage | null;
  /** ISO date of the next monthly reset, when the profile carries it. */
  resetsAt?: string;
}

/** The signed-in user's usage: useAuth().user plus GET /api/usage-limits. */
export function useUsage(): UsageData {
  const { user, loading } = useAuth();
  const limits = useSWR<UsageLimits>('/api/usage-limits');
  if (loading || !user || limits.isLoading) return { usage: null };
  return { usage: computeUsage(user, limits.data), resetsAt: user.usageResetsAt };
}

/** 'July 1' for the reset date; the server sends midnight UTC of the first day. */
export function formatResetDate(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleDateString('en-US', { month: 'long', day: 'numeric', timeZone: 'UTC' });
}
