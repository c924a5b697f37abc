import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { config } from '../config';
import {
  ApiError,
  apiRequest,
  getJson,
  getPrinters,
  setAuthToken,
  transferUsage,
  troubleshoot,
  uploadImages,
  shareResults,
  UploadError,
} from './client';

type Call = { url: string; init: RequestInit };

function mockFetch(status = 200, body = '{}', statusText = 'OK') {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(status === 204 ? null : body, { status, statusText });
    }),
  );
  return calls;
}

function headersOf(c: Call): Record<string, string> {
  return (c.init.headers ?? {}) as Record<string, string>;
}

beforeEach(() => {
  setAuthToken(null);
  config.basePath = '';
});

afterEach(() => {
  vi.unstubAllGlobals();
  config.basePath = '';
});

describe('apiRequest transport rule', () => {
  it('sends a JSON content type and body only when there is a body', async () => {
    const calls = mockFetch();
    await apiRequest('POST', '/api/share-results', { title: 't' });
    await apiRequest('DELETE', '/api/printers/3');
    expect(headersOf(calls[0])['Content-Type']).toBe('application/json');
    expect(calls[0].init.body).toBe('{"title":"t"}');
    expect(headersOf(calls[1])).not.toHaveProperty('Content-Type');
    expect(calls[1].init.body).toBeUndefined();
  });

  it('always includes credentials', async () => {
    const calls = mockFetch();
    await apiRequest('GET', '/api/pricing');
    await getJson('/api/pricing');
    expect(calls.map((c) => c.init.credentials)).toEqual(['include', 'include']);
  });

  it('adds the bearer token to /api URLs only, and only when a token exists', async () => {
    const calls = mockFetch();
    await apiRequest('GET', '/api/issues');
    setAuthToken('tok-123');
    await apiRequest('GET', '/api/issues');
    await getJson('/api/usage-limits');
    await apiRequest('GET', '/healthz');
    await apiRequest('GET', 'https://example.com/api/x');
    expect(headersOf(calls[0])).not.toHaveProperty('Authorization');
    expect(headersOf(calls[1]).Authorization).toBe('Bearer tok-123');
    expect(headersOf(calls[2]).Authorization).toBe('Bearer tok-123');
    expect(headersOf(calls[3])).not.toHaveProperty('Authorization');
    expect(headersOf(calls[4])).not.toHaveProperty('Authorization');
  });

  it('throws "status: body" for a non-OK response', async () => {
    const body = '{"error":{"code":"PUBLIC_USAGE_LIMIT_EXCEEDED","message":"Limit reached"}}';
    mockFetch(429, body, 'Too Many Requests');
    const err = await troubleshoot({} as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(`429: ${body}`);
    expect((err as ApiError).status).toBe(429);
    expect((err as ApiError).details?.code).toBe('PUBLIC_USAGE_LIMIT_EXCEEDED');
  });

  it('uses the status text when the error body is empty', async () => {
    mockFetch(503, '', 'Service Unavailable');
    await expect(apiRequest('GET', '/api/pricing')).rejects.toThrow(/^503: Service Unavailable$/);
  });

  it('treats 401 as an error by default and as null when asked', async () => {
    mockFetch(401, 'unauthorized', 'Unauthorized');
    await expect(getJson('/api/user/profile')).rejects.toThrow('401: unauthorized');
    await expect(getJson('/api/user/profile', 'returnNull')).resolves.toBeNull();
  });

  it('prefixes the runtime base path to app URLs', async () => {
    const calls = mockFetch();
    config.basePath = '/layerfix';
    await apiRequest('GET', '/api/pricing');
    await getJson('/api/usage-limits');
    expect(calls.map((c) => c.url)).toEqual(['/layerfix/api/pricing', '/layerfix/api/usage-limits']);
  });
});

describe('calls with special handling', () => {
  it('transfer-usage sends a JSON content type without a body', async () => {
    const calls = mockFetch();
    setAuthToken('t');
    await transferUsage();
    expect(calls[0].init.method).toBe('POST');
    expect(headersOf(calls[0])['Content-Type']).toBe('application/json');
    expect(calls[0].init.body).toBeUndefined();
  });

  it('shares only what a guide shows, with the server signature', async () => {
    const calls = mockFetch(201, '{"shareId":"abc"}');
    await shareResults({
      summary: 's',
      steps: [{ title: 't', description: 'd', priority: 'high' }],
      additionalTips: ['tip'],
      questions: [{ id: 'one-spool', text: 'Only one spool?' }],
      answers: { 'one-spool': 'yes' },
      refineToken: 'secret.token',
      signature: 'sig123',
    });
    const body = JSON.parse(String(calls[0].init.body));
    expect(body).toEqual({
      troubleshootingData: { summary: 's', steps: [{ title: 't', description: 'd', priority: 'high' }], additionalTips: ['tip'] },
      signature: 'sig123',
    });
  });

  it('uploads images as multipart without a JSON content type', async () => {
    const calls = mockFetch(200, '{"images":[{"url":"/u/1.jpg"}]}');
    const file = new File(['x'], 'a.png', { type: 'image/png' });
    const res = await uploadImages([file, file]);
    expect(res.images[0].url).toBe('/u/1.jpg');
    expect(headersOf(calls[0])).not.toHaveProperty('Content-Type');
    expect((calls[0].init.body as FormData).getAll('images')).toHaveLength(2);
  });

  it('reports an upload failure as "Failed to upload images"', async () => {
    mockFetch(500, 'boom', 'Internal Server Error');
    await expect(uploadImages([])).rejects.toThrow(/^Failed to upload images$/);
  });

  it("keeps the server's reason for a refused image", async () => {
    const reason = 'Photo 2 (scan.tiff) is not a JPEG, PNG or WebP image';
    mockFetch(400, JSON.stringify({ error: { code: 'VALIDATION', message: reason, fields: { images: reason } } }), 'Bad Request');
    const err = await uploadImages([]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UploadError);
    expect((err as UploadError).reason).toBe(reason);
    expect((err as UploadError).status).toBe(400);
  });

  it('turns any printers failure into an empty list', async () => {
    mockFetch(500, 'boom', 'Internal Server Error');
    await expect(getPrinters()).resolves.toEqual([]);
  });
});
