import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TusError as DetailedError, tusFake } from '../../test/tusFake';

// ResumableUpload's wiring of tus-js-client: tokens per request, a 401 refreshed and retried,
// which errors are retried, the file id of the last answer, and upload URLs kept on this origin.

vi.mock('tus-js-client', () => import('../../test/tusFake'));

const refresh = vi.hoisted(() => vi.fn());
vi.mock('../api', async (orig) => ({ ...(await orig<typeof import('../api')>()), refreshAccessToken: refresh }));

const { ResumableUpload, failureOf } = await import('./tus');

function req(method: string, headers: Record<string, string> = {}) {
  return {
    headers,
    getMethod: () => method,
    getHeader: (h: string) => headers[h],
    setHeader: (h: string, v: string) => {
      headers[h] = v;
    },
  };
}
const res = (status: number, headers: Record<string, string> = {}, body = '') => ({
  getStatus: () => status,
  getHeader: (h: string) => headers[h],
  getBody: () => body,
});

function make(events: ConstructorParameters<typeof ResumableUpload>[2] = {}) {
  const up = new ResumableUpload(new File(['x'], 'big.bin'), 3, events);
  const upload = tusFake.uploads.at(-1)!;
  return { up, options: upload.options, upload };
}

beforeEach(() => {
  localStorage.setItem('token', 'old');
});
afterEach(() => {
  vi.clearAllMocks();
  tusFake.reset();
});

describe('ResumableUpload', () => {
  it('sends the current token with every request', async () => {
    const { options } = make();
    const r = req('PATCH');
    await options.onBeforeRequest(r);
    expect(r.headers.Authorization).toBe('Bearer old');
    localStorage.setItem('token', 'newer');
    const r2 = req('PATCH');
    await options.onBeforeRequest(r2);
    expect(r2.headers.Authorization).toBe('Bearer newer');
  });

  it('refreshes the token on a 401 before tus-js-client acts on it, and retries with the new one', async () => {
    let done!: (t: string | null) => void;
    refresh.mockReturnValue(
      new Promise<string | null>((r) => {
        done = r;
      }),
    );
    const { options } = make();
    // The answer never reaches the library's resume logic (a 4xx HEAD would make it start over).
    let thrown: unknown;
    try {
      options.onAfterResponse(req('HEAD', { Authorization: 'Bearer old' }), res(401));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect(refresh).toHaveBeenCalledWith('old');
    // The library wraps it (no response) and asks whether to retry: yes.
    const err = new DetailedError('tus: failed to resume upload', thrown as Error, req('HEAD'), null);
    expect(options.onShouldRetry(err, 0, options)).toBe(true);
    expect(failureOf(err)).toEqual({ kind: 'server', status: 401, message: '', quota: null });
    const next = req('HEAD');
    const sent = options.onBeforeRequest(next);
    localStorage.setItem('token', 'fresh');
    done('fresh');
    await sent;
    expect(next.headers.Authorization).toBe('Bearer fresh');
  });

  it('does not retry a 401 to a request without a token (signed out, or the refresh failed)', () => {
    const { options } = make();
    let thrown: unknown;
    try {
      options.onAfterResponse(req('PATCH'), res(401));
    } catch (e) {
      thrown = e;
    }
    expect(refresh).not.toHaveBeenCalled();
    const err = new DetailedError('tus: failed to upload chunk', thrown as Error, req('PATCH'), null);
    expect(options.onShouldRetry(err, 0, options)).toBe(false);
    expect(failureOf(err)).toMatchObject({ kind: 'server', status: 401 });
  });

  it('sends nothing after a pause that came while the upload was starting; the termination still goes', async () => {
    const { up, options, upload } = make();
    up.pause();
    await expect(options.onBeforeRequest(req('PATCH'))).rejects.toThrow('paused');
    expect(upload.abort).toHaveBeenLastCalledWith(false);
    const del = req('DELETE');
    await options.onBeforeRequest(del);
    expect(del.headers.Authorization).toBe('Bearer old');
    up.resume();
    const patch = req('PATCH');
    await options.onBeforeRequest(patch);
    expect(patch.headers.Authorization).toBe('Bearer old');
  });

  it('does not start when paused while looking for an earlier upload', async () => {
    const { up, upload } = make();
    const starting = up.start();
    up.pause();
    await starting;
    expect(upload.start).not.toHaveBeenCalled();
  });

  it.each([
    [413, false],
    [404, false],
    [403, false],
    [409, true],
    [423, true],
    [429, true],
    [500, true],
    [503, true],
  ])('retries an answer %i: %s', (status, retried) => {
    const onRetrying = vi.fn();
    const { options } = make({ onRetrying });
    expect(options.onShouldRetry(new DetailedError('x', null, req('PATCH'), res(status)), 0, options)).toBe(retried);
    expect(onRetrying).toHaveBeenCalledTimes(retried ? 1 : 0);
  });

  it.each([
    ['the creation', 'POST', ''],
    ['the last piece, naming the field', 'PATCH', JSON.stringify({ status: 409, message: 'already exists: nes/A.nes', data: { file: { code: 'exists', message: 'taken' } } })],
  ])('stops at once at a 409 to %s: a name clash, not an offset out of step', (_what, method, body) => {
    const onRetrying = vi.fn();
    const { options } = make({ onRetrying });
    const err = new DetailedError('x', null, req(method), res(409, {}, body));
    expect(options.onShouldRetry(err, 0, options)).toBe(false);
    expect(onRetrying).not.toHaveBeenCalled();
    expect(failureOf(err)).toMatchObject({ kind: 'server', status: 409 });
  });

  it.each([502, 503, 429])('retries a HEAD answered %i from the offset instead of letting the library start over', (status) => {
    const onRetrying = vi.fn();
    const { options } = make({ onRetrying });
    let thrown: unknown;
    try {
      options.onAfterResponse(req('HEAD', { Authorization: 'Bearer old' }), res(status));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect(onRetrying).toHaveBeenCalledTimes(1);
    const err = new DetailedError('tus: failed to resume upload', thrown as Error, req('HEAD'), null);
    expect(options.onShouldRetry(err, 0, options)).toBe(true);
    expect(failureOf(err)).toEqual({ kind: 'network', status, message: '', quota: null });
    // A 404/410 (expired) is left to the library: it starts a new upload, as it should.
    expect(() => options.onAfterResponse(req('HEAD'), res(410))).not.toThrow();
  });

  it('retries a dropped connection', () => {
    const { options } = make();
    expect(options.onShouldRetry(new DetailedError('x', null, req('PATCH'), null), 0, options)).toBe(true);
  });

  it('hands on the file id of the last answer', () => {
    const onSuccess = vi.fn();
    const { options } = make({ onSuccess });
    options.onSuccess({ lastResponse: res(204, { 'Devhub-File-Id': '42' }) });
    expect(onSuccess).toHaveBeenCalledWith(42);
    options.onSuccess({ lastResponse: res(204) });
    expect(onSuccess).toHaveBeenLastCalledWith(null);
  });

  it('sends another target’s metadata, reads its answer header and keeps its fingerprint apart', async () => {
    const onSuccess = vi.fn();
    const up = new ResumableUpload(new File(['x'], 'Game.nes'), 3, { onSuccess }, { metadata: { target: 'rom', console: 'nes' }, answerHeader: 'Devhub-Game-Id' });
    const options = tusFake.uploads.at(-1)!.options;
    expect(options.metadata).toEqual({ filename: 'Game.nes', filetype: 'application/octet-stream', target: 'rom', console: 'nes' });
    await expect(options.fingerprint(up.file, {})).resolves.toBe('tus-br-Game.nes-1-rom-user-3');
    options.onSuccess({ lastResponse: res(204, { 'Devhub-File-Id': '5', 'Devhub-Game-Id': '77' }) });
    expect(onSuccess).toHaveBeenCalledWith(77);
  });

  it('hands on the fields of a refusal', () => {
    const body = JSON.stringify({ status: 400, message: 'validation failed', data: { file: { code: 'invalid', message: 'no path' } } });
    expect(failureOf(new DetailedError('x', null, req('POST'), res(400, {}, body)))).toEqual({
      kind: 'server',
      status: 400,
      message: 'validation failed',
      quota: null,
      data: { file: { code: 'invalid', message: 'no path' } },
    });
  });

  it('keeps the upload URL on this origin (a proxy may make the server name another)', () => {
    const { options, upload } = make();
    upload.url = 'http://internal:8080/api/files/tus/0123456789abcdef0123456789abcdef';
    options.onUploadUrlAvailable();
    expect(upload.url).toBe(`${window.location.origin}/api/files/tus/0123456789abcdef0123456789abcdef`);
  });

  it('reads the quota and the message of an error answer', () => {
    const body = JSON.stringify({
      status: 413,
      message: 'storage quota exceeded',
      data: { quota: { code: 'quota_exceeded', message: 'm', used: { bytes: 5, files: 1 }, limit: { bytes: 4, files: null } } },
    });
    expect(failureOf(new DetailedError('x', null, req('POST'), res(413, {}, body)))).toEqual({
      kind: 'server',
      status: 413,
      message: 'storage quota exceeded',
      quota: { used: { bytes: 5, files: 1 }, limit: { bytes: 4, files: null } },
      data: { quota: { code: 'quota_exceeded', message: 'm', used: { bytes: 5, files: 1 }, limit: { bytes: 4, files: null } } },
    });
    expect(failureOf(new DetailedError('x', null, req('POST'), res(413, {}, '{"message":"too large"}')))).toMatchObject({ quota: null, message: 'too large' });
    // What unfinished uploads hold comes along when there is any.
    const held = (h: unknown) =>
      JSON.stringify({ status: 413, message: 'm', data: { quota: { code: 'quota_exceeded', message: 'm', used: { bytes: 5, files: 1 }, limit: { bytes: 4, files: null }, held: h } } });
    expect(failureOf(new DetailedError('x', null, req('POST'), res(413, {}, held({ bytes: 3, files: 1 })))).quota).toEqual({
      used: { bytes: 5, files: 1 },
      limit: { bytes: 4, files: null },
      held: { bytes: 3, files: 1 },
    });
    expect(failureOf(new DetailedError('x', null, req('POST'), res(413, {}, held({ bytes: 0, files: 0 })))).quota).not.toHaveProperty('held');
    expect(failureOf(new DetailedError('x', null, req('POST'), res(413, {}, held({ bytes: 'lots', files: 1 })))).quota).not.toHaveProperty('held');
    expect(failureOf(new DetailedError('x', null, req('POST'), null))).toMatchObject({ kind: 'network' });
    expect(failureOf(new DetailedError('x', null, req('PATCH'), res(503)))).toMatchObject({ kind: 'network', status: 503 });
    expect(failureOf(new DetailedError('x', null, req('PATCH'), res(404)))).toMatchObject({ kind: 'server', status: 404 });
  });
});
