import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken, TOKEN_KEY } from './api';
import { EventClient, EventStreamParser, MAX_RETRY_MS, retryDelay } from './events';

describe('EventStreamParser', () => {
  it('splits events across chunks, skips comments, keeps the last id', () => {
    const p = new EventStreamParser();
    expect(p.push('retry: 2000\n: connected\n\nid: 7\nevent: chat.mes')).toEqual([]);
    expect(p.push('sage\ndata: {"a":1}\n\n: hb\n\n')).toEqual([{ id: '7', type: 'chat.message', data: '{"a":1}' }]);
    expect(p.push('event: resync\r\ndata: {}\r\n\r\ndata: one\ndata: two\n\n')).toEqual([
      { id: '7', type: 'resync', data: '{}' },
      { id: '7', type: 'message', data: 'one\ntwo' },
    ]);
    expect(p.lastId).toBe('7');
  });
});

describe('retryDelay', () => {
  it('doubles from 1 s to at most 30 s, with jitter', () => {
    const mid = () => 0.5;
    expect([0, 1, 2, 3, 4, 5, 10].map((n) => retryDelay(n, mid))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(retryDelay(0, () => 0)).toBe(800);
    expect(retryDelay(20, () => 1)).toBe(MAX_RETRY_MS * 1.2);
  });
});

/** A fetch answer whose body the test writes to. */
function streamAnswer(status = 200, headers: Record<string, string> = {}) {
  let ctrl!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (ctrl = c) });
  const enc = new TextEncoder();
  return {
    res: new Response(status === 200 ? body : JSON.stringify({ status, message: 'x', data: {} }), {
      status,
      headers: { 'Content-Type': status === 200 ? 'text/event-stream' : 'application/json', ...headers },
    }),
    write: (s: string) => ctrl.enqueue(enc.encode(s)),
    end: () => ctrl.close(),
  };
}

describe('EventClient', () => {
  beforeEach(() => {
    localStorage.setItem(TOKEN_KEY, 'tok-1');
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('sends the token, passes events to their listeners and resumes with Last-Event-ID', async () => {
    const answers = [streamAnswer(), streamAnswer()];
    const calls: RequestInit[] = [];
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
      calls.push(init);
      return answers[calls.length - 1].res;
    });
    const client = new EventClient(() => fetchMock as unknown as typeof fetch);
    const got: unknown[] = [];
    const opened = vi.fn();
    client.subscribe('open', opened);
    const stop = client.subscribe('chat.message', (data, id) => got.push([data, id]));
    await vi.waitFor(() => expect(opened).toHaveBeenCalledTimes(1));
    expect(new Headers(calls[0].headers).get('Authorization')).toBe('Bearer tok-1');
    expect(new Headers(calls[0].headers).get('Last-Event-ID')).toBeNull();

    answers[0].write('id: 5\nevent: chat.message\ndata: {"text":"hi"}\n\nid: 6\nevent: other\ndata: 1\n\n');
    await vi.waitFor(() => expect(got).toEqual([[{ text: 'hi' }, '5']]));
    answers[0].end();
    await vi.advanceTimersByTimeAsync(1300); // the first retry waits about a second
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(new Headers(calls[1].headers).get('Last-Event-ID')).toBe('6');
    await vi.waitFor(() => expect(opened).toHaveBeenCalledTimes(2));
    stop();
  });

  it('on reauth refreshes the token and reconnects with it at once', async () => {
    const answers = [streamAnswer(), streamAnswer()];
    const auths: (string | null)[] = [];
    const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
      if (url === '/api/auth/refresh') {
        return new Response(JSON.stringify({ accessToken: 'tok-2' }), { headers: { 'Content-Type': 'application/json' } });
      }
      auths.push(new Headers(init.headers).get('Authorization'));
      return answers[auths.length - 1].res;
    });
    vi.stubGlobal('fetch', fetchMock);
    const client = new EventClient(() => fetchMock as unknown as typeof fetch);
    const stop = client.subscribe('x', () => undefined);
    await vi.waitFor(() => expect(auths).toHaveLength(1));
    answers[0].write('event: reauth\ndata: {}\n\n');
    answers[0].end();
    await vi.waitFor(() => expect(auths).toEqual(['Bearer tok-1', 'Bearer tok-2']));
    stop();
  });

  it('waits for Retry-After on 429 and stops when signed out', async () => {
    const fetchMock = vi.fn(async () => streamAnswer(429, { 'Retry-After': '7' }).res);
    const client = new EventClient(() => fetchMock as unknown as typeof fetch);
    const stop = client.subscribe('x', () => undefined);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    await vi.advanceTimersByTimeAsync(6500);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    setToken(null);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    stop();
  });

  it('opens no stream without a listener or without a token', async () => {
    localStorage.clear();
    const fetchMock = vi.fn();
    const client = new EventClient(() => fetchMock as unknown as typeof fetch);
    const stop = client.subscribe('x', () => undefined);
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetchMock).not.toHaveBeenCalled();
    stop();
  });
});
