import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMPLETED_CLEAR_MS, useDownloads } from './useDownloads';

afterEach(() => vi.useRealTimers());

describe('useDownloads', () => {
  it('goes starting → downloading % → completed, and clears completed after 2 s', async () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useDownloads());
    let report: (p: number) => void = () => undefined;
    let finish: () => void = () => undefined;
    let done: Promise<boolean> = Promise.resolve(false);
    act(() => {
      done = result.current.run(5, (onPercent) => {
        report = onPercent;
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      });
    });
    expect(result.current.states[5]).toEqual({ status: 'starting', percent: 0 });
    act(() => report(40));
    expect(result.current.states[5]).toEqual({ status: 'downloading', percent: 40 });
    await act(async () => {
      finish();
      expect(await done).toBe(true);
    });
    expect(result.current.states[5]).toEqual({ status: 'completed', percent: 100 });
    expect(COMPLETED_CLEAR_MS).toBe(2000);
    act(() => vi.advanceTimersByTime(1999));
    expect(result.current.states[5]?.status).toBe('completed');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.states[5]).toBeUndefined();
  });

  it('keeps the error state and the percent reached', async () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useDownloads());
    let ok = true;
    await act(async () => {
      ok = await result.current.run(9, async (onPercent) => {
        onPercent(30);
        throw new Error('cut');
      });
    });
    expect(ok).toBe(false);
    expect(result.current.states[9]).toEqual({ status: 'error', percent: 30 });
    act(() => vi.advanceTimersByTime(10_000));
    expect(result.current.states[9]?.status).toBe('error');
  });

  it('tracks files separately', async () => {
    const { result } = renderHook(() => useDownloads());
    act(() => {
      void result.current.run(1, () => new Promise(() => undefined));
      void result.current.run(2, async (p) => p(10));
    });
    await act(async () => undefined);
    expect(result.current.states[1]?.status).toBe('starting');
    expect(result.current.states[2]?.status).toBe('completed');
  });
});
