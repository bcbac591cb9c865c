import { describe, expect, it, vi } from 'vitest';
import { guardWakeLock } from './wakeLock';

// The cores ask for a screen wake lock the way RetroArch's web platform does (below): the promise
// is kept, never awaited or handled. A refusal must not become an uncaught error; the game goes on.

/** RetroArch's PlatformEmscriptenDoSetWakeLock, as the cores ship it. */
async function coreSetWakeLock(nav: { wakeLock?: { request(t: 'screen'): Promise<unknown> } }, rpe: { sentinelPromise: Promise<unknown> | null }, state: boolean) {
  if (state && !rpe.sentinelPromise && nav?.wakeLock?.request) {
    try {
      rpe.sentinelPromise = nav.wakeLock.request('screen');
    } catch {
      /* as the core does */
    }
  } else if (!state && rpe.sentinelPromise) {
    try {
      const sentinel = (await rpe.sentinelPromise) as { release(): void };
      sentinel.release();
    } catch {
      /* as the core does */
    }
    rpe.sentinelPromise = null;
  }
}

const refused = () => Promise.reject(new DOMException('Wake Lock permission request denied', 'NotAllowedError'));

describe('guardWakeLock', () => {
  it('a refused lock resolves to null instead of rejecting, so the core’s kept promise is never an uncaught error', async () => {
    const asked = vi.fn(refused);
    const nav = { wakeLock: { request: asked } };
    guardWakeLock(nav);
    const rpe = { sentinelPromise: null as Promise<unknown> | null };
    await coreSetWakeLock(nav, rpe, true);
    await expect(rpe.sentinelPromise).resolves.toBeNull();
    expect(asked).toHaveBeenCalledWith('screen');
    // Releasing it later is quiet too.
    await coreSetWakeLock(nav, rpe, false);
    expect(rpe.sentinelPromise).toBeNull();
  });

  it('a request that throws at once is a null lock too', async () => {
    const nav = {
      wakeLock: {
        request: vi.fn((_type: 'screen'): Promise<unknown> => {
          throw new DOMException('no', 'NotAllowedError');
        }),
      },
    };
    guardWakeLock(nav);
    await expect(nav.wakeLock.request('screen')).resolves.toBeNull();
  });

  it('hands a granted lock on as it came, and does nothing without the API', async () => {
    const sentinel = { release: vi.fn(() => Promise.resolve()) };
    const nav = { wakeLock: { request: vi.fn(() => Promise.resolve(sentinel)) } };
    guardWakeLock(nav);
    const rpe = { sentinelPromise: null as Promise<unknown> | null };
    await coreSetWakeLock(nav, rpe, true);
    await expect(rpe.sentinelPromise).resolves.toBe(sentinel);
    await coreSetWakeLock(nav, rpe, false);
    expect(sentinel.release).toHaveBeenCalled();
    expect(() => guardWakeLock({})).not.toThrow();
  });
});
