import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import { TusError as DetailedError, tusFake as tus } from '../../../test/tusFake';
import { initTestI18n, renderWithShell } from '../../../test/utils';
import type { FileItem } from '../api';
import { Uploader } from './Uploader';

// The uploader's resumable side: tus-js-client is replaced at its module boundary by a fake
// whose callbacks the tests call the way the library would.

vi.mock('../../../lib/toast', () => ({
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn(), show: vi.fn(), dismiss: vi.fn() },
}));

vi.mock('tus-js-client', () => import('../../../test/tusFake'));

interface FakeReq {
  getMethod(): string;
  getHeader(h: string): string | undefined;
  setHeader(h: string, v: string): void;
}
interface FakeRes {
  getStatus(): number;
  getHeader(h: string): string | undefined;
  getBody(): string;
}

const MiB = 1024 * 1024;

type Amount = { bytes: number; files: number | null };

/** The body of the server's 413 for an upload over the quota: used, allowed and (when given) held. */
function quotaRefusal(used: Amount, limit: Amount, held?: Amount): string {
  const quota = { code: 'quota_exceeded', message: 'storage quota exceeded', used, limit, ...(held && { held }) };
  return JSON.stringify({ status: 413, message: 'storage quota exceeded', data: { quota } });
}

function file(name: string, size: number, type = 'application/octet-stream'): File {
  const f = new File(['x'], name, { type });
  Object.defineProperty(f, 'size', { value: size });
  return f;
}

const req = (method: string, headers: Record<string, string> = {}): FakeReq => ({
  getMethod: () => method,
  getHeader: (h) => headers[h],
  setHeader: (h, v) => {
    headers[h] = v;
  },
});
const res = (status: number, headers: Record<string, string> = {}, body = ''): FakeRes => ({
  getStatus: () => status,
  getHeader: (h) => headers[h],
  getBody: () => body,
});

const stored: FileItem = {
  id: 9,
  originalName: 'film.mkv',
  size: 40 * MiB,
  mimetype: 'video/x-matroska',
  type: 'video',
  uploadedAt: '2026-11-23T09:00:00Z',
};

/** The uploads that were started (the selection's look-up for earlier uploads makes probes too). */
const started = () => tus.uploads.filter((u) => u.start.mock.calls.length > 0);

let fetchMock: ReturnType<typeof vi.fn>;

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function setup({ signedIn = false } = {}) {
  if (signedIn) localStorage.setItem('token', 'tok-1');
  const onUploaded = vi.fn();
  renderWithShell(<Uploader onUploaded={onUploaded} />);
  const input = screen.getByLabelText('Choose files') as HTMLInputElement;
  const choose = (...files: File[]) => fireEvent.change(input, { target: { files } });
  const upload = () => fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
  return { onUploaded, input, choose, upload };
}

beforeAll(async () => {
  await initTestI18n('en');
});
beforeEach(() => {
  tus.reset();
  fetchMock = vi.fn(async (url: string) => {
    if (url === '/api/auth/profile') return json({ id: 5, email: 'u@example.com', name: 'U', role: 'user' });
    if (url === '/api/auth/quota') return json({ used: { bytes: 2 * 1024 * MiB, files: 12 }, limit: { bytes: 10 * 1024 * MiB, files: 10000 } });
    if (url === '/api/files/9') return json({ ...stored, hash: 'ab' });
    return json({ message: 'unexpected' }, 500);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('Uploader with large files', () => {
  it('sends a large file through tus and small ones through the multipart upload', async () => {
    const xhrs: Array<{ body: FormData | null }> = [];
    vi.stubGlobal(
      'XMLHttpRequest',
      class {
        upload = { onprogress: null };
        body: FormData | null = null;
        open() {}
        setRequestHeader() {}
        send(b: FormData) {
          this.body = b;
          xhrs.push(this);
        }
        abort() {}
      },
    );
    const { choose, upload } = setup();
    choose(file('small.txt', 1000), file('film.mkv', 40 * MiB, 'video/x-matroska'), file('edge.bin', 8 * MiB));
    upload();
    await waitFor(() => expect(started()).toHaveLength(1));
    expect(xhrs).toHaveLength(1);
    // A file of exactly the threshold (8 MiB) stays multipart.
    expect((xhrs[0].body!.getAll('files') as File[]).map((f) => f.name)).toEqual(['small.txt', 'edge.bin']);
    const up = started()[0];
    expect(up.file.name).toBe('film.mkv');
    expect(up.options.endpoint).toBe(`${window.location.origin}/api/files/tus/`);
    expect(up.options.chunkSize).toBe(8 * MiB);
    expect(up.options.metadata).toEqual({ filename: 'film.mkv', filetype: 'video/x-matroska', visibility: 'public' });
    expect(up.options.removeFingerprintOnSuccess).toBe(true);
    expect(up.options.retryDelays.length).toBeGreaterThan(3);
    expect(screen.getByRole('list', { name: 'Large files (resumable uploads)' })).toBeTruthy();
    expect(screen.getAllByTestId('resumable-upload')).toHaveLength(1);
  });

  it('sends a large file chosen private as private, and never continues its public upload', async () => {
    const { choose, upload } = setup();
    fireEvent.click(screen.getByRole('radio', { name: 'Private — only me and administrators' }));
    choose(file('film.mkv', 40 * MiB, 'video/x-matroska'));
    upload();
    await waitFor(() => expect(started()).toHaveLength(1));
    const up = started()[0];
    expect(up.options.metadata).toEqual({ filename: 'film.mkv', filetype: 'video/x-matroska', visibility: 'private' });
    // The server fixes visibility at creation: the fingerprint keeps private and public apart.
    expect(await up.options.fingerprint(up.file, up.options)).toBe(`tus-br-film.mkv-${40 * MiB}-private-user-0`);
    // While it uploads, the choice cannot change.
    expect(screen.getByRole('radio', { name: 'Public — everyone' }).matches(':disabled')).toBe(true);
  });

  it('shows progress and speed, pauses and resumes, then shows the stored file', async () => {
    const { choose, upload, onUploaded } = setup();
    choose(file('film.mkv', 40 * MiB, 'video/x-matroska'));
    upload();
    await waitFor(() => expect(started()).toHaveLength(1));
    const up = started()[0];
    const row = screen.getByTestId('resumable-upload');

    const now = vi.spyOn(performance, 'now');
    now.mockReturnValue(1000);
    act(() => up.options.onProgress(0, 40 * MiB));
    now.mockReturnValue(3000); // 8 MiB in 2 s
    act(() => up.options.onProgress(8 * MiB, 40 * MiB));
    expect(within(row).getByTestId('resumable-status').textContent).toBe('20% · 4.00 MB/s');
    expect(within(row).getByText('8.00 MB of 40.00 MB')).toBeTruthy();
    expect(within(row).getByRole('progressbar', { name: 'Upload progress of film.mkv' }).getAttribute('value')).toBe('20');

    fireEvent.click(within(row).getByRole('button', { name: 'Pause film.mkv' }));
    expect(up.abort).toHaveBeenCalledWith(false);
    expect(within(row).getByTestId('resumable-status').textContent).toBe('Paused at 20%');
    // A late progress event of the aborted request changes nothing.
    act(() => up.options.onProgress(9 * MiB, 40 * MiB));
    expect(within(row).getByTestId('resumable-status').textContent).toBe('Paused at 20%');

    fireEvent.click(within(row).getByRole('button', { name: 'Resume film.mkv' }));
    expect(up.start).toHaveBeenCalledTimes(2);
    expect(within(row).getByRole('button', { name: 'Pause film.mkv' })).toBeTruthy();

    await act(async () => up.options.onSuccess({ lastResponse: res(204, { 'Devhub-File-Id': '9' }) }));
    await waitFor(() => expect(onUploaded).toHaveBeenCalledWith([expect.objectContaining({ id: 9, originalName: 'film.mkv' })]));
    expect(screen.getByText('Uploaded')).toBeTruthy();
    expect(screen.getByText('film.mkv (40.00 MB)')).toBeTruthy();
    expect(toast.success).toHaveBeenCalledWith('Files uploaded successfully!');
  });

  it('says so when the same file, picked again after a reload, continues an earlier upload', async () => {
    tus.previous = [
      {
        uploadUrl: 'http://localhost/api/files/tus/0123456789abcdef0123456789abcdef',
        creationTime: new Date().toString(),
        size: 40 * MiB,
        metadata: {},
        urlStorageKey: 'tus::k',
      },
    ];
    const { choose, upload } = setup({ signedIn: true });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/auth/quota', expect.anything()));
    choose(file('film.mkv', 40 * MiB));
    expect(await screen.findByText('film.mkv: an earlier upload was interrupted — it will continue where it stopped')).toBeTruthy();
    // The look-up names the user in the fingerprint: another account's upload is not this one's.
    const probe = tus.uploads[0];
    expect(await probe.options.fingerprint(probe.file, probe.options)).toBe(`tus-br-film.mkv-${40 * MiB}-user-5`);

    upload();
    await waitFor(() => expect(started()).toHaveLength(1));
    const up = started()[0];
    expect(up.resumeFromPreviousUpload).toHaveBeenCalledWith(tus.previous[0]);
    // The server's HEAD answer says how much it has.
    act(() => up.options.onAfterResponse(req('HEAD'), res(200, { 'Upload-Offset': String(24 * MiB), 'Upload-Length': String(40 * MiB) })));
    expect(screen.getByTestId('upload-resumed').textContent).toBe(
      'Continuing where it stopped: 24.00 MB of 40.00 MB were already uploaded',
    );
    expect(within(screen.getByTestId('resumable-upload')).getByText('24.00 MB of 40.00 MB')).toBeTruthy();
  });

  it('says when the earlier upload had expired and a new one starts', async () => {
    tus.previous = [
      { uploadUrl: 'http://localhost/api/files/tus/x', creationTime: new Date().toString(), size: 40 * MiB, metadata: {}, urlStorageKey: 'k' },
    ];
    const { choose, upload } = setup();
    choose(file('film.mkv', 40 * MiB));
    upload();
    await waitFor(() => expect(started()).toHaveLength(1));
    act(() => started()[0].options.onAfterResponse(req('HEAD'), res(410)));
    expect(screen.getByText('The earlier upload of this file had expired; it starts again from the beginning')).toBeTruthy();
    expect(screen.queryByTestId('upload-resumed')).toBeNull();
  });

  it('explains a 413 over the quota with the used and allowed amounts in human units', async () => {
    const { choose, upload, onUploaded } = setup();
    choose(file('disk.img', 3 * 1024 * MiB));
    upload();
    await waitFor(() => expect(started()).toHaveLength(1));
    const body = quotaRefusal({ bytes: 9.5 * 1024 * MiB, files: 123 }, { bytes: 10 * 1024 * MiB, files: 10000 });
    await act(async () => started()[0].options.onError(new DetailedError('tus: unexpected response while creating upload', null, req('POST'), res(413, {}, body))));
    const text =
      'Not enough storage left: 9.50 GB of 10.00 GB used, 123 of 10,000 files. Nothing was kept — delete some files or ask an administrator for a larger quota.';
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(`disk.img: ${text}`));
    expect(screen.getByTestId('upload-errors').textContent).toBe(`disk.img: ${text}`);
    expect(onUploaded).not.toHaveBeenCalled();
    // Back to choosing files.
    expect((screen.getByLabelText('Choose files') as HTMLInputElement).disabled).toBe(false);
  });

  it('names what unfinished uploads hold when they took part in the refusal', async () => {
    const { choose, upload } = setup();
    choose(file('second.img', 600 * MiB));
    upload();
    await waitFor(() => expect(started()).toHaveLength(1));
    const body = quotaRefusal({ bytes: 100 * MiB, files: 2 }, { bytes: 1024 * MiB, files: null }, { bytes: 500 * MiB, files: 1 });
    await act(async () => started()[0].options.onError(new DetailedError('x', null, req('POST'), res(413, {}, body))));
    const text =
      'Not enough storage left: 100.00 MB of 1.00 GB used, 2 files (unlimited), and 500.00 MB held by your unfinished uploads. Nothing was kept — finish or cancel the unfinished uploads, delete some files or ask an administrator for a larger quota.';
    await waitFor(() => expect(screen.getByTestId('upload-errors').textContent).toBe(`second.img: ${text}`));
  });

  it('explains a 413 over the quota of the multipart upload the same way, unlimited files included', async () => {
    class XHR {
      static last: XHR;
      upload = { onprogress: null };
      status = 0;
      responseText = '';
      onload: (() => void) | null = null;
      constructor() {
        XHR.last = this;
      }
      open() {}
      setRequestHeader() {}
      send() {}
      abort() {}
    }
    vi.stubGlobal('XMLHttpRequest', XHR);
    const { choose, upload } = setup();
    choose(file('a.bin', 1000));
    upload();
    XHR.last.status = 413;
    XHR.last.responseText = JSON.stringify({
      status: 413,
      message: 'storage quota exceeded',
      data: { quota: { code: 'quota_exceeded', message: 'x', used: { bytes: 1536, files: 2 }, limit: { bytes: 2048, files: null } } },
    });
    await act(async () => XHR.last.onload?.());
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        'Not enough storage left: 1.50 KB of 2.00 KB used, 2 files (unlimited). Nothing was kept — delete some files or ask an administrator for a larger quota.',
      ),
    );
  });

  it('cancels: the upload is terminated on the server and nothing is reported as uploaded', async () => {
    const { choose, upload, onUploaded } = setup();
    choose(file('film.mkv', 40 * MiB));
    upload();
    await waitFor(() => expect(started()).toHaveLength(1));
    const up = started()[0];
    act(() => up.options.onProgress(8 * MiB, 40 * MiB));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel film.mkv' }));
    expect(up.abort).toHaveBeenCalledWith(true);
    await waitFor(() => expect(screen.queryByTestId('resumable-upload')).toBeNull());
    expect(onUploaded).not.toHaveBeenCalled();
    expect(toast.error).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: 'Upload' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('waits with a Resume button when the connection stays down after the retries', async () => {
    const { choose, upload } = setup();
    choose(file('film.mkv', 40 * MiB));
    upload();
    await waitFor(() => expect(started()).toHaveLength(1));
    const up = started()[0];
    act(() => up.options.onProgress(16 * MiB, 40 * MiB));
    // A dropped connection is retried (the library waits RETRY_DELAYS between tries).
    let retry = false;
    act(() => {
      retry = up.options.onShouldRetry(new DetailedError('tus: failed to upload chunk', null, req('PATCH'), null), 0, up.options);
    });
    expect(retry).toBe(true);
    expect(screen.getByTestId('resumable-status').textContent).toBe('Connection lost at 40% — trying again…');
    act(() => up.options.onError(new DetailedError('tus: failed to upload chunk', null, req('PATCH'), null)));
    expect(screen.getByTestId('resumable-status').textContent).toBe(
      'No connection — stopped at 40%; it continues when the connection is back, or press Resume',
    );
    expect(toast.error).not.toHaveBeenCalled();
    // The browser says the network is back: it goes on by itself.
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(up.start).toHaveBeenCalledTimes(2);
  });

  it('sends two large files at a time; a pause or a finish lets the next one go', async () => {
    const { choose, upload, onUploaded } = setup();
    choose(file('a.bin', 20 * MiB), file('b.bin', 20 * MiB), file('c.bin', 20 * MiB));
    upload();
    await waitFor(() => expect(started().map((u) => u.file.name)).toEqual(['a.bin', 'b.bin']));
    const rows = screen.getAllByTestId('resumable-upload');
    expect(within(rows[2]).getByTestId('resumable-status').textContent).toBe('Waiting…');

    fireEvent.click(screen.getByRole('button', { name: 'Pause a.bin' }));
    await waitFor(() => expect(started().map((u) => u.file.name)).toEqual(['a.bin', 'b.bin', 'c.bin']));

    const [a, b, c] = started();
    await act(async () => b.options.onSuccess({ lastResponse: res(204) }));
    await act(async () => c.options.onSuccess({ lastResponse: res(204) }));
    // a.bin is paused: the uploader waits for it.
    expect(onUploaded).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Resume a.bin' }));
    await act(async () => a.options.onSuccess({ lastResponse: res(204) }));
    // Stored, though the answers named no record: the list is reloaded all the same.
    await waitFor(() => expect(onUploaded).toHaveBeenCalledWith([]));
    expect(screen.getByText('Uploaded')).toBeTruthy();
  });

  it('shows the quota in the uploader', async () => {
    setup({ signedIn: true });
    expect((await screen.findByTestId('quota-usage')).textContent).toBe('Storage: 2.00 GB of 10.00 GB used, 12 of 10,000 files');
    expect(screen.getByRole('meter', { name: 'Storage used' }).getAttribute('value')).toBe('0.2');
  });
});
