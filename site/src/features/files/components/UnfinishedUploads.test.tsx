import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initTestI18n, renderWithShell } from '../../../test/utils';
import { UnfinishedUploads } from './UnfinishedUploads';

// Unfinished uploads come from tus-js-client's localStorage entries ("tus::<fingerprint>::<n>"):
// the server's offset is asked for each, gone ones are forgotten, Discard deletes on the server.
// Vitest resolves the library's Node build, whose URL storage keeps nothing, so its browser
// storage is stood in for by the same key scheme over localStorage.

vi.mock('tus-js-client', () => ({
  defaultOptions: {
    urlStorage: {
      findAllUploads: async () =>
        Object.keys(localStorage)
          .filter((k) => k.startsWith('tus::'))
          .map((k) => ({ ...JSON.parse(localStorage.getItem(k)!), urlStorageKey: k })),
      removeUpload: async (k: string) => localStorage.removeItem(k),
    },
  },
}));

const MiB = 1024 * 1024;
const A = 'http://localhost/api/files/tus/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const B = 'http://localhost/api/files/tus/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';

let fetchMock: ReturnType<typeof vi.fn>;
const calls = () => fetchMock.mock.calls.map(([u, o]) => `${(o as RequestInit | undefined)?.method ?? 'GET'} ${u}`);

function remember(key: string, url: string, name: string, size: number, minutesAgo: number, meta: Record<string, string> = {}) {
  localStorage.setItem(
    key,
    JSON.stringify({ size, metadata: { filename: name, ...meta }, creationTime: new Date(Date.now() - minutesAgo * 60_000).toString(), uploadUrl: url }),
  );
}

beforeAll(async () => {
  await initTestI18n('en');
});
beforeEach(() => {
  localStorage.setItem('token', 'tok');
  remember('tus::tus-br-film.mkv-video-64-1-x-user-5::1', A, 'film.mkv', 64 * MiB, 1);
  remember('tus::tus-br-old.iso-x-48-1-x-user-5::2', B, 'old.iso', 48 * MiB, 60);
  // Another account's upload in the same browser is not listed.
  remember('tus::tus-br-theirs.bin-x-48-1-x-user-6::3', A, 'theirs.bin', 48 * MiB, 5);
  // An admin's ROM upload from the games page (a target) is the games page's, not listed here.
  remember('tus::tus-br-game.iso-x-48-1-x-rom-user-5::4', A, 'game.iso', 48 * MiB, 2, { target: 'rom' });
  let aGone = false;
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (url === '/api/auth/profile') return new Response(JSON.stringify({ id: 5, email: 'u@example.com', name: 'U', role: 'user' }), { headers: { 'Content-Type': 'application/json' } });
    if (url === new URL(A).pathname && method === 'HEAD')
      return aGone ? new Response(null, { status: 404 }) : new Response(null, { status: 200, headers: { 'Upload-Offset': String(16 * MiB), 'Upload-Length': String(64 * MiB) } });
    if (url === new URL(A).pathname && method === 'DELETE') {
      aGone = true;
      return new Response(null, { status: 204 });
    }
    if (url === new URL(B).pathname) return new Response(null, { status: 410 });
    return new Response(null, { status: 500 });
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('UnfinishedUploads', () => {
  it('lists what the server still has, forgets what it has not, and discards on request', async () => {
    renderWithShell(<UnfinishedUploads />);
    const list = await screen.findByTestId('unfinished-uploads');
    expect(list.textContent).toBe('film.mkv: 16.00 MB of 64.00 MB uploadedDiscard');
    expect(screen.getByText('Unfinished uploads — choose the same file again to continue it:')).toBeTruthy();
    // The expired one (410) is forgotten; the other account's entry is untouched.
    expect(localStorage.getItem('tus::tus-br-old.iso-x-48-1-x-user-5::2')).toBeNull();
    expect(localStorage.getItem('tus::tus-br-theirs.bin-x-48-1-x-user-6::3')).not.toBeNull();
    expect(localStorage.getItem('tus::tus-br-game.iso-x-48-1-x-rom-user-5::4')).not.toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Discard the unfinished upload of film.mkv' }));
    await waitFor(() => expect(screen.queryByTestId('unfinished-uploads')).toBeNull());
    expect(calls()).toContain(`DELETE ${new URL(A).pathname}`);
    const del = fetchMock.mock.calls.find(([, o]) => (o as RequestInit | undefined)?.method === 'DELETE')!;
    expect((del[1] as RequestInit).headers).toMatchObject({ 'Tus-Resumable': '1.0.0', Authorization: 'Bearer tok' });
    expect(localStorage.getItem('tus::tus-br-film.mkv-video-64-1-x-user-5::1')).toBeNull();
  });
});
