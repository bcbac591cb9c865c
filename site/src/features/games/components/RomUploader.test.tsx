import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuth } from '../../../lib/auth';
import { TusError as DetailedError, tusFake as tus } from '../../../test/tusFake';
import { initTestI18n, renderWithShell } from '../../../test/utils';
import type { Console } from '../api';
import { RomUploader } from './RomUploader';

// The admin's ROM upload goes through the file cloud's tus helper (features/files/tus.ts):
// tus-js-client is replaced at its module boundary by a fake whose callbacks the tests call the
// way the library would (as the file cloud's Uploader tests do).

vi.mock('tus-js-client', () => import('../../../test/tusFake'));

interface FakeRes {
  getStatus(): number;
  getHeader(h: string): string | undefined;
  getBody(): string;
}

const res = (status: number, headers: Record<string, string> = {}, body = ''): FakeRes => ({
  getStatus: () => status,
  getHeader: (h) => headers[h],
  getBody: () => body,
});

const consoles: Console[] = [{ id: 'nes', name: 'Nintendo Entertainment System', shortName: 'NES', core: 'fceumm', stats: { games: 1 } }];

const started = () => tus.uploads.filter((u) => u.start.mock.calls.length > 0);

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

let fetchMock: ReturnType<typeof vi.fn>;

/** The uploader as the games page shows it: to an admin, once the profile is in. */
function AdminOnly() {
  const { user } = useAuth();
  return user?.role === 'admin' ? <RomUploader consoles={consoles} /> : null;
}

async function setup(texts = { region: 'Add games', choose: 'Choose files' }) {
  localStorage.setItem('token', 'tok-admin');
  renderWithShell(<AdminOnly />);
  const region = await screen.findByRole('region', { name: texts.region });
  const choose = (...files: File[]) => fireEvent.change(within(region).getByLabelText(texts.choose), { target: { files } });
  return { region, choose };
}

beforeAll(async () => {
  await initTestI18n('en');
});
beforeEach(() => {
  tus.reset();
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/auth/profile') return json({ id: 1, email: 'a@example.com', name: 'A', role: 'admin' });
    if (url.startsWith('/api/games/42/cover') && init?.method === 'PUT') return json({ id: 42 });
    return json({ success: true, data: [], meta: { total: 0, page: 1, limit: 100 } });
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  localStorage.clear();
});

describe('RomUploader', () => {
  it('sends the ROM through tus with its target, shows progress, then puts the cover on the new game', async () => {
    const { region, choose } = await setup();
    fireEvent.change(within(region).getByRole('combobox', { name: 'Console' }), { target: { value: 'nes' } });
    choose(new File(['NES\x1a rom'], 'Catcher.nes'), new File(['png'], 'Catcher.png', { type: 'image/png' }));
    await waitFor(() => expect(started()).toHaveLength(1));
    const up = started()[0];
    expect(up.file.name).toBe('Catcher.nes');
    expect(up.options.endpoint).toBe(`${window.location.origin}/api/files/tus/`);
    expect(up.options.metadata).toEqual({ filename: 'Catcher.nes', filetype: 'application/octet-stream', target: 'rom', console: 'nes' });
    // Remembered apart from a file-cloud upload of the same file.
    await expect(up.options.fingerprint(up.file, {})).resolves.toBe('tus-br-Catcher.nes-8-rom-user-1');

    act(() => up.options.onProgress(4, 10));
    const bar = within(region).getByRole('progressbar', { name: 'Upload of Catcher.nes' });
    expect(bar.getAttribute('value')).toBe('4');
    expect(within(region).getByText('40%')).toBeTruthy();

    act(() => up.options.onSuccess({ lastResponse: res(204, { 'Devhub-Game-Id': '42' }) }));
    await waitFor(() => expect(within(region).getByText('Catcher.nes: added')).toBeTruthy());
    const cover = fetchMock.mock.calls.find(([url]) => String(url).startsWith('/api/games/42/cover'));
    expect(cover?.[0]).toBe('/api/games/42/cover?file=Catcher.png');
    expect(within(region).queryByRole('progressbar')).toBeNull();
  });

  it('lets the extension choose the console: no console in the metadata', async () => {
    const { choose } = await setup();
    choose(new File(['x'], 'Game.gba'));
    await waitFor(() => expect(started()).toHaveLength(1));
    expect(started()[0].options.metadata).toEqual({ filename: 'Game.gba', filetype: 'application/octet-stream', target: 'rom' });
  });

  it('shows the server’s reason for a refused ROM and goes on with the next', async () => {
    const { region, choose } = await setup();
    choose(new File(['x'], 'notes.txt'), new File(['x'], 'Next.nes'));
    await waitFor(() => expect(started()).toHaveLength(1));
    expect(within(region).getByText('Next.nes: waiting')).toBeTruthy();
    const body = JSON.stringify({
      status: 400,
      message: 'validation failed',
      data: { console: { code: 'required', message: 'choose the console: no single console is known for ".txt" files' } },
    });
    act(() => started()[0].options.onError(new DetailedError('refused', null, null, res(400, {}, body))));
    await waitFor(() => expect(within(region).getByText(/notes\.txt: choose the console/)).toBeTruthy());
    await waitFor(() => expect(started()).toHaveLength(2));
    expect(started()[1].file.name).toBe('Next.nes');
  });

  it('cancels the upload being sent: the server is told to delete it', async () => {
    const { region, choose } = await setup();
    choose(new File(['x'.repeat(100)], 'Big.iso'));
    await waitFor(() => expect(started()).toHaveLength(1));
    act(() => started()[0].options.onProgress(30, 100));
    fireEvent.click(within(region).getByRole('button', { name: 'Cancel the upload of Big.iso' }));
    await waitFor(() => expect(within(region).getByText('Big.iso: cancelled')).toBeTruthy());
    // tus termination: abort(true) sends the DELETE.
    expect(started()[0].abort).toHaveBeenCalledWith(true);
    expect(within(region).queryByRole('progressbar')).toBeNull();
  });

  const clash = (name: string, method = 'POST') =>
    new DetailedError(
      'refused',
      null,
      { getMethod: () => method },
      res(
        409,
        {},
        JSON.stringify({ status: 409, message: `already exists: nes/${name}`, data: { file: { code: 'exists', message: 'a ROM of this name is already in nes/' } } }),
      ),
    );

  it('shows a name clash at once, stops sending, and sends it again under the name the admin gives', async () => {
    const { region, choose } = await setup();
    choose(new File(['NES\x1a'], 'Catcher.nes'), new File(['png'], 'Catcher.png', { type: 'image/png' }));
    await waitFor(() => expect(started()).toHaveLength(1));
    act(() => started()[0].options.onError(clash('Catcher.nes')));
    await waitFor(() => expect(within(region).getByText(/^Catcher\.nes: a game with this file name is already in the library/)).toBeTruthy());
    expect(within(region).queryByRole('progressbar')).toBeNull();
    expect(within(region).queryByText(/connection was lost/)).toBeNull();
    expect(started()).toHaveLength(1);

    const field = within(region).getByRole('textbox', { name: 'New file name for Catcher.nes' });
    expect((field as HTMLInputElement).value).toBe('Catcher (2).nes');
    fireEvent.change(field, { target: { value: 'Catcher Two.nes' } });
    fireEvent.click(within(region).getByRole('button', { name: 'Upload under this name' }));
    await waitFor(() => expect(started()).toHaveLength(2));
    expect(started()[1].options.metadata).toEqual({ filename: 'Catcher Two.nes', filetype: 'application/octet-stream', target: 'rom' });
    act(() => started()[1].options.onSuccess({ lastResponse: res(204, { 'Devhub-Game-Id': '42' }) }));
    await waitFor(() => expect(within(region).getByText('Catcher Two.nes: added')).toBeTruthy());
    // The cover that came with it goes on the game all the same.
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/games/42/cover?file=Catcher.png')).toBe(true);
  });

  it('replaces the game that is there once the admin confirms', async () => {
    const { region, choose } = await setup();
    choose(new File(['NES\x1a'], 'Catcher.nes'));
    await waitFor(() => expect(started()).toHaveLength(1));
    // The name was taken while it uploaded: the last piece's 409 names the clash too.
    act(() => started()[0].options.onError(clash('Catcher.nes', 'PATCH')));
    fireEvent.click(await within(region).findByRole('button', { name: 'Replace Catcher.nes in the library' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Replace the game?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Replace' }));
    await waitFor(() => expect(started()).toHaveLength(2));
    expect(started()[1].options.metadata).toEqual({ filename: 'Catcher.nes', filetype: 'application/octet-stream', target: 'rom', replace: 'true' });
    act(() => started()[1].options.onSuccess({ lastResponse: res(204, { 'Devhub-Game-Id': '42' }) }));
    await waitFor(() => expect(within(region).getByText('Catcher.nes: replaced')).toBeTruthy());
  });

  it('says the clash in the reader’s language', async () => {
    await initTestI18n('uk');
    try {
      const { region, choose } = await setup({ region: 'Додати ігри', choose: 'Вибрати файли' });
      choose(new File(['NES\x1a'], 'Catcher.nes'));
      await waitFor(() => expect(started()).toHaveLength(1));
      act(() => started()[0].options.onError(clash('Catcher.nes')));
      await waitFor(() => expect(within(region).getByText(/^Catcher\.nes: гра з такою назвою файлу вже є в бібліотеці/)).toBeTruthy());
      expect(within(region).getByRole('button', { name: 'Завантажити під цією назвою' })).toBeTruthy();
      expect(within(region).getByRole('button', { name: 'Замінити Catcher.nes у бібліотеці' })).toBeTruthy();
    } finally {
      await initTestI18n('en');
    }
  });

  it('a connection that stays down stops the row and says how to continue', async () => {
    const { region, choose } = await setup();
    choose(new File(['x'], 'Far.nes'));
    await waitFor(() => expect(started()).toHaveLength(1));
    act(() => started()[0].options.onError(new DetailedError('offline', new Error('network'), null, null)));
    await waitFor(() => expect(within(region).getByText(/Far\.nes: the connection was lost\. Drop the file again/)).toBeTruthy());
    expect(started()[0].abort).toHaveBeenCalledWith(false);
  });
});
