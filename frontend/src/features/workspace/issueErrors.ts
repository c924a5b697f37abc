// Toasts of a failed signed-in issue submission.
import { UploadError } from '../../api/client';
import {
  ANALYSIS_FAILED,
  AI_UNAVAILABLE_ERROR,
  attachmentsTooLarge,
  LIMIT_TITLE,
  OFFLINE_ERROR,
  parseHttpError,
  isNetworkFailure,
  SERVER_DOWN_ERROR,
  serverFailure,
  SIGNED_OUT_ERROR,
  SIGNED_OUT_TITLE,
  TOO_LARGE_ERROR,
  type ToastText,
} from '../troubleshoot/errors';

export const SUBMIT_DEFAULT_ERROR = 'Failed to submit issue. Please try again.';
export const USAGE_LIMIT_CODE = 'USAGE_LIMIT_EXCEEDED';

export function issueErrorToast(err: unknown, online = navigator.onLine): ToastText {
  const text = err instanceof Error ? err.message : String(err ?? '');
  const fail = (description: string) => ({ title: ANALYSIS_FAILED, description });
  if (!online) return fail(OFFLINE_ERROR);
  if (/entity too large/i.test(text)) return fail(TOO_LARGE_ERROR);
  const http = parseHttpError(err);
  if (!http) return fail(/gemini|ai provider/i.test(text) ? AI_UNAVAILABLE_ERROR : (serverFailure(err, null) ?? SUBMIT_DEFAULT_ERROR));
  if (http.status === 401) return { title: SIGNED_OUT_TITLE, description: SIGNED_OUT_ERROR };
  if (http.status === 429 && http.code === USAGE_LIMIT_CODE && http.message) return { title: LIMIT_TITLE, description: http.message };
  // The server asks for a verified email first: its message says how.
  if (http.status === 403 && http.code === 'EMAIL_NOT_VERIFIED' && http.message) return fail(http.message);
  if (http.code === 'AI_UNAVAILABLE' || /gemini|ai provider/i.test(http.message ?? '')) return fail(AI_UNAVAILABLE_ERROR);
  if (http.status === 413) return fail(attachmentsTooLarge(http) ?? TOO_LARGE_ERROR);
  // A validation failure the form did not catch (a printer deleted meanwhile): the server says which.
  if (http.status === 400 && http.message) return fail(http.message);
  return fail(serverFailure(err, http) ?? SUBMIT_DEFAULT_ERROR);
}

export const UPLOAD_FAILED = 'Failed to upload images';

// uploadErrorToast: a failed photo upload keeps the user on the form and says which image the
// server refused and why, when it said so.
export function uploadErrorToast(err: unknown, online = navigator.onLine): ToastText {
  if (!online) return { title: ANALYSIS_FAILED, description: OFFLINE_ERROR };
  if (err instanceof UploadError) {
    if (err.status === 401) return { title: SIGNED_OUT_TITLE, description: SIGNED_OUT_ERROR };
    if (err.status === null && isNetworkFailure(err.cause)) return { title: UPLOAD_FAILED, description: SERVER_DOWN_ERROR };
    if (err.status === 413) return { title: UPLOAD_FAILED, description: TOO_LARGE_ERROR };
    if (err.reason && err.status !== null && err.status < 500) return { title: UPLOAD_FAILED, description: err.reason };
  }
  return { title: ANALYSIS_FAILED, description: UPLOAD_FAILED };
}
