import useSWR from 'swr';
import type { PricingEntry, UsageLimits } from '../api/types';
import { buildPlans, type Plan } from '../plans';

/** The four plans with server prices and limits; fallbacks where the calls fail. */
export function usePlans(): { plans: Plan[]; isLoading: boolean } {
  const pricing = useSWR<PricingEntry[]>('/api/pricing');
  const limits = useSWR<UsageLimits>('/api/usage-limits');
  return {
    plans: buildPlans(pricing.data, limits.data),
    isLoading: pricing.isLoading || limits.isLoading,
  };
}
