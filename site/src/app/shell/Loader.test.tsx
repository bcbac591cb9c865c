import { act, render, renderHook, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
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
    // the text is Russian in a document of any language
    expect(screen.getByText('Загрузка...').getAttribute('lang')).toBe('ru');
  });

  it('is the same markup as the loader index.html paints before the scripts run', () => {
    const html = readFileSync(resolve(import.meta.dirname, '../../../index.html'), 'utf8');
    const page = new DOMParser().parseFromString(html, 'text/html');
    const { container } = render(<FullScreenLoader />);
    expect(page.getElementById('root')!.innerHTML).toBe(container.innerHTML);
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
