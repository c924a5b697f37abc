import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import {
  AI_UNAVAILABLE_ERROR,
  analysisErrorToast,
  DEFAULT_ANALYSIS_ERROR,
  NON_OK_ERROR,
  OFFLINE_ERROR,
  parseHttpError,
  SERVER_DOWN_ERROR,
  TOO_LARGE_ERROR,
} from './errors';

const limitBody = JSON.stringify({
  error: { code: 'PUBLIC_USAGE_LIMIT_EXCEEDED', message: 'Your free credits reset on December 1, 2026 (UTC).' },
});

describe('analysisErrorToast', () => {
  it('shows Monthly Limit Reached with the server message on 429 PUBLIC_USAGE_LIMIT_EXCEEDED', () => {
    expect(analysisErrorToast(new ApiError(429, 'Too Many Requests', limitBody), true)).toEqual({
      title: 'Monthly Limit Reached',
      description: 'Your free credits reset on December 1, 2026 (UTC).',
    });
    // The transport's plain Error text works too.
    expect(analysisErrorToast(new Error(`429: ${limitBody}`), true).title).toBe('Monthly Limit Reached');
  });

  it('treats a 429 with another code as a non-OK response', () => {
    const err = new ApiError(429, 'Too Many Requests', '{"error":{"code":"RATE_LIMITED","message":"slow down"}}');
    expect(analysisErrorToast(err, true)).toEqual({ title: 'Analysis Failed', description: NON_OK_ERROR });
  });

  it('maps entity too large and 413 to the too-large text', () => {
    expect(analysisErrorToast(new Error('413: request entity too large'), true).description).toBe(TOO_LARGE_ERROR);
    expect(analysisErrorToast(new ApiError(413, 'Payload Too Large', ''), true).description).toBe(TOO_LARGE_ERROR);
  });

  it('says offline when the browser is offline, whatever the error', () => {
    expect(analysisErrorToast(new TypeError('Failed to fetch'), false).description).toBe(OFFLINE_ERROR);
  });

  it('maps other non-OK responses to Failed to get AI recommendations', () => {
    expect(analysisErrorToast(new ApiError(500, 'Internal Server Error', '<html>oops</html>'), true).description).toBe(NON_OK_ERROR);
    expect(analysisErrorToast(new ApiError(418, 'Teapot', ''), true).description).toBe(NON_OK_ERROR);
  });

  it('gives the real reason of a server failure: its message, or that it is down', () => {
    const msg = '{"error":{"code":"INTERNAL","message":"The database is locked; try again."}}';
    expect(analysisErrorToast(new ApiError(500, 'Internal Server Error', msg), true).description).toBe('The database is locked; try again.');
    for (const status of [502, 503, 504]) {
      expect(analysisErrorToast(new ApiError(status, 'Bad Gateway', '<html>down</html>'), true).description).toBe(SERVER_DOWN_ERROR);
    }
    expect(analysisErrorToast(new TypeError('Failed to fetch'), true).description).toBe(SERVER_DOWN_ERROR);
  });

  it('names the failing field on a 400 the form did not catch', () => {
    const err = new ApiError(400, 'Bad Request', '{"error":{"code":"VALIDATION","message":"Image 2 is not a JPEG or PNG image"}}');
    expect(analysisErrorToast(err, true)).toEqual({ title: NON_OK_ERROR, description: 'Image 2 is not a JPEG or PNG image' });
  });

  it('maps an unavailable AI provider to its text', () => {
    const err = new ApiError(503, 'Service Unavailable', '{"error":{"code":"AI_UNAVAILABLE","message":"Gemini is down"}}');
    expect(analysisErrorToast(err, true).description).toBe(AI_UNAVAILABLE_ERROR);
  });

  it('falls back to the default text for errors without a status', () => {
    expect(analysisErrorToast(new Error('photo could not be read'), true)).toEqual({
      title: 'Analysis Failed',
      description: DEFAULT_ANALYSIS_ERROR,
    });
    expect(analysisErrorToast(undefined, true).description).toBe(DEFAULT_ANALYSIS_ERROR);
  });
});

describe('parseHttpError', () => {
  it('reads status, code and message', () => {
    expect(parseHttpError(new Error(`429: ${limitBody}`))).toEqual({
      status: 429,
      code: 'PUBLIC_USAGE_LIMIT_EXCEEDED',
      message: 'Your free credits reset on December 1, 2026 (UTC).',
    });
    expect(parseHttpError(new Error('404: Not Found'))).toEqual({ status: 404 });
    expect(parseHttpError(new Error('boom'))).toBeNull();
  });
});
