import { describe, expect, it } from 'vitest';
import {
  barColor,
  carriedOverText,
  computeUsage,
  effectiveTier,
  remainingColor,
  tierLimit,
  topTierHelpText,
  usageState,
} from './usage';

const LIMITS = {
  free: { name: 'Free', limit: 3 },
  hobby: { name: 'Hobby', limit: 20 },
  pro: { name: 'Pro', limit: 50 },
  farm: { name: 'Print Farm', limit: 175 },
};

const free = (used: number) => computeUsage({ subscriptionStatus: 'inactive', subscriptionTier: 'free', monthlyUsage: used }, LIMITS);
const paid = (tier: string, used: number) => computeUsage({ subscriptionStatus: 'active', subscriptionTier: tier, monthlyUsage: used }, LIMITS);

describe('effective tier', () => {
  it.each([
    [{ subscriptionStatus: 'active', subscriptionTier: 'pro' }, 'pro'],
    [{ subscriptionStatus: 'inactive', subscriptionTier: 'pro' }, 'free'],
    [{ subscriptionStatus: 'past_due', subscriptionTier: 'hobby' }, 'free'],
    [{ subscriptionStatus: 'canceled', subscriptionTier: 'farm' }, 'free'],
    [{ subscriptionStatus: 'active', subscriptionTier: '' }, 'free'],
    [{ subscriptionStatus: 'active' }, 'free'],
    [{ subscriptionTier: 'pro' }, 'free'],
    [null, 'free'],
  ])('%j -> %s', (user, tier) => {
    expect(effectiveTier(user)).toBe(tier);
  });
});

describe('tier limit', () => {
  it('reads the limits list', () => {
    expect(tierLimit('pro', LIMITS)).toBe(50);
    expect(tierLimit('farm', LIMITS)).toBe(175);
  });
  it('is 3 for an unknown tier, even with a profile figure', () => {
    expect(tierLimit('enterprise', LIMITS, 999)).toBe(3);
    expect(tierLimit('enterprise', {})).toBe(3);
  });
  it("uses the profile's limit while the list is missing, else 3", () => {
    expect(tierLimit('pro', undefined, 50)).toBe(50);
    expect(tierLimit('pro', null)).toBe(3);
  });
  it('uses the paid limit only while active', () => {
    expect(computeUsage({ subscriptionStatus: 'inactive', subscriptionTier: 'pro', monthlyUsage: 1 }, LIMITS).limit).toBe(3);
    expect(paid('pro', 1).limit).toBe(50);
  });
});

describe('remaining and state', () => {
  it('floors remaining at 0 when usage exceeds the limit', () => {
    const u = free(7);
    expect(u.remaining).toBe(0);
    expect(u.percent).toBe(100);
    expect(u.state).toBe('limit-reached');
    expect(u.creditsText).toBe('7 of 3 credits');
  });
  it('treats missing or negative usage as 0', () => {
    expect(computeUsage({}, LIMITS).used).toBe(0);
    expect(free(-2).used).toBe(0);
    expect(free(-2).remaining).toBe(3);
  });
  it.each([
    [0, 'limit-reached'],
    [1, 'low'],
    [2, 'low'],
    [3, 'normal'],
    [10, 'normal'],
  ])('remaining %i is %s', (remaining, state) => {
    expect(usageState(remaining)).toBe(state);
  });
});

describe('colours', () => {
  it.each([
    [0, 'info'],
    [69.9, 'info'],
    [70, 'warning'],
    [89.9, 'warning'],
    [90, 'error'],
    [100, 'error'],
  ])('bar at %d%% is %s', (percent, color) => {
    expect(barColor(percent)).toBe(color);
  });
  it('derives the bar colour from used / limit', () => {
    expect(paid('hobby', 13).barColor).toBe('info'); // 65 %
    expect(paid('hobby', 14).barColor).toBe('warning'); // 70 %
    expect(paid('hobby', 17).barColor).toBe('warning'); // 85 %
    expect(paid('hobby', 18).barColor).toBe('error'); // 90 %
    expect(free(2).barColor).toBe('info'); // 66.7 %
    expect(free(3).barColor).toBe('error'); // 100 %
  });
  it.each([
    [0, 'error'],
    [1, 'warning'],
    [2, 'warning'],
    [3, 'success'],
  ])('remaining %i is %s text', (remaining, color) => {
    expect(remainingColor(remaining)).toBe(color);
  });
});

describe('messages and buttons', () => {
  it("'Running low on sessions' only on free with 1 or 2 remaining", () => {
    expect([0, 1, 2, 3].map((used) => free(used).showRunningLow)).toEqual([false, true, true, false]);
    expect(paid('hobby', 19).showRunningLow).toBe(false);
  });
  it("upgrade hint only on paid tiers with 5 or fewer remaining", () => {
    expect(paid('pro', 44).showUpgradeHint).toBe(false); // 6 left
    expect(paid('pro', 45).showUpgradeHint).toBe(true); // 5 left
    expect(paid('pro', 50).showUpgradeHint).toBe(true); // 0 left
    expect(free(2).showUpgradeHint).toBe(false);
    // Print Farm is the top tier: there is nothing higher to suggest.
    expect(paid('farm', 175).showUpgradeHint).toBe(false);
    expect(paid('farm', 175).isTopTier).toBe(true);
    expect(paid('pro', 50).isTopTier).toBe(false);
  });
  it("limit reached at 0 remaining on any tier", () => {
    expect(free(3).showLimitReached).toBe(true);
    expect(free(2).showLimitReached).toBe(false);
    expect(paid('farm', 175).showLimitReached).toBe(true);
    expect(paid('farm', 174).showLimitReached).toBe(false);
  });
  it("'Get More' on free with 2 or fewer remaining, never on paid", () => {
    expect([0, 1, 2, 3].map((used) => free(used).showGetMore)).toEqual([false, true, true, true]);
    expect(paid('hobby', 20).showGetMore).toBe(false);
    expect(computeUsage({ subscriptionStatus: 'inactive', subscriptionTier: 'pro', monthlyUsage: 49 }, LIMITS).showGetMore).toBe(true);
  });
  it('formats the card and badge texts', () => {
    expect(paid('pro', 12).creditsText).toBe('12 of 50 credits');
    expect(paid('pro', 12).badgeText).toBe('12/50 credits used');
    expect(free(0).badgeText).toBe('0/3 credits used');
  });
});

describe('words about the allowance', () => {
  it('says what a new account inherited and when credits return', () => {
    expect(carriedOverText(2, 2, 3, 'December 1')).toBe(
      'The 2 free analyses already used from this network this month count toward your account: 1 of 3 credits left until December 1.',
    );
    expect(carriedOverText(1, 3, 3, '')).toMatch(/^The 1 free analysis already used from this network this month counts toward .* used up\. New credits arrive next month;/);
  });

  it('tells a Print Farm whom to ask, never the name of a setting', () => {
    expect(topTierHelpText('')).toBe('Need more before then? Ask the operator of this server to raise the Print Farm allowance or to grant extra credits.');
    expect(topTierHelpText('Ada\'s Lab')).toContain("Ask Ada's Lab, who runs this server,");
    expect(topTierHelpText('x')).not.toMatch(/LAYERFIX_/);
  });
});
