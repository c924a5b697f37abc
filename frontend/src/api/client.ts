// The one HTTP client of the app. Transport rule:
// - JSON content type and body only when a body is sent;
// - cookies always included;
// - the current bearer token on every URL that starts with /api;
// - any non-OK response throws Error(`${status}: ${bodyText || statusText}`).
import { config } from '../config';
import type {
  ApiErrorBody,
  CreateSubscriptionResponse,
  DeleteAccountResult,
  EmailChangeResult,
  Issue,
  IssueInput,
  NarrowAnswer,
  PricingEntry,
  Printer,
  PrinterInput,
  PullResult,
  PublicUsage,
  ResolveInput,
  SaveAnalysisInput,
  ShareResponse,
  SharedResult,
  Tier,
  TroubleshootInput,
  TroubleshootingResult,
  UploadResponse,
  UsageLimits,
  UserProfile,
} from './types';

export type * from './types';

let authToken: string | null = null;

/** Sets the bearer token sent on /api requests (null when signed out). */
export function setAuthToken(token: string | null): void {
  authToken = token;
}

export function getAuthToken(): string | null {
  return authToken;
}

/** An Error whose message is `${status}: ${body || statusText}`, with the parts kept. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: string;

  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  /** The parsed {"error":{...}} body, or null when the body is not that shape. */
  get details(): ApiErrorBody['error'] | null {
    try {
      const parsed = JSON.parse(this.body) as Partial<ApiErrorBody>;
      return parsed && typeof parsed.error === 'object' && parsed.error ? parsed.error : null;
    } catch {
      return null;
    }
  }
}

/** Prefixes the runtime base path to app-absolute URLs such as /api/pricing. */
export function resolveUrl(url: string): string {
  return url.startsWith('/') ? `${config.basePath}${url}` : url;
}

/** The error code of a disabled account's token or correct password (HTTP 403). */
export const ACCOUNT_DISABLED_CODE = 'account-disabled';

let accountDisabled: (() => void) | null = null;

/**
 * Sets what happens when a request that carried a bearer token is answered 403
 * account-disabled: the signed-in maker's account was disabled (null: nothing).
 */
export function setAccountDisabledHandler(handler: (() => void) | null): void {
  accountDisabled = handler;
}

async function throwIfNotOk(res: Response, sentToken: boolean): Promise<void> {
  if (res.ok) return;
  const text = await res.text().catch(() => '');
  const err = new ApiError(res.status, res.statusText, text);
  if (sentToken && err.status === 403 && err.details?.code === ACCOUNT_DISABLED_CODE) accountDisabled?.();
  throw err;
}

export interface RequestOptions {
  /** Extra headers; they win over the defaults. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * Sends a request and returns the OK response. `data` is JSON-encoded unless
 * it is FormData, which the browser encodes as multipart itself.
 */
export async function apiRequest(
  method: string,
  url: string,
  data?: unknown,
  options: RequestOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  let body: BodyInit | undefined;
  if (data instanceof FormData) {
    body = data;
  } else if (data !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(data);
  }
  if (url.startsWith('/api') && authToken) {
    headers.Authorization = `Bearer ${authToken}`;
  }
  Object.assign(headers, options.headers);
  const res = await fetch(resolveUrl(url), {
    method,
    headers,
    body,
    credentials: 'include',
    signal: options.signal,
  });
  await throwIfNotOk(res, Boolean(headers.Authorization));
  return res;
}

/** GETs JSON. With on401 'returnNull' an HTTP 401 yields null instead of an error. */
export async function getJson<T>(url: string, on401: 'throw' | 'returnNull' = 'throw'): Promise<T | null> {
  const headers: Record<string, string> = {};
  if (url.startsWith('/api') && authToken) {
    headers.Authorization = `Bearer ${authToken}`;
  }
  const res = await fetch(resolveUrl(url), { headers, credentials: 'include' });
  if (on401 === 'returnNull' && res.status === 401) return null;
  await throwIfNotOk(res, Boolean(headers.Authorization));
  return (await res.json()) as T;
}

async function requestJson<T>(method: string, url: string, data?: unknown, options?: RequestOptions): Promise<T> {
  const res = await apiRequest(method, url, data, options);
  return (await res.json()) as T;
}

async function get<T>(url: string): Promise<T> {
  return (await getJson<T>(url)) as T;
}

/** SWR fetcher: the key is the URL. */
export const swrFetcher = <T>(url: string): Promise<T> => get<T>(url);

// ---- The core calls: usage, printers, issues, analysis, sharing, billing ----

export const getUserProfile = (): Promise<UserProfile> => get('/api/user/profile');

/**
 * Moves anonymous usage of this IP to the signed-in account. JSON type, no body. Resolves to the
 * number of analyses moved (0 when the answer cannot be read).
 */
export async function transferUsage(): Promise<number> {
  const res = await apiRequest('POST', '/api/transfer-usage', undefined, {
    headers: { 'Content-Type': 'application/json' },
  });
  try {
    const body = (await res.json()) as { transferred?: unknown };
    return typeof body.transferred === 'number' && body.transferred > 0 ? body.transferred : 0;
  } catch {
    return 0;
  }
}

export const getUsageLimits = (): Promise<UsageLimits> => get('/api/usage-limits');

/** The user's printers; any failure becomes an empty list. */
export async function getPrinters(): Promise<Printer[]> {
  try {
    const list = await get<Printer[]>('/api/printers');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

export const createPrinter = (input: PrinterInput): Promise<Printer> => requestJson('POST', '/api/printers', input);

export async function updatePrinter(id: number, input: PrinterInput): Promise<void> {
  await apiRequest('PUT', `/api/printers/${id}`, input);
}

/** Asks the printer's host for the last job, config and log (the server's operator must allow it). */
export const pullPrinter = (id: number): Promise<PullResult> => requestJson('POST', `/api/printers/${id}/pull`, undefined);

export async function deletePrinter(id: number): Promise<void> {
  await apiRequest('DELETE', `/api/printers/${id}`);
}

/**
 * A failed photo upload: the message stays 'Failed to upload images'; `reason` is what the
 * server said (which image and why: unsupported format, too large, too many pixels) when it
 * said anything.
 */
export class UploadError extends Error {
  readonly reason: string | null;
  readonly status: number | null;

  constructor(cause: unknown) {
    super('Failed to upload images', { cause });
    this.name = 'UploadError';
    this.status = cause instanceof ApiError ? cause.status : null;
    const details = cause instanceof ApiError ? cause.details : null;
    this.reason = details?.fields?.images ?? details?.message ?? null;
  }
}

/** Uploads photos as repeated multipart 'images' fields. */
export async function uploadImages(files: File[]): Promise<UploadResponse> {
  const form = new FormData();
  for (const f of files) form.append('images', f);
  try {
    return await requestJson<UploadResponse>('POST', '/api/upload-images', form);
  } catch (err) {
    throw new UploadError(err);
  }
}

export const createIssue = (input: IssueInput): Promise<Issue> => requestJson('POST', '/api/issues', input);

/** Saves an anonymous analysis to the signed-in account, with no new analysis and no credit. */
export const saveAnalysis = (input: SaveAnalysisInput): Promise<Issue> => requestJson('POST', '/api/issues/from-analysis', input);

export const getIssues = (): Promise<Issue[]> => get('/api/issues');

export const getPublicUsage = (): Promise<PublicUsage> => get('/api/public-usage');

/** Anonymous analysis. Errors keep the server body, e.g. 429 PUBLIC_USAGE_LIMIT_EXCEEDED. */
export const troubleshoot = (input: TroubleshootInput): Promise<TroubleshootingResult> =>
  requestJson('POST', '/api/troubleshoot', input);

export const resolveIssue = (id: number, input: ResolveInput): Promise<Issue> =>
  requestJson('PATCH', `/api/issues/${id}/resolve`, input);

/**
 * POST /api/share-results: publishes what a guide shows (summary, steps, tips) with the signature
 * the server gave the result; nothing else of the result leaves this page. The server titles the
 * guide from its summary.
 */
export const shareResults = (result: TroubleshootingResult): Promise<ShareResponse> =>
  requestJson('POST', '/api/share-results', {
    troubleshootingData: { summary: result.summary, steps: result.steps, additionalTips: result.additionalTips },
    signature: result.signature ?? '',
  });

export const getSharedResult = (shareId: string): Promise<SharedResult> =>
  get(`/api/share/${encodeURIComponent(shareId)}`);

export const getPricing = (): Promise<PricingEntry[]> => get('/api/pricing');

export const createSubscription = (tier: Tier): Promise<CreateSubscriptionResponse> =>
  requestJson('POST', '/api/create-subscription', { tier });

export async function completeSubscription(setupIntentId: string): Promise<void> {
  await apiRequest('POST', '/api/complete-subscription', { setupIntentId });
}

export const changeSubscription = (newTier: Tier): Promise<{ message: string }> =>
  requestJson('POST', '/api/change-subscription', { newTier });

export async function cancelSubscription(): Promise<void> {
  await apiRequest('POST', '/api/cancel-subscription');
}

// ---- Subscription answers read by the billing screen ----

async function requestJsonOrEmpty<T>(method: string, url: string, data?: unknown): Promise<T> {
  const res = await apiRequest(method, url, data);
  const text = await res.text();
  return (text ? JSON.parse(text) : {}) as T;
}

/** complete-subscription with its answer (a payment that needs action, the new state). */
export const completeSubscriptionWithResult = <T = Record<string, unknown>>(setupIntentId: string): Promise<T> =>
  requestJsonOrEmpty('POST', '/api/complete-subscription', { setupIntentId });

/** cancel-subscription with its answer (the date paid access ends). */
export const cancelSubscriptionWithResult = <T = Record<string, unknown>>(): Promise<T> =>
  requestJsonOrEmpty('POST', '/api/cancel-subscription');

// ---- Workspace additions: issue pages, photos, account ----

export type ExportFormat = 'csv' | 'json';

/** GET /api/issues/export?format=csv|json: the caller's whole issue log as a file. */
export async function exportIssues(format: ExportFormat): Promise<{ blob: Blob; filename: string }> {
  const res = await apiRequest('GET', `/api/issues/export?format=${format}`);
  const disposition = res.headers.get('Content-Disposition') ?? '';
  const named = /filename="?([^";]+)"?/i.exec(disposition);
  return { blob: await res.blob(), filename: named?.[1] ?? `layerfix-issues.${format}` };
}

/** GET /api/issues/{id}/attachments/{n}: the text of a saved issue's attachment (owner only). */
export async function getAttachmentText(issueId: number, n: number): Promise<string> {
  const res = await apiRequest('GET', `/api/issues/${issueId}/attachments/${n}`);
  return res.text();
}

/** GET /api/issues/{id}: one saved issue, with its attachments' names, kinds and sizes. */
export const getIssue = (id: number): Promise<Issue> => get(`/api/issues/${id}`);

/** PATCH /api/issues/{id}/progress: the first ticked step moves a pending issue to in-progress. */
export const startIssue = (id: number): Promise<Issue> => requestJson('PATCH', `/api/issues/${id}/progress`);

/** POST /api/troubleshoot/refine: an anonymous result narrowed down by answers, no credit used. */
export const refineTroubleshoot = (
  input: TroubleshootInput & { answers: Record<string, NarrowAnswer>; refineToken: string },
): Promise<TroubleshootingResult> => requestJson('POST', '/api/troubleshoot/refine', { ...input, images: [] });

/** POST /api/issues/{id}/refine: a saved issue's analysis narrowed down by answers, no credit used. */
export const refineIssue = (id: number, answers: Record<string, NarrowAnswer>): Promise<Issue> =>
  requestJson('POST', `/api/issues/${id}/refine`, { answers });

/** PUT /api/issues/{id}/checked-steps: the ticked steps of a saved issue, by title. */
export const putCheckedSteps = (id: number, titles: string[]): Promise<Issue> =>
  requestJson('PUT', `/api/issues/${id}/checked-steps`, { checkedSteps: titles });

// ---- Billing additions ----

/** GET /api/subscription: the caller's plan as the subscription screen needs it. */
export interface SubscriptionView {
  billingEnabled: boolean;
  tier: string;
  status: string;
  effectiveTier: string;
  /** A live provider subscription exists (a plan granted by the operator has none). */
  hasSubscription: boolean;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
}

export const getSubscription = (): Promise<SubscriptionView> => get('/api/subscription');

// ---- The maker's own account (/account) ----

/** PATCH /api/user/profile: the display name; answers the updated profile. */
export const updateDisplayName = (displayName: string): Promise<UserProfile> =>
  requestJson('PATCH', '/api/user/profile', { displayName });

/** POST /api/user/password (local accounts): other sessions end, this one stays. */
export const changeLocalPassword = (currentPassword: string, newPassword: string): Promise<{ message: string }> =>
  requestJson('POST', '/api/user/password', { currentPassword, newPassword });

/** POST /api/user/email (local accounts). */
export const changeLocalEmail = (newEmail: string, currentPassword: string): Promise<EmailChangeResult> =>
  requestJson('POST', '/api/user/email', { newEmail, currentPassword });

/** GET /api/user/data: everything kept about the maker, as a zip. */
export async function downloadMyData(): Promise<{ blob: Blob; filename: string }> {
  const res = await apiRequest('GET', '/api/user/data');
  const named = /filename="?([^";]+)"?/i.exec(res.headers.get('Content-Disposition') ?? '');
  return { blob: await res.blob(), filename: named?.[1] ?? 'layerfix-data.zip' };
}

/**
 * DELETE /api/user: local accounts send the password; in Firebase mode `token` is an ID token from
 * a sign-in of the last few minutes.
 */
export const deleteMyAccount = (body: { password?: string }, token?: string): Promise<DeleteAccountResult> =>
  requestJson('DELETE', '/api/user', body, token ? { headers: { Authorization: `Bearer ${token}` } } : undefined);
