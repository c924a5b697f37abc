// The usage rules: effective tier, monthly limit,
// remaining credits and everything the usage card and badge derive from them.
import type { Tier, UsageLimits } from '../../api/types';
import { DEFAULT_MONTHLY_LIMIT, TIERS } from '../../plans';

/** The user fields the usage display reads (a subset of AppUser). */
export interface UsageUser {
  subscriptionStatus?: string | null;
  subscriptionTier?: string | null;
  monthlyUsage?: number | null;
  monthlyLimit?: number | null;
}

export type UsageState = 'limit-reached' | 'low' | 'normal';
/** Palette names of the theme: info is the blue of the bar. */
export type BarColor = 'info' | 'warning' | 'error';
export type RemainingColor = 'error' | 'warning' | 'success';

export const LOW_REMAINING = 2;
export const UPGRADE_HINT_REMAINING = 5;
export const AMBER_PERCENT = 70;
export const RED_PERCENT = 90;

export const RUNNING_LOW_TEXT = 'Running low on sessions';
export const UPGRADE_HINT_TEXT = 'Need more sessions? Consider upgrading to a higher tier.';
export const LIMIT_REACHED_TEXT = "You've reached your limit";
/** At the top tier there is nothing to upgrade to: what a Print Farm can do instead. */
export const TOP_TIER_TEXT = "You're on the largest plan, so there is no higher tier to upgrade to.";
/** Whom a Print Farm at its limit asks for more: the operator, by name when the server has one. */
export function topTierHelpText(operatorName: string): string {
  const who = operatorName.trim() ? `${operatorName.trim()}, who runs this server,` : 'the operator of this server';
  return `Need more before then? Ask ${who} to raise the Print Farm allowance or to grant extra credits.`;
}

/**
 * What a new account is told when this month's anonymous analyses from its network came with it:
 * what happened, what is left and when the credits return.
 */
export function carriedOverText(transferred: number, used: number, limit: number, resetDate: string): string {
  const analyses = transferred === 1 ? 'analysis' : 'analyses';
  const count = transferred === 1 ? 'counts' : 'count';
  const when = resetDate ? `on ${resetDate}` : 'next month';
  const remaining = Math.max(0, limit - used);
  if (remaining === 0) {
    return (
      `The ${transferred} free ${analyses} already used from this network this month ${count} toward your account, ` +
      `so this month's ${limit} free credits are used up. New credits arrive ${when}; until then your account keeps ` +
      'your printers and issue log.'
    );
  }
  return (
    `The ${transferred} free ${analyses} already used from this network this month ${count} toward your account: ` +
    `${remaining} of ${limit} credits left until ${resetDate || 'next month'}.`
  );
}

/** subscriptionTier while the subscription is 'active' and a tier is set, otherwise 'free'. */
export function effectiveTier(user: UsageUser | null | undefined): string {
  if (user?.subscriptionStatus === 'active' && user.subscriptionTier) return user.subscriptionTier;
  return 'free';
}

/** The largest plan: nothing above it to upgrade to. */
export const TOP_TIER: Tier = 'farm';

export function isKnownTier(tier: string): tier is Tier {
  return (TIERS as string[]).includes(tier);
}

/**
 * The monthly limit of a tier from GET /api/usage-limits. Without the list the
 * server's own figure on the profile is used; an unknown tier gets 3.
 */
export function tierLimit(tier: string, limits: UsageLimits | null | undefined, profileLimit?: number | null): number {
  const entry = limits ? limits[tier as Tier] : undefined;
  if (entry && Number.isFinite(entry.limit)) return Math.max(0, entry.limit);
  if (!limits && typeof profileLimit === 'number' && Number.isFinite(profileLimit)) return Math.max(0, profileLimit);
  return DEFAULT_MONTHLY_LIMIT;
}

export interface Usage {
  tier: string;
  isFree: boolean;
  used: number;
  limit: number;
  /** limit − used, floored at 0. */
  remaining: number;
  /** used / limit in percent, 0–100. */
  percent: number;
  state: UsageState;
  barColor: BarColor;
  remainingColor: RemainingColor;
  /** 'Running low on sessions': free tier with 1 or 2 remaining. */
  showRunningLow: boolean;
  /** 'Need more sessions? …': paid tiers below the top with 5 or fewer remaining. */
  showUpgradeHint: boolean;
  /** The largest plan (Print Farm): no upgrade to offer. */
  isTopTier: boolean;
  /** "You've reached your limit": 0 remaining. */
  showLimitReached: boolean;
  /** 'Get More': free tier with 2 or fewer remaining. */
  showGetMore: boolean;
  creditsText: string;
  badgeText: string;
}

export function usageState(remaining: number): UsageState {
  if (remaining <= 0) return 'limit-reached';
  if (remaining <= LOW_REMAINING) return 'low';
  return 'normal';
}

export function barColor(percent: number): BarColor {
  if (percent >= RED_PERCENT) return 'error';
  if (percent >= AMBER_PERCENT) return 'warning';
  return 'info';
}

export function remainingColor(remaining: number): RemainingColor {
  if (remaining <= 0) return 'error';
  if (remaining <= LOW_REMAINING) return 'warning';
  return 'success';
}

/** Everything the usage card and badge show for a user and the limits list. */
export function computeUsage(user: UsageUser | null | undefined, limits: UsageLimits | null | undefined): Usage {
  const tier = effectiveTier(user);
  const limit = tierLimit(tier, limits, user?.monthlyLimit);
  const raw = Number(user?.monthlyUsage);
  const used = Number.isFinite(raw) && raw > 0 ? Math.floor(raw) : 0;
  const remaining = Math.max(0, limit - used);
  const percent = limit > 0 ? Math.min(100, (used / limit) * 100) : 100;
  const isFree = tier === 'free';
  const isTopTier = tier === TOP_TIER;
  return {
    tier,
    isFree,
    used,
    limit,
    remaining,
    percent,
    state: usageState(remaining),
    barColor: barColor(percent),
    remainingColor: remainingColor(remaining),
    showRunningLow: isFree && remaining >= 1 && remaining <= LOW_REMAINING,
    showUpgradeHint: !isFree && !isTopTier && remaining <= UPGRADE_HINT_REMAINING,
    isTopTier,
    showLimitReached: remaining === 0,
    showGetMore: isFree && remaining <= LOW_REMAINING,
    creditsText: `${used} of ${limit} credits`,
    badgeText: `${used}/${limit} credits used`,
  };
}
