import { describe, expect, it, vi } from 'vitest';
import { loadOnce } from './loadOnce';

describe('loadOnce', () => {
  it('shares one load between callers', async () => {
    const load = vi.fn(() => Promise.resolve('texts'));
    const get = loadOnce(load);
    expect(get()).toBe(get());
    await expect(get()).resolves.toBe('texts');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries again after a failed load', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce('texts');
    const get = loadOnce(load);
    await expect(get()).rejects.toThrow('offline');
    await expect(get()).resolves.toBe('texts');
    await expect(get()).resolves.toBe('texts');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
