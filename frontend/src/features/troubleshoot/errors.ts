// Error toasts of the anonymous analysis.

export interface ToastText {
  title: string;
  description: string;
}

export const ANALYSIS_FAILED = 'Analysis Failed';
export const DEFAULT_ANALYSIS_ERROR = 'Unable to analyze your printing issue. Please try again.';
export const TOO_LARGE_ERROR =
  'The uploaded images are too large. Please use smaller images (under 5MB each) and try again.';
export const OFFLINE_ERROR = 'No internet connection. Please check your connection and try again.';
export const NON_OK_ERROR = 'Failed to get AI recommendations';
export const AI_UNAVAILABLE_ERROR = 'AI analysis service is currently unavailable. Please try again later.';
export const SERVER_DOWN_ERROR = 'The Layerfix server cannot be reached right now. Your form is kept: please try again in a moment.';
export const SIGNED_OUT_TITLE = 'You Were Signed Out';
export const SIGNED_OUT_ERROR = 'You were signed out because your session ended. Sign in again to send your issue: what you typed is kept.';
/** The allowance is monthly: the spec's "Daily Limit Reached" told makers the wrong wait. */
export const LIMIT_TITLE = 'Monthly Limit Reached';
export const LIMIT_CODE = 'PUBLIC_USAGE_LIMIT_EXCEEDED';

export interface HttpFailure {
  status: number;
  code?: string;
  message?: string;
}

// parseHttpError reads the transport's error text, `${status}: ${body}`, and the JSON error body
// {"error":{"code","message"}} when there is one. It returns null for errors without a status.
export function parseHttpError(err: unknown): HttpFailure | null {
  const text = err instanceof Error ? err.message : typeof err === 'string' ? err : '';
  const m = /^(\d{3}): ?([\s\S]*)$/.exec(text);
  if (!m) return null;
  const failure: HttpFailure = { status: Number(m[1]) };
  try {
    const body = JSON.parse(m[2]) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === 'string') failure.code = body.error.code;
    if (typeof body.error?.message === 'string') failure.message = body.error.message;
  } catch {
    // Not JSON (a proxy's HTML page, plain text): keep only the status.
  }
  return failure;
}

// isNetworkFailure: the request never got an answer (the browsers' words for a failed fetch).
export function isNetworkFailure(err: unknown): boolean {
  const text = err instanceof Error ? err.message : String(err ?? '');
  return /failed to fetch|networkerror|load failed|network request failed/i.test(text);
}

// serverFailure is the real reason of a failed request the server did not explain by a known code:
// no answer or a gateway's 502/503/504 mean the server is down, and a 5xx with a message says why.
export function serverFailure(err: unknown, http: HttpFailure | null): string | null {
  if (!http) return isNetworkFailure(err) ? SERVER_DOWN_ERROR : null;
  if (http.status >= 500 && http.message) return http.message;
  if (http.status === 502 || http.status === 503 || http.status === 504) return SERVER_DOWN_ERROR;
  return null;
}

// attachmentsTooLarge: the server's 413 for attachments over their limit says what to do.
export function attachmentsTooLarge(http: HttpFailure): string | null {
  return http.status === 413 && http.message && /^Attachments /.test(http.message) ? http.message : null;
}

// analysisErrorToast maps a failed POST /api/troubleshoot to its toast.
export function analysisErrorToast(err: unknown, online = navigator.onLine): ToastText {
  const text = err instanceof Error ? err.message : String(err ?? '');
  if (!online) return { title: ANALYSIS_FAILED, description: OFFLINE_ERROR };
  if (/entity too large/i.test(text)) return { title: ANALYSIS_FAILED, description: TOO_LARGE_ERROR };
  const http = parseHttpError(err);
  if (!http) return { title: ANALYSIS_FAILED, description: serverFailure(err, null) ?? DEFAULT_ANALYSIS_ERROR };
  if (http.status === 429 && http.code === LIMIT_CODE) {
    return { title: LIMIT_TITLE, description: http.message ?? "You've used all your free credits!" };
  }
  if (http.code === 'AI_UNAVAILABLE' || /gemini|ai provider/i.test(http.message ?? '')) {
    return { title: ANALYSIS_FAILED, description: AI_UNAVAILABLE_ERROR };
  }
  if (http.status === 413) return { title: ANALYSIS_FAILED, description: attachmentsTooLarge(http) ?? TOO_LARGE_ERROR };
  if (http.status === 400 && http.message) {
    // A validation failure the form did not catch (e.g. an unreadable photo): say which.
    return { title: NON_OK_ERROR, description: http.message };
  }
  return { title: ANALYSIS_FAILED, description: serverFailure(err, http) ?? NON_OK_ERROR };
}

export const SHARE_FAILED = 'Failed to create share link. Please try again.';
export const COPY_FAILED = 'Failed to copy link. Please copy it manually.';
export const SHARED_PAGE_COPY_FAILED = 'Unable to copy the link. Please copy the URL manually.';
export const SHARED_LOAD_FAILED = 'Failed to load shared troubleshooting guide';

// refineErrorText explains a failed narrow-it-down answer: the server's reason when it gave one.
export function refineErrorText(err: unknown, online = navigator.onLine): string {
  if (!online) return OFFLINE_ERROR;
  const http = parseHttpError(err);
  if (http && http.status < 500 && http.message) return http.message;
  return 'The steps could not be re-ranked. Please try again.';
}
