import { afterEach, describe, expect, it, vi } from 'vitest';
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
  trackSignUp,
} from './analytics';
import { capturedActionLink, forgetActionLink } from './addressBar';

afterEach(() => {
  resetAnalyticsForTests();
  delete window.gtag;
  delete window.fbq;
  delete window._fbq;
  delete window.dataLayer;
  document.head.querySelectorAll('script').forEach((s) => s.remove());
  window.history.replaceState(null, '', '/');
  forgetActionLink();
});

const both = { gaMeasurementId: 'G-TEST', metaPixelId: '1234' };
const gaCommands = () => (window.dataLayer as IArguments[]).map((a) => [...a]);
const pixelTracks = () => (window.fbq!.queue as unknown[][]).filter((c) => c[0] === 'track' || c[0] === 'trackCustom');

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

  it('turns off the pixel\'s automatic events and history tracking before it starts', () => {
    initAnalytics(both);
    const queue = window.fbq!.queue as unknown[][];
    const set = queue.findIndex((c) => c[0] === 'set' && c[1] === 'autoConfig' && c[2] === false && c[3] === '1234');
    const init = queue.findIndex((c) => c[0] === 'init');
    expect(set).toBeGreaterThanOrEqual(0);
    expect(set).toBeLessThan(init);
    expect((window.fbq as unknown as { disablePushState?: boolean }).disablePushState).toBe(true);
  });

  it('takes a reset code out of the address bar before any analytics script is added', () => {
    window.history.replaceState(null, '', '/login?mode=resetPassword&oobCode=SECRETcode123&apiKey=AIzaKEY&lang=en');
    // The address each script sees when it is added.
    const seen: string[] = [];
    const append = document.head.appendChild.bind(document.head);
    const spy = vi.spyOn(document.head, 'appendChild').mockImplementation((node) => {
      seen.push(window.location.href);
      return append(node);
    });
    initAnalytics(both);
    spy.mockRestore();
    expect(seen).toHaveLength(2);
    expect(window.location.search).toBe('');
    expect(capturedActionLink()).toEqual({ mode: 'resetPassword', oobCode: 'SECRETcode123' });
    const sent = JSON.stringify([gaCommands(), window.fbq!.queue, seen]);
    for (const s of ['SECRETcode123', 'AIzaKEY', 'oobCode']) expect(sent).not.toContain(s);
  });

  it('keeps the pixel quiet wherever the address holds a share id, a code or an id', () => {
    initAnalytics(both);
    const shareId = 'ShAr3dIdShAr3dIdShAr3d';
    for (const address of [
      `/?share=${shareId}`,
      `/preview?share=${shareId}`,
      `/report-issue?share=${shareId}`,
      `/share/${shareId}`,
      '/subscribe?setup_intent=seti_123&redirect_status=succeeded',
      '/issues/4711',
      '/features#code=abc',
    ]) {
      window.history.replaceState(null, '', address);
      trackPageView(window.location.pathname);
      trackLead({ content_name: 'x' });
      trackSignUp('password');
      trackViewContent('Pricing');
      expect(pixelTracks(), address).toEqual([]);
    }
    window.history.replaceState(null, '', '/pricing');
    trackPageView('/pricing');
    expect(pixelTracks()).toEqual([['track', 'PageView']]);
  });

  it('keeps the pixel quiet when the referrer, which it also reports, holds a share id', () => {
    initAnalytics(both);
    window.history.replaceState(null, '', '/pricing');
    const referrer = (value: string) => Object.defineProperty(document, 'referrer', { value, configurable: true });
    try {
      referrer(`${window.location.origin}/?share=ShAr3dIdShAr3dIdShAr3d`);
      trackPageView('/pricing');
      expect(pixelTracks()).toEqual([]);
      referrer('https://www.example.org/forum/thread?id=3');
      trackPageView('/pricing');
      expect(pixelTracks()).toEqual([['track', 'PageView']]);
      const [, , params] = gaCommands().filter((c) => c[1] === 'page_view')[1];
      expect(params).toEqual(expect.objectContaining({ page_referrer: 'https://www.example.org' }));
    } finally {
      referrer('');
    }
  });

  it('gives every GA event the route template as page_location, never the address', () => {
    const shareId = 'ShAr3dIdShAr3dIdShAr3d';
    window.history.replaceState(null, '', `/preview?share=${shareId}`);
    initAnalytics(both);
    trackPageView('/preview');
    trackLead({ content_name: 'anonymous_issue' });
    trackLoginAttempt('password');
    trackCustom('share_opened');
    const events = gaCommands().filter((c) => c[0] === 'event' || c[0] === 'config');
    expect(events.length).toBe(5);
    for (const [, , params] of events) {
      expect(params).toEqual(expect.objectContaining({ page_location: `${window.location.origin}/preview` }));
      expect(params).toEqual(expect.objectContaining({ page_referrer: '' }));
    }
    expect(JSON.stringify(gaCommands())).not.toContain(shareId);
  });
});
