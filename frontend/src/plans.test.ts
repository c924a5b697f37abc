import { describe, expect, it } from 'vitest';
import { buildPlans, features, formatPrice } from './plans';

describe('buildPlans', () => {
  it('uses server prices and limits in tier order', () => {
    const plans = buildPlans(
      [
        { tier: 'pro', amount: 9.5 },
        { tier: 'free', amount: 0 },
      ],
      { free: { name: 'Free', limit: 5 }, farm: { name: 'Print Farm', limit: 400 } },
    );
    expect(plans.map((p) => p.tier)).toEqual(['free', 'hobby', 'pro', 'farm']);
    expect(plans[2].amount).toBe(9.5);
    expect(plans[0].limit).toBe(5);
    expect(plans[3].limit).toBe(400);
  });

  it('falls back to the spec prices and a limit of 3 when data is missing', () => {
    const plans = buildPlans(undefined, undefined);
    expect(plans.map((p) => p.amount)).toEqual([0, 3.99, 7.99, 19.99]);
    expect(plans.every((p) => p.limit === 3)).toBe(true);
    expect(plans.map((p) => p.name)).toEqual(['Free', 'Hobby', 'Pro', 'Print Farm']);
  });

  it('marks Hobby popular; every plan lists the same features, nothing "coming soon"', () => {
    const plans = buildPlans([], {});
    expect(plans.filter((p) => p.popular).map((p) => p.tier)).toEqual(['hobby']);
    const labels = plans.map((p) => p.features.map((f) => f.label).join('|'));
    expect(new Set(labels).size).toBe(1);
    expect(labels[0]).not.toMatch(/follow-up|coming soon/i);
  });

  it('promises the narrow-it-down questions only when the built-in engine answers', () => {
    const ask = (gemini: boolean) => features('pro', gemini).some((f) => /Narrow-it-down questions/.test(f.label));
    expect(ask(false)).toBe(true);
    expect(ask(true)).toBe(false);
  });

  it('formats prices', () => {
    expect(formatPrice(0)).toBe('$0');
    expect(formatPrice(3.99)).toBe('$3.99');
    expect(formatPrice(20)).toBe('$20');
    expect(formatPrice(7.5)).toBe('$7.50');
  });
});

describe('photo feature follows the server', () => {
  it('promises image analysis only when the server analyses photos', () => {
    expect(features('pro', true).map((f) => f.label)).toContain('Photo upload and image analysis');
    const offline = features('pro', false).map((f) => f.label);
    expect(offline.join(' ')).not.toMatch(/image analysis/i);
    expect(offline).toContain('Photo upload with every issue');
  });
});
