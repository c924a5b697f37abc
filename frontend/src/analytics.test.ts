import { afterEach, describe, expect, it } from 'vitest';
import {
  CONSENT_KEY,
  generateConversionId,
  routeTemplate,
  setConsent,
  startAnalyticsIfConsented,
  trackLead,
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

  it('loads nothing and sends nothing without consent, even with ids configured', () => {
    localStorage.removeItem(CONSENT_KEY);
    const cfg = { gaMeasurementId: 'G-TEST', metaPixelId: '1234' };
    startAnalyticsIfConsented(cfg);
    trackPageView('/pricing');
    expect(trackLead()).toBe('');
    expect(document.head.querySelectorAll('script')).toHaveLength(0);
    expect(window.gtag).toBeUndefined();
    expect(window.fbq).toBeUndefined();
    setConsent('denied', cfg);
    startAnalyticsIfConsented(cfg);
    expect(document.head.querySelectorAll('script')).toHaveLength(0);
  });

  it('after consent, page views name the route template: no reset code, share id or query', () => {
    setConsent('granted', { gaMeasurementId: 'G-TEST', metaPixelId: '1234' });
    const secrets = ['XyZ-reset-code-1234567890', 'AbCdEfGhIjKlMnOpQrStUv'];
    trackPageView(`/login?mode=reset&oobCode=${secrets[0]}`);
    trackPageView(`/share/${secrets[1]}`);
    trackPageView('/issues/4711');
    const sent = JSON.stringify([...(window.dataLayer as IArguments[]).map((a) => [...a]), window.fbq!.queue]);
    for (const s of [...secrets, '4711', 'mode=reset', 'oobCode']) expect(sent).not.toContain(s);
    expect(sent).toContain('"page_path":"/share/:shareId"');
    expect(sent).toContain('"page_path":"/issues/:id"');
    const scripts = [...document.head.querySelectorAll('script')].map((s) => s.getAttribute('src')).join(' ');
    for (const s of secrets) expect(scripts).not.toContain(s);
    localStorage.removeItem(CONSENT_KEY);
  });

  it('maps paths to route templates', () => {
    expect(routeTemplate('/share/abcdefghijklmnopqrstuv')).toBe('/share/:shareId');
    expect(routeTemplate('/login')).toBe('/login');
    expect(routeTemplate('/pricing?plan=pro')).toBe('/pricing');
    expect(routeTemplate('/issues/12/x')).toBe('/issues/:id/x');
  });

  it('generates distinct conversion ids', () => {
    expect(generateConversionId()).not.toBe(generateConversionId());
  });
});
