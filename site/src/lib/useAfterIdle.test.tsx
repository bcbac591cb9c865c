import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAfterIdle } from './useAfterIdle';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('useAfterIdle', () => {
  it('turns true when the browser reports an idle moment, asked for with the bounding timeout', () => {
    let callback: (() => void) | null = null;
    const ric = vi.fn((cb: () => void) => {
      callback = cb;
      return 1;
    });
    vi.stubGlobal('requestIdleCallback', ric);
    vi.stubGlobal('cancelIdleCallback', vi.fn());
    const { result, unmount } = renderHook(() => useAfterIdle(1234));
    expect(result.current).toBe(false);
    expect(ric).toHaveBeenCalledWith(expect.any(Function), { timeout: 1234 });
    act(() => callback!());
    expect(result.current).toBe(true);
    unmount(); // while the stubs are still in place
  });

  it('cancels its request when unmounted before the idle moment', () => {
    const cancel = vi.fn();
    vi.stubGlobal('requestIdleCallback', vi.fn(() => 7));
    vi.stubGlobal('cancelIdleCallback', cancel);
    renderHook(() => useAfterIdle()).unmount();
    expect(cancel).toHaveBeenCalledWith(7);
  });

  it('without requestIdleCallback turns true after a zero timeout', async () => {
    vi.stubGlobal('requestIdleCallback', undefined);
    const { result } = renderHook(() => useAfterIdle());
    expect(result.current).toBe(false);
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(result.current).toBe(true);
  });
});
