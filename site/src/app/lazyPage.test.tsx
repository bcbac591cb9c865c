import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazyPage } from './lazyPage';

describe('lazyPage', () => {
  it('preload() and the first render share one load of the chunk', async () => {
    const factory = vi.fn(async () => ({ default: () => <h1>Loaded page</h1> }));
    const Page = lazyPage(factory);
    const loading = Page.preload();
    expect(Page.preload()).toBe(loading);
    await loading;
    render(
      <Suspense fallback={<p>loading</p>}>
        <Page />
      </Suspense>,
    );
    expect(await screen.findByRole('heading', { name: 'Loaded page' })).toBeTruthy();
    expect(factory).toHaveBeenCalledTimes(1);
  });

  it('a failed preload is tried again by the next one', async () => {
    const factory = vi
      .fn<() => Promise<{ default: () => null }>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce({ default: () => null });
    const Page = lazyPage(factory);
    await expect(Page.preload()).rejects.toThrow('offline');
    await expect(Page.preload()).resolves.toHaveProperty('default');
    expect(factory).toHaveBeenCalledTimes(2);
  });
});
