// The client's refresh-once-on-401 behaviour (a failed refresh logs the user out).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../test/utils';
import { api, onTokenChange, refreshAccessToken } from './api';

afterEach(() => {
  vi.unstubAllGlobals();
});

const bearerOf = (init: unknown) => new Headers((init as RequestInit).headers).get('Authorization');

describe('refresh on 401', () => {
  it('refreshes once, stores the new token and retries with it', async () => {
    localStorage.setItem('token', 'old');
    const fetch = stubFetch({
      'GET /api/x': ({ headers }) =>
        headers.get('Authorization') === 'Bearer new' ? json({ ok: true }) : json({ status: 401, message: 'expired' }, 401),
      'POST /api/auth/refresh': () => json({ token: 'new', accessToken: 'new', refreshToken: 'r2' }),
    });
    await expect(api.get('/api/x')).resolves.toEqual({ ok: true });
    expect(localStorage.getItem('token')).toBe('new');
    expect(fetch.mock.calls.map(([url]) => url)).toEqual(['/api/x', '/api/auth/refresh', '/api/x']);
    // The refresh call relies on the cookie, not on the expired token.
    expect(bearerOf(fetch.mock.calls[1][1])).toBeNull();
    expect((fetch.mock.calls[1][1] as RequestInit).credentials).toBe('same-origin');
  });

  it('concurrent 401s share one refresh', async () => {
    localStorage.setItem('token', 'old');
    let refreshes = 0;
    stubFetch({
      '/api/a': ({ headers }) => (headers.get('Authorization') === 'Bearer new' ? json('a') : json({}, 401)),
      '/api/b': ({ headers }) => (headers.get('Authorization') === 'Bearer new' ? json('b') : json({}, 401)),
      'POST /api/auth/refresh': async () => {
        refreshes++;
        await new Promise((r) => setTimeout(r, 10));
        return json({ accessToken: 'new' });
      },
    });
    await expect(Promise.all([api.get('/api/a'), api.get('/api/b')])).resolves.toEqual(['a', 'b']);
    expect(refreshes).toBe(1);
  });

  it('a failed refresh drops the token, tells the listeners and rejects with the 401', async () => {
    localStorage.setItem('token', 'old');
    const seen: Array<string | null> = [];
    const off = onTokenChange((t) => seen.push(t));
    const fetch = stubFetch({
      '/api/x': () => json({ status: 401, message: 'expired' }, 401),
      'POST /api/auth/refresh': () => json({ status: 401, message: 'invalid or expired token' }, 401),
    });
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 401 });
    off();
    expect(localStorage.getItem('token')).toBeNull();
    expect(seen).toEqual([null]);
    expect(fetch).toHaveBeenCalledTimes(2); // no second retry
  });

  it('a retried request that is still 401 does not refresh again', async () => {
    localStorage.setItem('token', 'old');
    let refreshes = 0;
    stubFetch({
      '/api/x': () => json({}, 401),
      'POST /api/auth/refresh': () => {
        refreshes++;
        return json({ accessToken: 'new' });
      },
    });
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 401 });
    expect(refreshes).toBe(1);
  });

  it.each([
    ['no stored token', () => localStorage.removeItem('token'), {}],
    ['auth: false', () => localStorage.setItem('token', 'old'), { auth: false }],
    ['an explicit Authorization header', () => localStorage.setItem('token', 'old'), { headers: { Authorization: 'Bearer other' } }],
    ['retryOnUnauthorized: false', () => localStorage.setItem('token', 'old'), { retryOnUnauthorized: false }],
  ])('%s: a 401 is returned as is', async (_n, setup, opts) => {
    setup();
    const fetch = stubFetch({ '/api/x': () => json({}, 401), 'POST /api/auth/refresh': () => json({ accessToken: 'new' }) });
    await expect(api.get('/api/x', opts)).rejects.toMatchObject({ status: 401 });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('a network failure during refresh keeps the session', async () => {
    localStorage.setItem('token', 'old');
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(refreshAccessToken()).resolves.toBeNull();
    expect(localStorage.getItem('token')).toBe('old');
  });

  it('uses the token another tab already refreshed instead of refreshing again', async () => {
    localStorage.setItem('token', 'newer-from-another-tab');
    const fetch = stubFetch({ 'POST /api/auth/refresh': () => json({ accessToken: 'x' }) });
    await expect(refreshAccessToken('old')).resolves.toBe('newer-from-another-tab');
    expect(fetch).not.toHaveBeenCalled();
  });
});
