import { expect, test } from 'vitest';
import { ApiError } from '../../api/client';
import { issueErrorToast, SUBMIT_DEFAULT_ERROR } from './issueErrors';

const api = (status: number, code: string, message: string) =>
  new ApiError(status, '', JSON.stringify({ error: { code, message } }));

test('issue submission errors of SPEC section 8', () => {
  expect(issueErrorToast(new Error('boom'))).toEqual({ title: 'Analysis Failed', description: SUBMIT_DEFAULT_ERROR });
  expect(issueErrorToast(api(500, 'INTERNAL', 'x'))).toEqual({ title: 'Analysis Failed', description: SUBMIT_DEFAULT_ERROR });
  expect(issueErrorToast(new Error('boom'), false).description).toBe('No internet connection. Please check your connection and try again.');
  expect(issueErrorToast(new Error('413: request entity too large')).description).toMatch(/^The uploaded images are too large/);
  expect(issueErrorToast(api(502, 'AI_UNAVAILABLE', 'Gemini failed')).description).toBe(
    'AI analysis service is currently unavailable. Please try again later.',
  );
  expect(issueErrorToast(api(429, 'USAGE_LIMIT_EXCEEDED', "You've used all 3 sessions")).description).toBe("You've used all 3 sessions");
});
