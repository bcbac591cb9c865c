import { act, render, renderHook, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FullScreenLoader, LOADER_DELAY_MS, useLoaderVisible } from './Loader';

describe('full-screen loader', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("says 'Загрузка...'", () => {
    render(<FullScreenLoader />);
    expect(screen.getByRole('status').textContent).toBe('Загрузка...');
  });

  it('stays while localization is not ready, however long that takes', () => {
    const { result } = renderHook(() => useLoaderVisible(false));
    act(() => vi.advanceTimersByTime(60_000));
    expect(result.current).toBe(true);
  });

  it('goes away exactly 100 ms after localization is ready', () => {
    expect(LOADER_DELAY_MS).toBe(100);
    const { result, rerender } = renderHook(({ ready }) => useLoaderVisible(ready), {
      initialProps: { ready: false },
    });
    rerender({ ready: true });
    expect(result.current).toBe(true);
    act(() => vi.advanceTimersByTime(99));
    expect(result.current).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(false);
  });
});
