// Resumable uploads through tus-js-client against the server's tus 1.0 endpoint (/api/files/tus/).
// Large files go this way (see TUS_THRESHOLD); small ones keep the multipart upload, which is one
// request for several files. One ResumableUpload is one file: start, pause, resume, cancel.
//
// Why it looks like this:
// - It is a class the Uploader drives, not a TanStack mutation: one upload is paused, resumed
//   (across page loads) and cancelled and reports its progress and speed, which a mutation's one
//   call and one outcome cannot hold; the Uploader refreshes the lists and the quota when it ends.
// - The access token is short-lived, so it is set per request (onBeforeRequest) from the stored
//   one, never fixed in `headers`. A 401 starts the shared refresh and lets tus retry; the retry
//   waits for that refresh before it sends (onBeforeRequest may be async). The 401 is turned into
//   an error in onAfterResponse, before tus-js-client reads it: a HEAD answered with a 4xx makes
//   the library forget the upload and create a new one, so an expired token would otherwise
//   restart a half-sent file from zero (seen in the e2e test).
// - Dropped connections are retried with growing delays (RETRY_DELAYS, about two minutes in all);
//   every retry asks the server for its offset (HEAD) first, so nothing is sent twice and little
//   is lost: a PATCH carries at most CHUNK_SIZE bytes. When the retries run out the upload waits
//   ("stalled") for the user or for the browser's `online` event.
// - After a page reload the File object is gone; the user picks the same file again and
//   tus-js-client finds the upload by its fingerprint (name, type, size, mtime, endpoint — plus
//   the user here, so two accounts in one browser never try each other's uploads, which the
//   server answers with 404 and would make the client forget) in localStorage. The HEAD's
//   Upload-Offset is reported as where it continues. An expired upload answers 404/410 and
//   tus-js-client starts a new one.
// - No creation-with-upload: a POST that drops with the first chunk leaves no URL to resume from.
// - The finished upload's last answer names the file record in Devhub-File-Id. An admin's ROM
//   (features/games) goes the same way with metadata target=rom and its answer in Devhub-Game-Id
//   (ResumableOptions); its fingerprint carries the target, so a ROM and a file-cloud upload of
//   the same file never continue each other.
import { DetailedError, Upload, defaultOptions, type HttpRequest, type HttpResponse } from 'tus-js-client';
import { getToken, refreshAccessToken } from '../api';
import { type QuotaRefusal, quotaFromErrorBody } from '../quotaRefusal';
import { userMark } from './tusStorage';

/** The server's tus 1.0 endpoint: the file cloud's, also used for an admin's ROMs (target=rom). */
export const TUS_ENDPOINT = '/api/files/tus/';

const MiB = 1024 * 1024;

/** Bytes per PATCH: what a dropped connection can cost at most. */
export const CHUNK_SIZE = 8 * MiB;

/** Waits between retries after a dropped connection or a server error (ms). */
export const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 15_000, 30_000, 60_000];

/**
 * Why a resumable upload stopped. `network`: no answer, or a passing server trouble, after the
 * retries — it can be resumed; `server`: an answer that a retry cannot change.
 */
export interface ResumableFailure {
  kind: 'network' | 'server';
  status: number;
  /** The server's message (the API's error shape), or ''. */
  message: string;
  /** Set on a 413 over the user's quota. */
  quota: QuotaRefusal | null;
  /** The error's per-field details (the API's `data`), when it had any. */
  data?: Record<string, { message?: string } | null>;
}

/** What sets one kind of resumable upload apart; the defaults are the file cloud's. */
export interface ResumableOptions {
  /** Extra tus metadata (target, console, visibility…), sent beside filename and filetype. */
  metadata?: Record<string, string>;
  /** The header of the last answer that names what the upload became (a positive integer). */
  answerHeader?: string;
}

export interface ResumableEvents {
  /** Bytes the server has (or is receiving), of the total, and the speed since the last (re)start. */
  onProgress?: (sent: number, total: number, speed: number) => void;
  /** An earlier upload of this file (from before a reload) was found and continues from offset. */
  onResumed?: (offset: number, total: number) => void;
  /** The earlier upload this browser remembered is gone from the server (expired): a new one starts. */
  onRestarted?: () => void;
  /** The connection dropped (or the server failed) and a retry is scheduled. */
  onRetrying?: () => void;
  /** The last byte arrived; the id in the answer header (Devhub-File-Id: the file record), or null. */
  onSuccess?: (fileId: number | null) => void;
  onError?: (failure: ResumableFailure) => void;
}

/** The endpoint as an absolute URL: tus-js-client resolves the Location header against it. */
function endpoint(): string {
  return new URL(TUS_ENDPOINT, window.location.href).toString();
}

/** An upload URL on this page's origin (the API and the SPA share one origin). */
function sameOrigin(url: string): string {
  const u = new URL(url, window.location.href);
  return `${window.location.origin}${u.pathname}${u.search}`;
}

/** A 401 answer, stopped before tus-js-client acts on it; sentToken: what the request carried. */
class Unauthorized extends Error {
  constructor(readonly sentToken: string | null) {
    super('tus: the server did not accept the access token');
    this.name = 'Unauthorized';
  }
}

/**
 * A HEAD answered 429 or 5xx (a restarting server, a proxy's 502): tus-js-client would drop the
 * upload and start a new one from zero; as an error it is retried from the server's offset.
 */
class HeadUnavailable extends Error {
  constructor(readonly status: number) {
    super(`tus: the server answered ${status} while asked for the upload's offset`);
    this.name = 'HeadUnavailable';
  }
}

const bearer = (req: HttpRequest) => req.getHeader('Authorization')?.replace(/^Bearer /, '') || null;

/** The method of the request a tus-js-client error came from, or ''. */
function methodOf(err: unknown): string {
  const req = err instanceof DetailedError ? (err.originalRequest as HttpRequest | null) : null;
  return req?.getMethod?.() ?? '';
}

/** The error body's per-field details, when it is the API's error shape and has any. */
function fieldsOf(body: string): ResumableFailure['data'] {
  try {
    const parsed = JSON.parse(body) as { data?: unknown } | null;
    if (parsed?.data && typeof parsed.data === 'object' && Object.keys(parsed.data).length) {
      return parsed.data as ResumableFailure['data'];
    }
  } catch {
    /* not the API's error shape */
  }
  return undefined;
}

/**
 * Whether asking again may get past an answer: 5xx, 423 (locked) and 429 (too many uploads at
 * once) may pass; so may a 409 that is tus's "offset out of step" on a PATCH or HEAD. A 409 to
 * the creation (POST), or one that names a field (a ROM's file name already in the library,
 * data.file.code "exists"), is the server refusing what was asked: it stays so until the user
 * changes the request. Other 4xx answers (413 quota, 404 gone, 403) never pass.
 */
function mayPass(status: number, method: string, data: ResumableFailure['data']): boolean {
  if (status >= 500 || status === 423 || status === 429) return true;
  return status === 409 && method !== 'POST' && !data;
}

/** What a tus-js-client error says, in the uploader's terms. */
export function failureOf(err: unknown): ResumableFailure {
  if (err instanceof DetailedError && err.causingError instanceof Unauthorized) {
    return { kind: 'server', status: 401, message: '', quota: null };
  }
  if (err instanceof DetailedError && err.causingError instanceof HeadUnavailable) {
    return { kind: 'network', status: err.causingError.status, message: '', quota: null };
  }
  const res: HttpResponse | null = err instanceof DetailedError ? err.originalResponse : null;
  if (!res) return { kind: 'network', status: 0, message: '', quota: null };
  const status = res.getStatus();
  const body = res.getBody?.() ?? '';
  let message = '';
  try {
    const parsed = JSON.parse(body) as { message?: unknown } | null;
    if (typeof parsed?.message === 'string') message = parsed.message;
  } catch {
    /* not the API's error shape */
  }
  const data = fieldsOf(body);
  // What retries could not get past but a later try may (a server down for longer than the
  // retries wait, too many uploads at once) leaves the upload resumable, like a lost connection.
  const transient = mayPass(status, methodOf(err), data);
  const failure: ResumableFailure = { kind: transient ? 'network' : 'server', status, message, quota: status === 413 ? quotaFromErrorBody(body) : null };
  if (data) failure.data = data;
  return failure;
}

/**
 * tus-js-client's fingerprint of a file, per user, per target (for one that is not a file) and
 * per visibility: the server fixes both at creation, so a private upload never continues a
 * public one of the same file, nor the other way round. A public file's fingerprint has no mark
 * (as before visibility could be chosen).
 */
function fingerprintFor(userId: number, metadata: Record<string, string> = {}) {
  const tag = (metadata.target ? `-${metadata.target}` : '') + (metadata.visibility === 'private' ? '-private' : '');
  return async (f: File, options: Parameters<typeof defaultOptions.fingerprint>[1]) =>
    `${await defaultOptions.fingerprint(f, options)}${tag}${userMark(userId)}`;
}

/**
 * Whether this browser remembers an unfinished upload of the file (picked again after a reload)
 * with the same metadata (target, visibility).
 */
export async function hasEarlierUpload(file: File, userId: number, metadata?: Record<string, string>): Promise<boolean> {
  try {
    const probe = new Upload(file, { endpoint: endpoint(), fingerprint: fingerprintFor(userId, metadata) });
    return (await probe.findPreviousUploads()).some((p) => p.uploadUrl);
  } catch {
    return false;
  }
}

export class ResumableUpload {
  private readonly upload: Upload;
  private readonly events: ResumableEvents;
  private refreshing: Promise<string | null> | null = null;
  private startedAt = 0;
  private startBytes: number | null = null;
  private finished = false;
  /** Set while the first answer about an earlier page's upload is awaited. */
  private fromPrevious = false;
  /** Paused or cancelled by the user: nothing more is sent until resume. */
  private stopped = false;
  private online: (() => void) | null = null;

  constructor(
    readonly file: File,
    userId: number,
    events: ResumableEvents,
    options: ResumableOptions = {},
  ) {
    this.events = events;
    const answerHeader = options.answerHeader ?? 'Devhub-File-Id';
    this.upload = new Upload(file, {
      endpoint: endpoint(),
      chunkSize: CHUNK_SIZE,
      retryDelays: RETRY_DELAYS,
      metadata: { filename: file.name, filetype: file.type || 'application/octet-stream', ...options.metadata },
      removeFingerprintOnSuccess: true,
      fingerprint: fingerprintFor(userId, options.metadata),
      onBeforeRequest: (req) => this.authorize(req),
      onAfterResponse: (req, res) => this.afterResponse(req, res),
      onShouldRetry: (err) => this.shouldRetry(err),
      onUploadUrlAvailable: () => {
        if (this.upload.url) this.upload.url = sameOrigin(this.upload.url);
      },
      onProgress: (sent, total) => this.progress(sent, total),
      onSuccess: ({ lastResponse }) => {
        this.finished = true;
        this.stopWaitingForNetwork();
        const id = Number(lastResponse.getHeader(answerHeader));
        this.events.onSuccess?.(Number.isInteger(id) && id > 0 ? id : null);
      },
      onError: (err) => {
        const failure = failureOf(err);
        // A connection that stays down: go on by itself once the browser is back online.
        if (failure.kind === 'network') this.waitForNetwork();
        this.events.onError?.(failure);
      },
    });
  }

  /** Starts the upload, continuing an earlier one of the same file when the browser kept it. */
  async start(): Promise<void> {
    this.stopped = false;
    try {
      const previous = await this.upload.findPreviousUploads();
      // The newest first: an older entry may point at an upload that expired.
      previous.sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime));
      if (previous[0]?.uploadUrl) {
        this.upload.resumeFromPreviousUpload(previous[0]);
        this.fromPrevious = true;
      }
    } catch {
      /* no URL storage (private mode): a fresh upload */
    }
    // Paused while the browser looked for an earlier upload.
    if (!this.stopped) this.restart();
  }

  /** Stops sending; the server keeps what it has (until files.tus_expiry). */
  pause(): void {
    this.stopped = true;
    this.stopWaitingForNetwork();
    void this.upload.abort(false);
  }

  /** Continues a paused or stalled upload from the server's offset. */
  resume(): void {
    this.stopped = false;
    this.stopWaitingForNetwork();
    this.restart();
  }

  /** Stops and deletes the upload on the server (tus termination) and forgets it here. */
  async cancel(): Promise<void> {
    this.stopped = true;
    this.stopWaitingForNetwork();
    await this.upload.abort(true);
  }

  private restart() {
    this.startBytes = null;
    this.upload.start();
  }

  private async authorize(req: HttpRequest) {
    if (this.refreshing) {
      await this.refreshing;
      this.refreshing = null;
    }
    // tus-js-client's start() clears an abort that came while it was still opening the file, so
    // a pause in that moment is enforced here: abort again (its error is then not reported) and
    // send nothing. The termination's DELETE must go.
    if (this.stopped && req.getMethod() !== 'DELETE') {
      void this.upload.abort(false);
      throw new Error('tus: paused');
    }
    const token = getToken();
    if (token) req.setHeader('Authorization', `Bearer ${token}`);
  }

  private afterResponse(req: HttpRequest, res: HttpResponse) {
    if (res.getStatus() === 401) {
      // Refresh (when a token was sent; shared with the rest of the app) and fail this request
      // as if it had no answer, so the retry logic, not the resume logic, takes it.
      const sent = bearer(req);
      if (sent) this.refreshing = refreshAccessToken(sent);
      throw new Unauthorized(sent);
    }
    if (req.getMethod() === 'HEAD' && (res.getStatus() === 429 || res.getStatus() >= 500)) {
      this.events.onRetrying?.();
      throw new HeadUnavailable(res.getStatus());
    }
    // The first HEAD for an earlier page's upload tells where it continues (retries and resumes
    // ask too, but that is no news to the user); a 404/410 means it expired and a new one starts.
    if (!this.fromPrevious || req.getMethod() !== 'HEAD') return;
    const status = res.getStatus();
    if (status === 404 || status === 410) {
      this.fromPrevious = false;
      this.events.onRestarted?.();
      return;
    }
    if (status !== 200) return; // a 401 is refreshed and asked again
    this.fromPrevious = false;
    const offset = Number(res.getHeader('Upload-Offset'));
    const total = Number(res.getHeader('Upload-Length'));
    if (Number.isFinite(offset) && Number.isFinite(total)) this.events.onResumed?.(offset, total);
  }

  private shouldRetry(err: DetailedError): boolean {
    // A 401 is retried once the refresh is done; without a token to refresh (signed out, or the
    // refresh failed) it is not, and the upload stays remembered for after the next sign-in.
    if (err.causingError instanceof Unauthorized) return err.causingError.sentToken !== null;
    if (err.causingError instanceof HeadUnavailable) return true;
    const res = err.originalResponse;
    // No answer at all is retried; an answer only when asking again may get past it (mayPass).
    if (res && !mayPass(res.getStatus(), methodOf(err), fieldsOf(res.getBody?.() ?? ''))) return false;
    this.events.onRetrying?.();
    return true;
  }

  private progress(sent: number, total: number) {
    const now = performance.now();
    if (this.startBytes === null) {
      this.startBytes = sent;
      this.startedAt = now;
    }
    const secs = Math.max((now - this.startedAt) / 1000, 0.001);
    this.events.onProgress?.(sent, total, Math.max(0, sent - this.startBytes) / secs);
  }

  private waitForNetwork() {
    if (this.online || this.finished || typeof window === 'undefined') return;
    this.online = () => this.resume();
    window.addEventListener('online', this.online, { once: true });
  }

  private stopWaitingForNetwork() {
    if (!this.online) return;
    window.removeEventListener('online', this.online);
    this.online = null;
  }
}
