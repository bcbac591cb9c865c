import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../test/utils';
import { api, ApiError, buildUrl } from './api';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('api client', () => {
  it('sends JSON and the Bearer token when one is stored', async () => {
    localStorage.setItem('token', 'abc');
    const fetch = stubFetch({ 'POST /api/things': ({ body }) => json({ got: body }, 201) });
    await expect(api.post('/api/things', { a: 1 })).resolves.toEqual({ got: { a: 1 } });
    const init = fetch.mock.calls[0][1] as RequestInit;
    const headers = new Headers(init.headers);
    expect(headers.get('Authorization')).toBe('Bearer abc');
    expect(headers.get('Content-Type')).toBe('application/json');
  });

  it('sends no Authorization without a token, or with auth: false', async () => {
    const fetch = stubFetch({ '/api/x': () => json({}) });
    await api.get('/api/x');
    localStorage.setItem('token', 'abc');
    await api.get('/api/x', { auth: false });
    for (const call of fetch.mock.calls) {
      expect(new Headers((call[1] as RequestInit).headers).has('Authorization')).toBe(false);
    }
  });

  it('revalidates every request with the server, past the answers a browser may keep', async () => {
    const fetch = stubFetch({ '/api/blog': () => json({ articles: [], totalCount: 0 }) });
    await api.get('/api/blog');
    expect((fetch.mock.calls[0][1] as RequestInit).cache).toBe('no-cache');
  });

  it('turns the server error shape into an ApiError with status, message and data', async () => {
    stubFetch({
      'POST /api/auth/register': () =>
        json({ status: 400, message: 'Validation failed', data: { email: { code: 'invalid', message: 'bad e-mail' } } }, 400),
    });
    const err = await api.post('/api/auth/register', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, message: 'Validation failed', data: { email: { code: 'invalid' } } });
  });

  it('a non-JSON error gets a generic message', async () => {
    stubFetch({ '/api/x': () => new Response('oops', { status: 502 }) });
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 502, message: 'HTTP error! status: 502' });
  });

  it('a non-JSON success where JSON was expected is an error', async () => {
    stubFetch({ '/api/x': () => new Response('<html>', { status: 200, headers: { 'Content-Type': 'text/html' } }) });
    await expect(api.get('/api/x')).rejects.toMatchObject({ message: 'Server returned non-JSON response' });
  });

  it('204 resolves to undefined', async () => {
    stubFetch({ 'DELETE /api/x/1': () => new Response(null, { status: 204 }) });
    await expect(api.delete('/api/x/1')).resolves.toBeUndefined();
  });

  it('a network failure is an ApiError with status 0', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 0, message: 'Failed to fetch' });
  });

  it('builds query strings, skipping empty values', () => {
    expect(buildUrl('/api/blog', { limit: 5, page: 2, search: undefined, category: 'all' })).toBe(
      '/api/blog?limit=5&page=2&category=all',
    );
  });
});
