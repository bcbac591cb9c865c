import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useNearViewport } from './useNearViewport';

afterEach(() => {
  vi.unstubAllGlobals();
});

class FakeObserver {
  static last: FakeObserver | null = null;
  observed: Element[] = [];
  disconnected = false;
  constructor(
    readonly cb: (entries: Array<{ isIntersecting: boolean }>) => void,
    readonly options: { rootMargin?: string },
  ) {
    FakeObserver.last = this;
  }
  observe(el: Element) {
    this.observed.push(el);
  }
  disconnect() {
    this.disconnected = true;
  }
}

describe('useNearViewport', () => {
  it('is false until the element comes near the viewport, then stays true and stops observing', () => {
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    const { result } = renderHook(() => useNearViewport('300px'));
    expect(result.current[1]).toBe(false);
    const el = document.createElement('section');
    act(() => result.current[0](el));
    const io = FakeObserver.last!;
    expect(io.observed).toEqual([el]);
    expect(io.options.rootMargin).toBe('300px');
    act(() => io.cb([{ isIntersecting: false }]));
    expect(result.current[1]).toBe(false);
    act(() => io.cb([{ isIntersecting: true }]));
    expect(result.current[1]).toBe(true);
    expect(io.disconnected).toBe(true);
  });

  it('is true at once where IntersectionObserver does not exist', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    const { result } = renderHook(() => useNearViewport());
    expect(result.current[1]).toBe(true);
  });
});
