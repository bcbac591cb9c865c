// The live event stream client: the one GET /api/events of this tab, shared by every feature.
//
// Features listen with `useEvent(type, handler)` (or `subscribeEvent(type, handler)` outside
// React); `type` is an event type of the contract (`chat.message`, `notification`, `presence`,
// `dm.message`, …) and `handler` gets its parsed JSON data and the event's id. The stream is open
// while this tab holds an access token and at least one listener exists; it closes when the last
// listener leaves or the user signs out.
//
// The browser's EventSource cannot send the Authorization header, so this reads the stream with
// fetch() and parses it itself. When the stream ends it reconnects with a growing, jittered delay
// (1 s doubling to 30 s; back to 1 s once a stream opened), and sends the id of the last event it
// saw as Last-Event-ID, so the server replays what was missed. Besides the contract's events it
// passes on:
//   - `resync`: the server no longer had what was missed — listeners reload what they show
//     (typically `queryClient.invalidateQueries`);
//   - `open`: a stream (re)opened (data null);
// and handles `reauth` (the token expired: it refreshes the token and reconnects at once), `bye`
// (the server is stopping) and 401 (refresh, or stop when signed out) itself; a 429 waits for
// its Retry-After.
import { useEffect, useRef } from 'react';
import { getToken, onTokenChange, refreshAccessToken } from './api';

export const EVENTS_ENDPOINT = '/api/events';

/** A parsed server-sent event. */
export interface StreamEvent {
  id: string | null;
  type: string;
  data: string;
}

export type EventHandler = (data: unknown, id: string | null) => void;

/**
 * Splits text/event-stream text into events. Feed it chunks as they arrive; it keeps an
 * incomplete event for the next chunk. Comments (": hb") and the retry field are skipped.
 */
export class EventStreamParser {
  private buf = '';
  private id: string | null = null;
  private type = '';
  private data: string[] = [];

  push(chunk: string): StreamEvent[] {
    this.buf += chunk;
    const out: StreamEvent[] = [];
    for (;;) {
      const nl = this.buf.search(/\r\n|\r|\n/);
      if (nl < 0) break;
      const eol = this.buf.startsWith('\r\n', nl) ? 2 : 1;
      const line = this.buf.slice(0, nl);
      this.buf = this.buf.slice(nl + eol);
      if (line === '') {
        if (this.data.length > 0 || this.type) {
          out.push({ id: this.id, type: this.type || 'message', data: this.data.join('\n') });
        }
        this.type = '';
        this.data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'id') this.id = value;
      else if (field === 'event') this.type = value;
      else if (field === 'data') this.data.push(value);
    }
    return out;
  }

  /** The id of the last event seen (kept across events, as EventSource does). */
  get lastId(): string | null {
    return this.id;
  }
}

export const MIN_RETRY_MS = 1000;
export const MAX_RETRY_MS = 30_000;

/** The wait before reconnect attempt n (0-based): 1 s doubling to 30 s, with ±20 % jitter. */
export function retryDelay(attempt: number, random = Math.random): number {
  const base = Math.min(MAX_RETRY_MS, MIN_RETRY_MS * 2 ** attempt);
  return Math.round(base * (0.8 + 0.4 * random()));
}

type Listener = { type: string; fn: EventHandler };

/** The stream of one tab. Exported for tests; features use useEvent / subscribeEvent. */
export class EventClient {
  private listeners = new Set<Listener>();
  private abort: AbortController | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private lastId: string | null = null;
  private running = false;
  private unfollowToken: (() => void) | null = null;

  constructor(private readonly fetchImpl: () => typeof fetch = () => fetch) {}

  subscribe(type: string, fn: EventHandler): () => void {
    const l = { type, fn };
    this.listeners.add(l);
    this.update();
    return () => {
      this.listeners.delete(l);
      this.update();
    };
  }

  /** Passes an event to its listeners (a listener's error never stops the stream). */
  dispatch(type: string, data: unknown, id: string | null = null): void {
    for (const l of [...this.listeners]) {
      if (l.type !== type) continue;
      try {
        l.fn(data, id);
      } catch (err) {
        console.error('event listener failed', type, err);
      }
    }
  }

  /** Starts or stops the stream to match "a token and a listener". */
  private update(): void {
    const want = this.listeners.size > 0;
    if (want && !this.unfollowToken) {
      this.unfollowToken = onTokenChange((token) => {
        if (!token) this.stop();
        else if (!this.running) this.start();
      });
    }
    if (want && !this.running && getToken()) this.start();
    if (!want) {
      this.stop();
      this.unfollowToken?.();
      this.unfollowToken = null;
    }
  }

  private start(): void {
    this.running = true;
    this.attempt = 0;
    void this.connect();
  }

  private stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.abort?.abort();
    this.abort = null;
  }

  private retry(ms = retryDelay(this.attempt++)): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, ms);
  }

  private async connect(): Promise<void> {
    if (!this.running) return;
    const token = getToken();
    if (!token) {
      this.running = false;
      return;
    }
    const ctrl = new AbortController();
    this.abort = ctrl;
    const headers: Record<string, string> = { Accept: 'text/event-stream', Authorization: `Bearer ${token}` };
    if (this.lastId) headers['Last-Event-ID'] = this.lastId;
    let res: Response;
    try {
      res = await this.fetchImpl()(EVENTS_ENDPOINT, { headers, signal: ctrl.signal, credentials: 'same-origin', cache: 'no-store' });
    } catch {
      if (!ctrl.signal.aborted) this.retry();
      return;
    }
    if (res.status === 401) {
      const fresh = await refreshAccessToken(token);
      if (fresh && this.running) this.retry(0);
      else this.running = false; // signed out: onTokenChange starts again on the next sign-in
      return;
    }
    if (res.status === 429) {
      const after = Number(res.headers.get('Retry-After'));
      this.retry(Number.isFinite(after) && after > 0 ? after * 1000 : undefined);
      return;
    }
    if (!res.ok || !res.body) {
      this.retry();
      return;
    }
    this.attempt = 0;
    this.dispatch('open', null);
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    const parser = new EventStreamParser();
    let next: 'retry' | 'now' = 'retry';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const ev of parser.push(value)) {
          if (ev.id !== null) this.lastId = ev.id;
          if (ev.type === 'reauth') {
            await refreshAccessToken(token);
            next = 'now';
          } else if (ev.type !== 'bye') {
            let data: unknown = null;
            try {
              data = ev.data ? JSON.parse(ev.data) : null;
            } catch {
              continue; // not JSON: not one of ours
            }
            this.dispatch(ev.type, data, ev.id);
          }
        }
      }
    } catch {
      /* the connection broke or was aborted */
    }
    if (ctrl.signal.aborted) return;
    if (next === 'now') this.retry(0);
    else this.retry();
  }
}

const client = new EventClient();

/** Listens to events of type on this tab's stream; returns the function that stops listening. */
export function subscribeEvent(type: string, fn: EventHandler): () => void {
  return client.subscribe(type, fn);
}

/**
 * Calls handler for each event of type while the component is mounted. The handler may change
 * between renders (the latest one is called); the stream stays open meanwhile.
 */
export function useEvent(type: string, handler: EventHandler): void {
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => client.subscribe(type, (data, id) => ref.current(data, id)), [type]);
}
