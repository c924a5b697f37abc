import { afterEach, describe, expect, it } from 'vitest';
import {
  generateConversionId,
  initAnalytics,
  isAnalyticsEnabled,
  resetAnalyticsForTests,
  trackCustom,
  trackLoginAttempt,
  trackPageView,
  trackPurchase,
  trackViewContent,
} from './analytics';

afterEach(() => {
  resetAnalyticsForTests();
  delete window.gtag;
  delete window.fbq;
  delete window._fbq;
  delete window.dataLayer;
  document.head.querySelectorAll('script').forEach((s) => s.remove());
});

describe('analytics', () => {
  it('loads and sends nothing when no ids are configured', () => {
    initAnalytics({ gaMeasurementId: '', metaPixelId: '' });
    expect(isAnalyticsEnabled()).toBe(false);
    trackPageView('/pricing');
    trackLoginAttempt('google');
    expect(trackViewContent('Pricing')).toBe('');
    expect(trackCustom('x')).toBe('');
    expect(document.head.querySelectorAll('script')).toHaveLength(0);
    expect(window.gtag).toBeUndefined();
    expect(window.fbq).toBeUndefined();
    expect(window.dataLayer).toBeUndefined();
  });

  it('loads GA4 and the Meta pixel and sends events when configured', () => {
    initAnalytics({ gaMeasurementId: 'G-TEST', metaPixelId: '1234' });
    const srcs = [...document.head.querySelectorAll('script')].map((s) => s.getAttribute('src'));
    expect(srcs).toEqual([
      'https://www.googletagmanager.com/gtag/js?id=G-TEST',
      'https://connect.facebook.net/en_US/fbevents.js',
    ]);

    trackPageView('/features');
    const gaEvents = (window.dataLayer as IArguments[]).map((a) => [...a]);
    expect(gaEvents).toContainEqual(['event', 'page_view', expect.objectContaining({ page_path: '/features' })]);

    const id = trackPurchase(3.99);
    expect(id).toMatch(/^lf_\d+_/);
    const queue = window.fbq!.queue as unknown[][];
    expect(queue).toContainEqual(['init', '1234']);
    expect(queue).toContainEqual(['track', 'PageView']);
    expect(queue).toContainEqual(['track', 'Purchase', { value: 3.99, currency: 'USD' }, { eventID: id }]);
  });

  it('generates distinct conversion ids', () => {
    expect(generateConversionId()).not.toBe(generateConversionId());
  });
});
