import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import { initTestI18n, renderWithShell } from '../../../test/utils';
import type { FileItem } from '../api';
import type { ResumableItem } from './ResumableList';
import { Uploader, uploaderReducer, type UploaderState } from './Uploader';

vi.mock('../../../lib/toast', () => ({
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn(), show: vi.fn(), dismiss: vi.fn() },
}));

/** A scriptable XMLHttpRequest: tests drive progress and the answer. */
class FakeXHR {
  static last: FakeXHR | null = null;
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  responseText = '';
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  constructor() {
    FakeXHR.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  respond(status: number, text: string) {
    this.status = status;
    this.responseText = text;
    this.onload?.();
  }
}

const stored: FileItem = {
  id: 7,
  originalName: 'photo.png',
  size: 3 * 1024 * 1024,
  mimetype: 'image/png',
  type: 'image',
  uploadedAt: '2025-01-01T00:00:00Z',
  visibility: 'public',
};

function file(name: string, size: number, type = 'application/octet-stream'): File {
  const f = new File(['x'], name, { type });
  Object.defineProperty(f, 'size', { value: size });
  return f;
}

function setup() {
  vi.stubGlobal('XMLHttpRequest', FakeXHR);
  const onUploaded = vi.fn();
  renderWithShell(<Uploader onUploaded={onUploaded} />);
  const input = screen.getByLabelText('Choose files') as HTMLInputElement;
  const choose = (...files: File[]) => fireEvent.change(input, { target: { files } });
  return { onUploaded, input, choose };
}

beforeAll(async () => {
  await initTestI18n('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('uploaderReducer', () => {
  const f = file('a.txt', 10);
  const idle: UploaderState = { phase: 'idle', errors: [] };
  const big: ResumableItem = {
    key: 0,
    name: 'big.iso',
    size: 100,
    status: 'waiting',
    sent: 0,
    speed: 0,
    resumedFrom: null,
    restarted: false,
    error: null,
  };
  it('goes idle → selected → uploading → done', () => {
    let s = uploaderReducer(idle, { type: 'select', files: [f] });
    expect(s).toEqual({ phase: 'selected', files: [f], earlier: [] });
    s = uploaderReducer(s, { type: 'start', multipart: true, resumable: [] });
    expect(s.phase).toBe('uploading');
    s = uploaderReducer(s, { type: 'progress', progress: { loaded: 5, total: 10, percent: 50, speed: 100 } });
    expect(s).toMatchObject({ phase: 'uploading', progress: { percent: 50 } });
    s = uploaderReducer(s, { type: 'finish', uploaded: [stored], any: true, errors: [] });
    expect(s).toEqual({ phase: 'done', uploaded: [stored], errors: [] });
    expect(uploaderReducer(s, { type: 'reset' })).toEqual(idle);
  });
  it('clears the selection after a failure and keeps its message', () => {
    const up = uploaderReducer({ phase: 'selected', files: [f], earlier: [] }, { type: 'start', multipart: true, resumable: [] });
    expect(uploaderReducer(up, { type: 'finish', uploaded: [], any: false, errors: ['no room'] })).toEqual({ phase: 'idle', errors: ['no room'] });
  });
  it('ignores a new selection while uploading and a start without one', () => {
    const up: UploaderState = {
      phase: 'uploading',
      files: [f],
      multipart: true,
      progress: { loaded: 0, total: 0, percent: 0, speed: 0 },
      resumable: [],
    };
    expect(uploaderReducer(up, { type: 'select', files: [] })).toBe(up);
    expect(uploaderReducer(idle, { type: 'start', multipart: true, resumable: [] })).toBe(idle);
    expect(uploaderReducer(idle, { type: 'select', files: [] })).toEqual(idle);
  });
  it('moves bytes only of a running upload: a paused or cancelled one stays as it is', () => {
    const sel = uploaderReducer(idle, { type: 'select', files: [f] });
    let s = uploaderReducer(sel, { type: 'start', multipart: false, resumable: [big] });
    s = uploaderReducer(s, { type: 'itemProgress', key: 0, sent: 40, speed: 10 });
    expect(s).toMatchObject({ resumable: [{ status: 'uploading', sent: 40 }] });
    s = uploaderReducer(s, { type: 'item', key: 0, patch: { status: 'paused' } });
    s = uploaderReducer(s, { type: 'itemProgress', key: 0, sent: 50, speed: 10 });
    expect(s).toMatchObject({ resumable: [{ status: 'paused', sent: 40 }] });
    s = uploaderReducer(s, { type: 'item', key: 0, patch: { status: 'stalled' } });
    s = uploaderReducer(s, { type: 'itemProgress', key: 0, sent: 60, speed: 10 });
    expect(s).toMatchObject({ resumable: [{ status: 'uploading', sent: 60 }] });
  });
  it('remembers earlier uploads only for the selection they were found for', () => {
    const sel = uploaderReducer(idle, { type: 'select', files: [f] });
    expect(uploaderReducer(sel, { type: 'earlier', files: [f], names: ['a.txt'] })).toBe(sel);
    if (sel.phase !== 'selected') throw new Error('not selected');
    expect(uploaderReducer(sel, { type: 'earlier', files: sel.files, names: ['a.txt'] })).toMatchObject({ earlier: ['a.txt'] });
  });
});

describe('Uploader', () => {
  it('shows the first file, then percent and speed, then the success panel', async () => {
    const { onUploaded, choose } = setup();
    expect((screen.getByRole('button', { name: 'Upload' }) as HTMLButtonElement).disabled).toBe(true);
    choose(file('photo.png', 3 * 1024 * 1024, 'image/png'), file('b.txt', 10), file('c.txt', 10));
    expect(screen.getByTestId('upload-selection').textContent).toBe('Selected: photo.png (3.00 MB) and 2 more files');

    const now = vi.spyOn(performance, 'now');
    now.mockReturnValue(1000);
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    const xhr = FakeXHR.last!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/files/upload');
    expect(xhr.body!.getAll('files')).toHaveLength(3);
    expect((screen.getByRole('button', { name: 'Upload' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByLabelText('Choose files') as HTMLButtonElement).disabled).toBe(true);

    now.mockReturnValue(3000); // 2 s after the start: 2 MiB sent → 1 MiB/s
    act(() => xhr.progress(2 * 1024 * 1024, 4 * 1024 * 1024));
    expect(screen.getByTestId('upload-progress').textContent).toBe('50% · 1.00 MB/s');
    expect(screen.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('value')).toBe('50');

    await act(async () => xhr.respond(201, JSON.stringify({ files: [stored] })));
    expect(screen.getByText('Uploaded')).toBeTruthy();
    expect(screen.getByText('photo.png (3.00 MB)')).toBeTruthy();
    expect(toast.success).toHaveBeenCalledWith('Files uploaded successfully!');
    expect(onUploaded).toHaveBeenCalledWith([stored]);

    fireEvent.click(screen.getByRole('button', { name: 'Upload another' }));
    expect((screen.getByLabelText('Choose files') as HTMLInputElement).disabled).toBe(false);
    expect(screen.queryByTestId('upload-selection')).toBeNull();
  });

  it.each([
    ['the server message', () => FakeXHR.last!.respond(413, JSON.stringify({ status: 413, message: 'request body too large' })), 'request body too large'],
    ['Upload failed without a message', () => FakeXHR.last!.respond(500, 'oops'), 'Upload failed'],
    ['a network error', () => FakeXHR.last!.onerror?.(), 'Network error occurred'],
    ['an unreadable answer', () => FakeXHR.last!.respond(201, '<html>'), 'Error parsing server response'],
  ])('shows %s and clears the selection', async (_, fail, message) => {
    const { onUploaded, choose, input } = setup();
    choose(file('a.bin', 100));
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await act(async () => fail());
    expect(toast.error).toHaveBeenCalledWith(message);
    expect(onUploaded).not.toHaveBeenCalled();
    expect(screen.queryByTestId('upload-selection')).toBeNull();
    expect(input.value).toBe('');
    expect((screen.getByRole('button', { name: 'Upload' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it.each([
    { choice: null, sent: 'public' },
    { choice: 'Private — only me and administrators', sent: 'private' },
    { choice: 'Public — everyone', sent: 'public' },
  ])('sends the chosen visibility ($sent) before the files; public unless changed', ({ choice, sent }) => {
    const { choose } = setup();
    expect((screen.getByRole('radio', { name: 'Public — everyone' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('group', { name: 'Who can see the uploaded files' })).toBeTruthy();
    if (choice) fireEvent.click(screen.getByRole('radio', { name: choice }));
    choose(file('a.txt', 10), file('b.txt', 10));
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    const entries = [...FakeXHR.last!.body!.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : v.name]);
    expect(entries).toEqual([
      ['visibility', sent],
      ['files', 'a.txt'],
      ['files', 'b.txt'],
    ]);
  });

  it.each([
    ['uk', 'Хто бачитиме завантажені файли', 'Публічні — усі', 'Приватні — лише я та адміністратори'],
    ['ru', 'Кто будет видеть загруженные файлы', 'Публичные — все', 'Приватные — только я и администраторы'],
  ] as const)('names the visibility choice in %s', async (lang, group, pub, priv) => {
    await initTestI18n(lang);
    try {
      vi.stubGlobal('XMLHttpRequest', FakeXHR);
      renderWithShell(<Uploader onUploaded={vi.fn()} />);
      expect(screen.getByRole('group', { name: group })).toBeTruthy();
      expect((screen.getByRole('radio', { name: pub }) as HTMLInputElement).checked).toBe(true);
      expect((screen.getByRole('radio', { name: priv }) as HTMLInputElement).checked).toBe(false);
    } finally {
      await initTestI18n('en');
    }
  });

  it('speaks Ukrainian units in Ukrainian', async () => {
    await initTestI18n('uk');
    try {
      vi.stubGlobal('XMLHttpRequest', FakeXHR);
      renderWithShell(<Uploader onUploaded={vi.fn()} />);
      const input = screen.getByLabelText('Обрати файли');
      fireEvent.change(input, { target: { files: [file('звіт.pdf', 1536)] } });
      expect(screen.getByTestId('upload-selection').textContent).toBe('Обрано: звіт.pdf (1,50 КБ)');
      const now = vi.spyOn(performance, 'now');
      now.mockReturnValue(1000);
      fireEvent.click(screen.getByRole('button', { name: 'Завантажити' }));
      now.mockReturnValue(2000);
      act(() => FakeXHR.last!.progress(512, 1536));
      expect(screen.getByTestId('upload-progress').textContent).toBe('33% · 512 Б/с');
    } finally {
      await initTestI18n('en');
    }
  });

  it('sends the stored token', () => {
    localStorage.setItem('token', 'tok-1');
    const { choose } = setup();
    choose(file('a.bin', 1));
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(FakeXHR.last!.headers.Authorization).toBe('Bearer tok-1');
  });
});
