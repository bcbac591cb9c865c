import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import { Uploader } from './Uploader';

// The resumable upload's code (tus.ts with tus-js-client) is a chunk of its own, fetched when a
// large file is picked. Here that fetch fails, as it does offline or after a new build replaced
// the chunk.
vi.mock('../../../lib/resumable/resumable', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../lib/resumable/resumable')>()),
  loadTus: () => Promise.reject(new Error('Failed to fetch dynamically imported module')),
}));

vi.mock('../../../lib/toast', () => ({
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn(), show: vi.fn(), dismiss: vi.fn() },
}));

const MiB = 1024 * 1024;

function large(name: string): File {
  const f = new File(['x'], name, { type: 'video/x-matroska' });
  Object.defineProperty(f, 'size', { value: 40 * MiB });
  return f;
}

describe('Uploader when the resumable upload code cannot be loaded', () => {
  beforeAll(async () => {
    await initTestI18n('en');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('picking a large file rejects nothing unhandled, and uploading it says it failed', async () => {
    localStorage.setItem('token', 'tok-1');
    const fetch = stubFetch({
      '/api/auth/profile': () => json({ id: 5, email: 'u@example.com', name: 'U', role: 'user' }),
      '/api/auth/quota': () => json({ used: { bytes: 0, files: 0 }, limit: { bytes: 10 * 1024 * MiB, files: 100 } }),
    });
    const unhandled = vi.fn();
    window.addEventListener('unhandledrejection', unhandled);
    process.on('unhandledRejection', unhandled);
    try {
      renderWithShell(<Uploader onUploaded={vi.fn()} />);
      // signed in: the look-up of earlier uploads of the picked file runs
      await waitFor(() => expect(fetch).toHaveBeenCalledWith('/api/auth/quota', expect.anything()));
      fireEvent.change(screen.getByLabelText('Choose files'), { target: { files: [large('film.mkv')] } });
      fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
      // (the look-up ran at the pick, long before the upload's failure is shown)
      expect(await screen.findByText(/film\.mkv: Failed to fetch dynamically imported module/)).toBeTruthy();
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      window.removeEventListener('unhandledrejection', unhandled);
      process.off('unhandledRejection', unhandled);
    }
  });
});
