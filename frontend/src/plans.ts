// Subscription plans: Free, Hobby, Pro, Print Farm. Prices come from GET /api/pricing and
// limits from GET /api/usage-limits; the constants here are the fallbacks.
import { config } from './config';
import type { PricingEntry, Tier, UsageLimits } from './api/types';

export const TIERS: Tier[] = ['free', 'hobby', 'pro', 'farm'];

export const TIER_NAMES: Record<Tier, string> = {
  free: 'Free',
  hobby: 'Hobby',
  pro: 'Pro',
  farm: 'Print Farm',
};

export const FALLBACK_PRICES: Record<Tier, number> = { free: 0, hobby: 3.99, pro: 7.99, farm: 19.99 };

/** The monthly limit used when a tier's limit is unknown. */
export const DEFAULT_MONTHLY_LIMIT = 3;

export interface PlanFeature {
  label: string;
}

export interface Plan {
  tier: Tier;
  name: string;
  amount: number;
  limit: number;
  popular: boolean;
  tagline: string;
  features: PlanFeature[];
}

const TAGLINES: Record<Tier, string> = {
  free: 'Try AI troubleshooting on your own printer.',
  hobby: 'For makers who print every week.',
  pro: 'For power users running several machines.',
  farm: 'For print farms and makerspaces.',
};

// features lists what every plan includes on this server (plans differ in their monthly issues):
// photos are promised as analysed only when the server analyses them (the Gemini engine is
// configured), and the narrow-it-down questions only when the built-in engine answers, which is
// the engine that asks them.
export function features(_tier: Tier, imageAnalysis = config.imageAnalysis): PlanFeature[] {
  const list: PlanFeature[] = [
    { label: 'AI diagnosis with prioritized fixes' },
    { label: imageAnalysis ? 'Photo upload and image analysis' : 'Photo upload with every issue' },
  ];
  if (!imageAnalysis) list.push({ label: 'Narrow-it-down questions that reorder the fixes, at no credit' });
  list.push({ label: 'Printer profiles and issue history' }, { label: 'Shareable result links' });
  return list;
}

/** Formats a monthly amount in dollars: 0 -> "$0", 3.99 -> "$3.99". */
export function formatPrice(amount: number): string {
  return Number.isInteger(amount) ? `$${amount}` : `$${amount.toFixed(2)}`;
}

/** Merges server prices and limits over the fallbacks, in display order. */
export function buildPlans(pricing?: PricingEntry[] | null, limits?: UsageLimits | null): Plan[] {
  return TIERS.map((tier) => {
    const price = Array.isArray(pricing) ? pricing.find((p) => p.tier === tier) : undefined;
    const entry = limits?.[tier];
    const limit = entry && Number.isFinite(entry.limit) ? entry.limit : DEFAULT_MONTHLY_LIMIT;
    return {
      tier,
      name: entry?.name || TIER_NAMES[tier],
      amount: price && Number.isFinite(price.amount) ? price.amount : FALLBACK_PRICES[tier],
      limit,
      popular: tier === 'hobby',
      tagline: TAGLINES[tier],
      features: features(tier),
    };
  });
}
