import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import type { FileGroups, FileItem } from '../api';
import { THUMB_POLL_MS } from '../thumbnails';
import FileCloudPage from './FileCloudPage';

vi.mock('../../../lib/toast', () => ({
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn(), show: vi.fn(), dismiss: vi.fn() },
}));

const admin = { id: 1, email: 'admin@example.com', name: 'Admin', role: 'admin' };
const user = { id: 2, email: 'user@example.com', name: 'User', role: 'user' };

function item(id: number, name: string, type: FileItem['type'], mime: string, size = 1.5 * 1024 * 1024): FileItem {
  return { id, originalName: name, size, mimetype: mime, type, uploadedAt: '2025-01-01T00:00:00Z', visibility: 'public' };
}

const photo = item(1, 'photo.png', 'image', 'image/png');
const clip = item(2, 'clip.mp4', 'video', 'video/mp4', 10 * 1024 * 1024);
const paper = item(3, 'paper.pdf', 'document', 'application/pdf', 123456);

function fakeCloud(profile?: typeof admin, groups: Partial<FileGroups> = {}) {
  if (profile) localStorage.setItem('token', 'tok');
  let state: FileGroups = { images: [photo], videos: [clip], audio: [], documents: [paper], other: [], ...groups };
  const fetch = stubFetch({
    '/api/auth/profile': () => (profile ? json(profile) : json({ status: 401, message: 'no', data: {} }, 401)),
    'GET /api/files': ({ url }) =>
      json(
        url.includes('mine=true')
          ? Object.fromEntries(Object.entries(state).map(([g, fs]) => [g, fs.filter((f: FileItem) => f.mine)]))
          : state,
      ),
    'DELETE /api/files/1': ({ headers }) => {
      if (headers.get('Authorization') !== 'Bearer tok') return json({ status: 401, message: 'auth', data: {} }, 401);
      state = { ...state, images: [] };
      return new Response(null, { status: 204 });
    },
    'GET /api/files/1/download': () =>
      new Response(new Uint8Array(2048), { headers: { 'Content-Type': 'image/png', 'Content-Length': '2048' } }),
    'GET /api/files/3/download': () => json({ status: 500, message: 'disk on fire', data: {} }, 500),
  });
  return fetch;
}

beforeAll(async () => {
  await initTestI18n('en');
});
beforeEach(() => {
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('FileCloudPage', () => {
  it('lists files by tab with MB sizes, and says "No files found" for an empty tab', async () => {
    fakeCloud();
    renderWithShell(<FileCloudPage />);
    const tab = await screen.findByRole('tab', { name: /Images/ });
    expect(tab.getAttribute('aria-selected')).toBe('true');
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getByRole('link', { name: 'photo.png' }).getAttribute('href')).toBe('/filecloud/1');
    expect(within(panel).getByText('1.50 MB')).toBeTruthy();

    fireEvent.click(screen.getByRole('tab', { name: /Videos/ }));
    expect(within(screen.getByRole('tabpanel')).getByRole('link', { name: 'clip.mp4' })).toBeTruthy();
    expect(within(screen.getByRole('tabpanel')).getByText('10.00 MB')).toBeTruthy();

    fireEvent.click(screen.getByRole('tab', { name: /Audio/ }));
    expect(within(screen.getByRole('tabpanel')).getByText('No files found')).toBeTruthy();

    // Arrow keys move between tabs.
    fireEvent.keyDown(screen.getByRole('tab', { name: /Audio/ }), { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: /Documents/ }).getAttribute('aria-selected')).toBe('true');
    expect(within(screen.getByRole('tabpanel')).getByText('0.12 MB')).toBeTruthy();
  });

  it('shows guests a sign-in prompt instead of the uploader, and no delete', async () => {
    fakeCloud();
    renderWithShell(<FileCloudPage />);
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByLabelText('Choose files')).toBeNull();
    await screen.findByRole('link', { name: 'photo.png' });
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('shows signed-in users the uploader but no delete', async () => {
    fakeCloud(user);
    renderWithShell(<FileCloudPage />);
    expect(await screen.findByLabelText('Choose files')).toBeTruthy();
    await screen.findByRole('link', { name: 'photo.png' });
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it("lets a user delete their own file but not another's", async () => {
    fakeCloud(user, { images: [{ ...photo, mine: true }] });
    renderWithShell(<FileCloudPage />);
    await screen.findByRole('link', { name: 'photo.png' });
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete file?' });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' })));
    expect(toast.success).toHaveBeenCalledWith('File deleted successfully');
    fireEvent.click(screen.getByRole('tab', { name: /Documents/ }));
    await screen.findByRole('link', { name: 'paper.pdf' });
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('lists only the signed-in user’s own files when asked', async () => {
    fakeCloud(user, { images: [{ ...photo, mine: true }] });
    renderWithShell(<FileCloudPage />);
    fireEvent.click(await screen.findByRole('tab', { name: /Documents/ }));
    await screen.findByRole('link', { name: 'paper.pdf' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Only my files' }));
    expect(await within(screen.getByRole('tabpanel')).findByText('No files found')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: /Images/ }));
    expect(within(screen.getByRole('tabpanel')).getByRole('link', { name: 'photo.png' })).toBeTruthy();
  });

  it('offers guests no "my files" filter', async () => {
    fakeCloud();
    renderWithShell(<FileCloudPage />);
    await screen.findByRole('link', { name: 'photo.png' });
    expect(screen.queryByRole('checkbox', { name: 'Only my files' })).toBeNull();
  });

  it('lets an admin delete after confirming, and cancel', async () => {
    const fetch = fakeCloud(admin);
    renderWithShell(<FileCloudPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    let dialog = screen.getByRole('alertdialog', { name: 'Delete file?' });
    expect(within(dialog).getByText(/photo\.png/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    dialog = screen.getByRole('alertdialog');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' })));
    expect(toast.success).toHaveBeenCalledWith('File deleted successfully');
    expect(await screen.findByText('No files found')).toBeTruthy();
  });

  it('toasts when the list cannot be loaded', async () => {
    stubFetch({ 'GET /api/files': () => json({ status: 500, message: 'boom', data: {} }, 500) });
    renderWithShell(<FileCloudPage />);
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error loading files: boom'));
  });

  it('downloads with progress and reports completion (the hook clears it after 2 s)', async () => {
    fakeCloud();
    renderWithShell(<FileCloudPage />);
    await screen.findByRole('link', { name: 'photo.png' });
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    await vi.waitFor(() => expect(screen.getByTestId('download-status-1').textContent).toBe('Completed'));
    expect(toast.error).not.toHaveBeenCalled();
    expect(toast.success).toHaveBeenCalledWith('File downloaded successfully');
    expect(URL.createObjectURL).toHaveBeenCalled();
  });

  it('shows the error state and toasts when a download fails', async () => {
    fakeCloud();
    renderWithShell(<FileCloudPage />);
    fireEvent.click(await screen.findByRole('tab', { name: /Documents/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    await vi.waitFor(() => expect(screen.getByTestId('download-status-3').textContent).toBe('Error'));
    expect(toast.error).toHaveBeenCalledWith('Error downloading file: disk on fire');
  });

  it('copies the file link with a tooltip for 2 s and a toast', async () => {
    fakeCloud();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithShell(<FileCloudPage />);
    await screen.findByRole('link', { name: 'photo.png' });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /Copy link/ })));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/filecloud/1`);
    expect(screen.getByRole('tooltip').textContent).toBe('Copied!');
    expect(toast.success).toHaveBeenCalledWith('Link copied to clipboard');
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.queryByRole('tooltip')).toBeNull();

    writeText.mockImplementationOnce(() => Promise.reject(new Error('denied')));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /Copy link/ })));
    expect(toast.error).toHaveBeenCalledWith('Error copying link: denied');
  });

  it('previews an image from an object URL and revokes it on close', async () => {
    fakeCloud();
    stubFetchAlso('GET /api/files/stream/1', () => new Response(new Uint8Array(8), { headers: { 'Content-Type': 'image/png' } }));
    renderWithShell(<FileCloudPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Preview' }));
    const dialog = screen.getByRole('dialog', { name: 'Preview: photo.png' });
    const img = await within(dialog).findByRole('img', { name: 'photo.png' });
    expect(img.getAttribute('src')).toBe('blob:x');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close preview' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:x');
  });

  it('plays video from the stream URL (Range-capable) and shows PDFs in a frame', async () => {
    fakeCloud();
    const { container } = renderWithShell(<FileCloudPage />);
    fireEvent.click(await screen.findByRole('tab', { name: /Videos/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect(container.ownerDocument.querySelector('video')?.getAttribute('src')).toBe('/api/files/stream/2');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: /Documents/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect(screen.getByTitle('paper.pdf').getAttribute('src')).toBe('/api/files/stream/3');
  });

  it('toasts when a preview cannot be loaded', async () => {
    fakeCloud();
    renderWithShell(<FileCloudPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Preview' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Error loading preview: Not found'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

/** Adds one route to the fetch stub installed by fakeCloud. */
function stubFetchAlso(route: string, handler: () => Response) {
  const prev = globalThis.fetch as unknown as (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  const [method, path] = route.split(' ');
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if ((init.method ?? 'GET').toUpperCase() === method && url.replace(/^https?:\/\/[^/]+/, '').split('?')[0] === path) {
      return Promise.resolve(handler());
    }
    return prev(input, init);
  
  it('asks again while a fresh image has no thumbnail yet, then shows it in the row', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fresh = { ...photo, uploadedAt: new Date().toISOString() };
    let calls = 0;
    stubFetch({
      '/api/auth/profile': () => json({ status: 401, message: 'no', data: {} }, 401),
      'GET /api/files': () => {
        calls++;
        const img = calls >= 2 ? { ...fresh, thumbnailUrl: '/api/files/1/thumbnail?v=abc-1' } : fresh;
        return json({ images: [img], videos: [], audio: [], documents: [], other: [] });
      },
    });
    renderWithShell(<FileCloudPage />);
    await screen.findByRole('link', { name: 'photo.png' });
    expect(screen.queryByRole('img', { name: 'Thumbnail of photo.png' })).toBeNull();
    expect(calls).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(THUMB_POLL_MS));
    const img = await screen.findByRole('img', { name: 'Thumbnail of photo.png' });
    expect(img.getAttribute('src')).toBe('/api/files/1/thumbnail?v=abc-1');
    expect(calls).toBe(2);
    // With the thumbnail there, the list is not asked again.
    await act(() => vi.advanceTimersByTimeAsync(THUMB_POLL_MS * 3));
    expect(calls).toBe(2);
  });
});
}
