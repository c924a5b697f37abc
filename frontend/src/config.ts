// Runtime configuration injected by the Go server into index.html as
// <script id="layerfix-config" type="application/json">. Nothing here is baked
// into the bundle: when the element is absent (vite dev, tests) the defaults apply.

export type AuthMode = 'local' | 'firebase';

export interface FirebaseWebConfig {
  apiKey: string;
  authDomain: string;
  projectId: string;
  appId: string;
}

export interface RuntimeConfig {
  basePath: string;
  authMode: AuthMode;
  firebase: FirebaseWebConfig | null;
  /** The Firebase Auth emulator to sign in against (demo projects only); '' in production. */
  authEmulatorUrl: string;
  stripePublishableKey: string;
  billingEnabled: boolean;
  gaMeasurementId: string;
  metaPixelId: string;
  operatorName: string;
  contactEmail: string;
  anonMonthlyLimit: number;
  /** Local mode: the server can send verification and password reset emails. */
  emailEnabled: boolean;
  /** Photos are analysed (the Gemini engine is on); the built-in engine reads words and settings only. */
  imageAnalysis: boolean;
  version: string;
}

export const defaultConfig: RuntimeConfig = {
  basePath: '',
  authMode: 'local',
  firebase: null,
  authEmulatorUrl: '',
  stripePublishableKey: '',
  billingEnabled: false,
  gaMeasurementId: '',
  metaPixelId: '',
  operatorName: '',
  contactEmail: '',
  anonMonthlyLimit: 3,
  emailEnabled: false,
  imageAnalysis: false,
  version: 'dev',
};

function str(v: unknown, fallback: string): string {
  return typeof v === 'string' ? v : fallback;
}

/** Normalizes a base path to '' or '/segment' (leading slash, no trailing slash). */
export function normalizeBasePath(p: string): string {
  const trimmed = p.trim().replace(/\/+$/, '');
  if (trimmed === '' || trimmed === '/') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** Parses the injected JSON, keeping defaults for anything missing or mistyped. */
export function parseConfig(raw: string | null | undefined): RuntimeConfig {
  if (!raw) return { ...defaultConfig };
  let data: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object') return { ...defaultConfig };
    data = parsed as Record<string, unknown>;
  } catch {
    return { ...defaultConfig };
  }
  const fb = data.firebase as Record<string, unknown> | null | undefined;
  const limit = Number(data.anonMonthlyLimit);
  return {
    basePath: normalizeBasePath(str(data.basePath, '')),
    authMode: data.authMode === 'firebase' ? 'firebase' : 'local',
    firebase:
      fb && typeof fb === 'object'
        ? {
            apiKey: str(fb.apiKey, ''),
            authDomain: str(fb.authDomain, ''),
            projectId: str(fb.projectId, ''),
            appId: str(fb.appId, ''),
          }
        : null,
    authEmulatorUrl: str(data.authEmulatorUrl, ''),
    stripePublishableKey: str(data.stripePublishableKey, ''),
    billingEnabled: data.billingEnabled === true,
    gaMeasurementId: str(data.gaMeasurementId, ''),
    metaPixelId: str(data.metaPixelId, ''),
    operatorName: str(data.operatorName, ''),
    contactEmail: str(data.contactEmail, ''),
    anonMonthlyLimit: Number.isFinite(limit) && limit > 0 ? limit : defaultConfig.anonMonthlyLimit,
    emailEnabled: data.emailEnabled === true,
    imageAnalysis: data.imageAnalysis === true,
    version: str(data.version, defaultConfig.version),
  };
}

function readConfig(): RuntimeConfig {
  if (typeof document === 'undefined') {
    // Prerendering in Node (scripts/prerender.mjs) sets the configuration of the page it renders.
    const pre = (globalThis as { __LAYERFIX_PRERENDER_CONFIG__?: Partial<RuntimeConfig> }).__LAYERFIX_PRERENDER_CONFIG__;
    return { ...defaultConfig, ...pre };
  }
  return parseConfig(document.getElementById('layerfix-config')?.textContent);
}

/** The runtime configuration of this page load. */
export const config: RuntimeConfig = readConfig();
