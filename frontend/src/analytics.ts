// Client-side analytics (SPEC section 1): Google Analytics 4 through gtag and
// the Meta pixel. Nothing is loaded or sent unless the runtime configuration
// carries the ids (LAYERFIX_GA_MEASUREMENT_ID, LAYERFIX_META_PIXEL_ID). The
// stubs are defined here, not in an inline script, so the CSP stays script-src 'self'.
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

/** Starts analytics once at app start; a no-op without configured ids. */
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
    // Page views are sent by trackPageView on every route change.
    window.gtag('config', gaId, { send_page_view: false });
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
  if (pixelId && window.fbq) window.fbq(kind, event, params, { eventID });
}

/** A unique id sent with pixel events so server and browser events can be deduplicated. */
export function generateConversionId(): string {
  const rand =
    typeof crypto !== 'undefined' && 'randomUUID' in crypto
      ? crypto.randomUUID()
      : Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
  return `lf_${Date.now()}_${rand}`;
}

/** Route change: GA page_view and pixel PageView. */
export function trackPageView(path: string, title: string = typeof document !== 'undefined' ? document.title : ''): void {
  if (!isAnalyticsEnabled()) return;
  ga('page_view', { page_path: path, page_location: window.location.href, page_title: title });
  if (pixelId && window.fbq) window.fbq('track', 'PageView');
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
