import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../test/utils';
import { getIpInfo } from './ipInfo';
import { createQueryClient } from './queryClient';

// getIpInfo reads through a TanStack Query cache: one lookup serves everyone for 24 hours,
// `force` asks again, and a failure is not kept.
afterEach(() => vi.unstubAllGlobals());

describe('getIpInfo', () => {
  it('answers from the cache, asks again with force', async () => {
    const client = createQueryClient();
    let n = 0;
    const fetch = stubFetch({ '/api/ip': () => json({ ip: `1.2.3.${++n}`, country: 'Unknown', countryCode: 'Unknown' }) });
    expect((await getIpInfo({ client })).ip).toBe('1.2.3.1');
    expect((await getIpInfo({ client })).ip).toBe('1.2.3.1');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect((await getIpInfo({ client, force: true })).ip).toBe('1.2.3.2');
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('does not keep a failure and does not retry it', async () => {
    const client = createQueryClient();
    let fail = true;
    const fetch = stubFetch({
      '/api/ip': () => (fail ? json({ status: 500, message: 'boom', data: null }, 500) : json({ ip: '5.6.7.8', country: 'Germany', countryCode: 'DE' })),
    });
    await expect(getIpInfo({ client })).rejects.toThrow();
    expect(fetch).toHaveBeenCalledTimes(1);
    fail = false;
    expect((await getIpInfo({ client })).countryCode).toBe('DE');
  });
});
