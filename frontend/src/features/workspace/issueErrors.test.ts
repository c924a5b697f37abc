import { expect, test } from 'vitest';
import { ApiError, UploadError } from '../../api/client';
import { SERVER_DOWN_ERROR, SIGNED_OUT_ERROR, SIGNED_OUT_TITLE } from '../troubleshoot/errors';
import { issueErrorToast, SUBMIT_DEFAULT_ERROR, UPLOAD_FAILED, uploadErrorToast } from './issueErrors';

const api = (status: number, code: string, message: string) =>
  new ApiError(status, '', JSON.stringify({ error: { code, message } }));

test('issue submission errors', () => {
  expect(issueErrorToast(new Error('boom'))).toEqual({ title: 'Analysis Failed', description: SUBMIT_DEFAULT_ERROR });
  expect(issueErrorToast(new ApiError(500, '', '<html>oops</html>'))).toEqual({ title: 'Analysis Failed', description: SUBMIT_DEFAULT_ERROR });
  // The real reason: the server's own message, or that it cannot be reached; a refused session says so.
  expect(issueErrorToast(api(500, 'INTERNAL', 'The database is locked'))).toEqual({ title: 'Analysis Failed', description: 'The database is locked' });
  expect(issueErrorToast(new ApiError(503, '', '')).description).toBe(SERVER_DOWN_ERROR);
  expect(issueErrorToast(new TypeError('Failed to fetch')).description).toBe(SERVER_DOWN_ERROR);
  expect(issueErrorToast(api(401, 'UNAUTHORIZED', 'no session'))).toEqual({ title: SIGNED_OUT_TITLE, description: SIGNED_OUT_ERROR });
  expect(issueErrorToast(new Error('boom'), false).description).toBe('No internet connection. Please check your connection and try again.');
  expect(issueErrorToast(new Error('413: request entity too large')).description).toMatch(/^The uploaded images are too large/);
  expect(issueErrorToast(api(502, 'AI_UNAVAILABLE', 'Gemini failed')).description).toBe(
    'AI analysis service is currently unavailable. Please try again later.',
  );
  expect(issueErrorToast(api(429, 'USAGE_LIMIT_EXCEEDED', "You've used all 3 sessions"))).toEqual({
    title: 'Monthly Limit Reached',
    description: "You've used all 3 sessions",
  });
  expect(issueErrorToast(api(403, 'EMAIL_NOT_VERIFIED', 'Please verify your email address first')).description).toBe(
    'Please verify your email address first',
  );
});

test('a refused photo names the image and the cause instead of a bare "Failed to upload images"', () => {
  const reason = 'Photo 1 (layer.png) has too many pixels (6300×6300); the limit is 40 megapixels';
  const refused = new UploadError(new ApiError(400, '', JSON.stringify({ error: { code: 'VALIDATION', message: reason, fields: { images: reason } } })));
  expect(uploadErrorToast(refused)).toEqual({ title: UPLOAD_FAILED, description: reason });
  // A server failure says nothing useful: keep the generic text.
  expect(uploadErrorToast(new UploadError(new ApiError(500, '', 'boom'))).description).toBe(UPLOAD_FAILED);
  expect(uploadErrorToast(new UploadError(new ApiError(413, '', ''))).description).toMatch(/too large/);
  expect(uploadErrorToast(new UploadError(new ApiError(401, '', ''))).title).toBe(SIGNED_OUT_TITLE);
  expect(uploadErrorToast(new UploadError(new TypeError('Failed to fetch')), true).description).toBe(SERVER_DOWN_ERROR);
});
