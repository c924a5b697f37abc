// Client-side analytics (SPEC section 1): Google Analytics 4 through gtag and
// the Meta pixel. Nothing is loaded or sent unless the runtime configuration
// carries the ids (LAYERFIX_GA_MEASUREMENT_ID, LAYERFIX_META_PIXEL_ID) AND the
// visitor accepted analytics in the consent banner. Page views carry route
// templates ("/share/:shareId"), never a query string, token or id. The stubs
// are defined here, not in an inline script, so the CSP stays script-src 'self'.
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

// Routes where the Meta pixel sends nothing: it always reports the page's
// full address, which there holds an id or a one-time code.
function pixelQuiet(template: string): boolean {
  return template.startsWith('/share/') || template === '/login';
}

/** Starts analytics (call it only with consent); a no-op without configured ids. */
export function initAnalytics(cfg: Pick<RuntimeConfig, 'gaMeasurementId' | 'metaPixelId'> = config): void {
  if (typeof window === 'undefined') return;
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
    // route template as location and no referrer that could hold a token.
    window.gtag('config', gaId, {
      send_page_view: false,
      page_location: `${window.location.origin}${config.basePath}${routeTemplate(window.location.pathname.slice(config.basePath.length))}`,
      page_referrer: '',
    });
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
    window.fbq('init', pixelId);
    loadScript(META_PIXEL_SCRIPT_URL);
  }
}

function ga(event: string, params: Record<string, unknown> = {}): void {
  if (gaId && window.gtag) window.gtag('event', event, params);
}

function pixel(kind: 'track' | 'trackCustom', event: string, params: Record<string, unknown>, eventID: string): void {
  if (pixelId && window.fbq && !pixelQuiet(routeTemplate(window.location.pathname.slice(config.basePath.length)))) {
    window.fbq(kind, event, params, { eventID });
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
  ga('page_view', {
    page_path: template,
    page_location: `${window.location.origin}${config.basePath}${template}`,
    page_referrer: '',
    page_title: title.replace(/[A-Za-z0-9_-]{16,}/g, ''),
  });
  if (pixelId && window.fbq && !pixelQuiet(template)) window.fbq('track', 'PageView');
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
