import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useDebouncedValue } from './useDebouncedValue';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('useDebouncedValue', () => {
  it.each([500, 300])('waits %i ms after the last change', (delay) => {
    const { result, rerender } = renderHook(({ v }) => useDebouncedValue(v, delay), { initialProps: { v: '' } });
    rerender({ v: 'g' });
    act(() => vi.advanceTimersByTime(delay - 100));
    rerender({ v: 'go' });
    act(() => vi.advanceTimersByTime(delay - 1));
    expect(result.current).toBe('');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe('go');
  });

  it('follows a new delay', () => {
    const { result, rerender } = renderHook(({ v, d }) => useDebouncedValue(v, d), { initialProps: { v: 'a', d: 500 } });
    rerender({ v: 'b', d: 100 });
    act(() => vi.advanceTimersByTime(100));
    expect(result.current).toBe('b');
  });
});
