// Client-side analytics: Google Analytics 4 through gtag and
// the Meta pixel. Nothing is loaded or sent unless the runtime configuration
// carries the ids (LAYERFIX_GA_MEASUREMENT_ID, LAYERFIX_META_PIXEL_ID) AND the
// visitor accepted analytics in the consent banner. Page views carry route
// templates ("/share/:shareId"), never a query string, token or id. The stubs
// are defined here, not in an inline script, so the CSP stays script-src 'self'.
import { scrubAddressBar } from './addressBar';
import { config, type RuntimeConfig } from './config';

type Gtag = (...args: unknown[]) => void;
interface Fbq {
  (...args: unknown[]): void;
  queue?: unknown[];
  callMethod?: (...args: unknown[]) => void;
  loaded?: boolean;
  version?: string;
  push?: (...args: unknown[]) => void;
}

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: Gtag;
    fbq?: Fbq;
    _fbq?: Fbq;
  }
}

export const GA_SCRIPT_URL = 'https://www.googletagmanager.com/gtag/js';
export const META_PIXEL_SCRIPT_URL = 'https://connect.facebook.net/en_US/fbevents.js';

let gaId = '';
let pixelId = '';

export function isAnalyticsEnabled(): boolean {
  return gaId !== '' || pixelId !== '';
}

function loadScript(src: string): void {
  if (document.querySelector(`script[src="${src}"]`)) return;
  const el = document.createElement('script');
  el.async = true;
  el.src = src;
  document.head.appendChild(el);
}

export const CONSENT_KEY = 'layerfix.analyticsConsent';
export type Consent = 'granted' | 'denied' | null;

/** The visitor's analytics choice, null while unanswered. */
export function readConsent(): Consent {
  try {
    const v = localStorage.getItem(CONSENT_KEY);
    return v === 'granted' || v === 'denied' ? v : null;
  } catch {
    return null;
  }
}

/** Records the choice; accepting starts analytics, declining stops sending at once. */
export function setConsent(value: 'granted' | 'denied' | null, cfg: Pick<RuntimeConfig, 'gaMeasurementId' | 'metaPixelId'> = config): void {
  try {
    if (value) localStorage.setItem(CONSENT_KEY, value);
    else localStorage.removeItem(CONSENT_KEY);
  } catch {
    // Private mode: the choice lasts for this visit.
  }
  if (value === 'granted') initAnalytics(cfg);
  else resetAnalyticsForTests();
}

/** Whether this server has any analytics id, so a consent question makes sense. */
export function analyticsConfigured(cfg: Pick<RuntimeConfig, 'gaMeasurementId' | 'metaPixelId'> = config): boolean {
  return cfg.gaMeasurementId !== '' || cfg.metaPixelId !== '';
}

/** Starts analytics at app start when the visitor already accepted. */
export function startAnalyticsIfConsented(cfg: Pick<RuntimeConfig, 'gaMeasurementId' | 'metaPixelId'> = config): void {
  if (readConsent() === 'granted') initAnalytics(cfg);
}

// routeTemplate is what a page view may say about where the visitor is: the
// route, with ids and tokens replaced by placeholders; never a query string.
export function routeTemplate(pathname: string): string {
  const path = pathname.split(/[?#]/)[0] || '/';
  if (/^\/share\/[^/]+/.test(path)) return '/share/:shareId';
  return path
    .split('/')
    .map((seg) => (/^\d+$/.test(seg) || /^[A-Za-z0-9_-]{16,}$/.test(seg) ? ':id' : seg))
    .join('/');
}

// The route template of the page the visitor is on.
function currentTemplate(): string {
  return routeTemplate(window.location.pathname.slice(config.basePath.length) || '/');
}

// What GA is told about where the visitor is and came from: the route
// template, and at most the origin of the referrer. Every command carries both,
// since an event's own values win over anything gtag would read itself.
function gaPlace(template = currentTemplate()): { page_location: string; page_referrer: string } {
  let referrer = '';
  try {
    if (document.referrer) referrer = new URL(document.referrer).origin;
  } catch {
    referrer = '';
  }
  return { page_location: `${window.location.origin}${config.basePath}${template}`, page_referrer: referrer };
}

// bareRoute: an address of this app that is nothing but a route: no query
// string or fragment (a share id, a code) and no id in the path.
function bareRoute(url: URL): boolean {
  const path = url.pathname.slice(config.basePath.length) || '/';
  return url.search === '' && url.hash === '' && routeTemplate(path) === path;
}

// The Meta pixel reports the page's full address and its referrer with every
// event, so it sends only from a bare route (never /login, where reset links
// land) reached from another site or from a bare route.
function pixelMayReport(): boolean {
  const here = new URL(window.location.href);
  if (!bareRoute(here) || currentTemplate() === '/login') return false;
  if (!document.referrer) return true;
  try {
    const from = new URL(document.referrer);
    return from.origin !== here.origin || bareRoute(from);
  } catch {
    return false;
  }
}

/** Starts analytics (call it only with consent); a no-op without configured ids. */
export function initAnalytics(cfg: Pick<RuntimeConfig, 'gaMeasurementId' | 'metaPixelId'> = config): void {
  if (typeof window === 'undefined') return;
  // The scripts read the address bar: one-time codes leave it first.
  scrubAddressBar();
  if (cfg.gaMeasurementId && !gaId) {
    gaId = cfg.gaMeasurementId;
    window.dataLayer = window.dataLayer || [];
    window.gtag = function gtag() {
      // gtag.js expects the arguments object itself.
      // eslint-disable-next-line prefer-rest-params
      window.dataLayer!.push(arguments);
    };
    window.gtag('js', new Date());
    // Page views are sent by trackPageView on every route change, with the
    // route template as location and at most the referrer's origin.
    window.gtag('config', gaId, { send_page_view: false, ...gaPlace() });
    loadScript(`${GA_SCRIPT_URL}?id=${encodeURIComponent(gaId)}`);
  }
  if (cfg.metaPixelId && !pixelId) {
    pixelId = cfg.metaPixelId;
    if (!window.fbq) {
      const fbq: Fbq = function (...args: unknown[]) {
        if (fbq.callMethod) fbq.callMethod(...args);
        else fbq.queue!.push(args);
      };
      fbq.push = fbq;
      fbq.loaded = true;
      fbq.version = '2.0';
      fbq.queue = [];
      window.fbq = fbq;
      window._fbq = fbq;
    }
    // No automatic events (button clicks, page metadata) and no page views of
    // its own on history changes: the pixel sends only what pixel() allows.
    (window.fbq as Fbq & { disablePushState?: boolean }).disablePushState = true;
    window.fbq('set', 'autoConfig', false, pixelId);
    window.fbq('init', pixelId);
    loadScript(META_PIXEL_SCRIPT_URL);
  }
}

function ga(event: string, params: Record<string, unknown> = {}, template = currentTemplate()): void {
  if (gaId && window.gtag) window.gtag('event', event, { ...params, ...gaPlace(template) });
}

function pixel(kind: 'track' | 'trackCustom', event: string, params?: Record<string, unknown>, eventID?: string): void {
  if (pixelId && window.fbq && pixelMayReport()) {
    if (params && eventID) window.fbq(kind, event, params, { eventID });
    else window.fbq(kind, event);
  }
}

/** A unique id sent with pixel events so server and browser events can be deduplicated. */
export function generateConversionId(): string {
  const rand =
    typeof crypto !== 'undefined' && 'randomUUID' in crypto
      ? crypto.randomUUID()
      : Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
  return `lf_${Date.now()}_${rand}`;
}

/** Route change: GA page_view and pixel PageView, by route template only. */
export function trackPageView(path: string, title: string = typeof document !== 'undefined' ? document.title : ''): void {
  if (!isAnalyticsEnabled()) return;
  const template = routeTemplate(path);
  ga('page_view', { page_path: template, page_title: title.replace(/[A-Za-z0-9_-]{16,}/g, '') }, template);
  pixel('track', 'PageView');
}

export function trackLoginAttempt(method: string): void {
  ga('login_attempt', { method });
}

export function trackLoginSuccess(method: string): void {
  ga('login', { method });
}

export function trackLoginFailure(method: string, reason: string): void {
  ga('login_failure', { method, reason });
}

/** Each pixel call returns its conversion id ('' when analytics is off). */
function conversion(kind: 'track' | 'trackCustom', event: string, params: Record<string, unknown>): string {
  if (!isAnalyticsEnabled()) return '';
  const id = generateConversionId();
  pixel(kind, event, params, id);
  ga(event, { ...params, conversion_id: id });
  return id;
}

export const trackSignUp = (method: string): string => conversion('track', 'CompleteRegistration', { method });

export const trackLead = (params: Record<string, unknown> = {}): string => conversion('track', 'Lead', params);

export const trackPurchase = (value: number, currency = 'USD', params: Record<string, unknown> = {}): string =>
  conversion('track', 'Purchase', { value, currency, ...params });

export const trackViewContent = (contentName: string, params: Record<string, unknown> = {}): string =>
  conversion('track', 'ViewContent', { content_name: contentName, ...params });

export const trackAddToCart = (value: number, currency = 'USD', params: Record<string, unknown> = {}): string =>
  conversion('track', 'AddToCart', { value, currency, ...params });

export const trackCustom = (event: string, params: Record<string, unknown> = {}): string =>
  conversion('trackCustom', event, params);

/** Test helper: forget the configured ids. */
export function resetAnalyticsForTests(): void {
  gaId = '';
  pixelId = '';
}
