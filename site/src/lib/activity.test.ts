import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../test/utils';
import { logActivity, logPageLoad, logRouteChange, resetActivityState } from './activity';
import { detectDeviceType, timeZoneName } from './clientInfo';

beforeEach(() => {
  resetActivityState();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const flush = () => new Promise((r) => setTimeout(r, 0));

function logged(fetch: ReturnType<typeof stubFetch>) {
  return fetch.mock.calls
    .filter((c) => String(c[0]) === '/api/activity/log')
    .map((c) => JSON.parse(String((c[1] as RequestInit).body)));
}

describe('activity logging', () => {
  it('posts action, details, timestamp and the client info', async () => {
    const fetch = stubFetch({ 'POST /api/activity/log': () => new Response(null, { status: 204 }) });
    await logActivity('route_change', { from: '/a', to: '/b' });
    const [event] = logged(fetch);
    expect(event).toMatchObject({ action: 'route_change', details: { from: '/a', to: '/b' } });
    expect(new Date(event.timestamp).toString()).not.toBe('Invalid Date');
    expect(Object.keys(event.clientInfo).sort()).toEqual(
      [
        'userAgent', 'language', 'timeZone', 'screenWidth', 'screenHeight', 'colorDepth', 'referrer',
        'platform', 'vendor', 'connection', 'deviceMemory', 'hardwareConcurrency', 'deviceType',
      ].sort(),
    );
    expect(['mobile', 'tablet', 'desktop']).toContain(event.clientInfo.deviceType);
  });

  it('page_load is sent once per load, with guest_visit when no token is stored', async () => {
    const fetch = stubFetch({ 'POST /api/activity/log': () => new Response(null, { status: 204 }) });
    logPageLoad('/');
    logPageLoad('/');
    await flush();
    expect(logged(fetch).map((e) => e.action)).toEqual(['page_load', 'guest_visit']);
  });

  it('waits for the browser to be idle, then sends the events in their order', async () => {
    const fetch = stubFetch({ 'POST /api/activity/log': () => new Response(null, { status: 204 }) });
    const idle: Array<() => void> = [];
    vi.stubGlobal('requestIdleCallback', (fn: () => void) => idle.push(fn));
    logPageLoad('/');
    logRouteChange('/', '/games');
    await flush();
    expect(logged(fetch)).toEqual([]);
    expect(idle).toHaveLength(1);
    idle[0]();
    await flush();
    expect(logged(fetch).map((e) => e.action)).toEqual(['page_load', 'guest_visit', 'route_change']);
  });

  it('no guest_visit with a token', async () => {
    localStorage.setItem('token', 't');
    const fetch = stubFetch({ 'POST /api/activity/log': () => new Response(null, { status: 204 }) });
    logPageLoad('/blog');
    await flush();
    expect(logged(fetch).map((e) => e.action)).toEqual(['page_load']);
  });

  it('route_change carries from and to', async () => {
    const fetch = stubFetch({ 'POST /api/activity/log': () => new Response(null, { status: 204 }) });
    logRouteChange('/', '/games');
    await flush();
    expect(logged(fetch)[0]).toMatchObject({ action: 'route_change', details: { from: '/', to: '/games' } });
  });

  it('errors are ignored: no rejection and nothing on console.error', async () => {
    const error = vi.spyOn(console, 'error');
    stubFetch({ 'POST /api/activity/log': () => json({ status: 429, message: 'slow down' }, 429) });
    await expect(logActivity('page_load')).resolves.toBeUndefined();
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('offline')));
    await expect(logActivity('page_load')).resolves.toBeUndefined();
    expect(error).not.toHaveBeenCalled();
  });
});

describe('device type', () => {
  it.each([
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148', 0, 'mobile'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari/537.36', 0, 'mobile'],
    ['Mozilla/5.0 (Linux; Android 13; SM-X700) Safari/537.36', 0, 'tablet'],
    ['Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X)', 0, 'tablet'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605.1.15', 5, 'tablet'],
    ['Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0 Safari/537.36', 0, 'desktop'],
  ])('%s → %s', (ua, touch, type) => {
    expect(detectDeviceType(ua, touch)).toBe(type);
  });
});

describe('time zone', () => {
  it('comes from Temporal where the browser has it, without building a date formatter', () => {
    const dtf = vi.spyOn(Intl, 'DateTimeFormat');
    const g = { Temporal: { Now: { timeZoneId: () => 'Europe/Kyiv' } } } as unknown as typeof globalThis;
    expect(timeZoneName(g)).toBe('Europe/Kyiv');
    expect(dtf).not.toHaveBeenCalled();
  });

  it('falls back to Intl without Temporal', () => {
    expect(timeZoneName({} as typeof globalThis)).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});
