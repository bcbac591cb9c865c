// The one API client every feature uses. It speaks JSON, sends the access token
// (localStorage key 'token') as a Bearer header when present, and turns the
// server's error shape {"status","message","data"} into an ApiError.

export const TOKEN_KEY = 'token';

/** Field errors as the server sends them: data.{field}.{code,message}. */
export type ApiErrorData = Record<string, { code?: string; message?: string } | unknown> | null;

export class ApiError extends Error {
  readonly status: number;
  readonly data: ApiErrorData;

  constructor(status: number, message: string, data: ApiErrorData = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.data = data;
  }
}

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string | null): void {
  const before = getToken();
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    /* storage unavailable (private mode): the session lives in memory only */
  }
  if (before !== token) for (const fn of tokenListeners) fn(token);
}

// --- Access-token refresh (a failed refresh logs the user out) ---------------------
// The access token is short-lived; the refresh token is an httpOnly cookie the server scopes to
// /api/auth. A request that sent the stored token and got 401 refreshes once and is retried;
// when the refresh fails the token is dropped and listeners (the AuthProvider) log out.

export const REFRESH_ENDPOINT = '/api/auth/refresh';

type TokenListener = (token: string | null) => void;
const tokenListeners = new Set<TokenListener>();

/** Calls fn whenever this tab stores or drops the token (login, refresh, logout). */
export function onTokenChange(fn: TokenListener): () => void {
  tokenListeners.add(fn);
  return () => tokenListeners.delete(fn);
}

let refreshing: Promise<string | null> | null = null;

/**
 * Exchanges the refresh cookie for a new access token and stores it; null when that failed.
 * Concurrent callers share one exchange, and tabs take turns (Web Locks): a refresh token is
 * single-use and the server ends every session when one is presented twice.
 */
export function refreshAccessToken(failedToken: string | null = getToken()): Promise<string | null> {
  refreshing ??= withRefreshLock(async () => {
    const current = getToken();
    // Another tab refreshed (or signed in) while this one waited for the lock.
    if (current && failedToken && current !== failedToken) return current;
    try {
      const res = await request<{ token?: string; accessToken?: string } | null>(REFRESH_ENDPOINT, {
        method: 'POST',
        auth: false,
        retryOnUnauthorized: false,
      });
      const token = res?.accessToken ?? res?.token;
      if (!token) throw new ApiError(401, 'No token in the refresh answer');
      setToken(token);
      return token;
    } catch (err) {
      // Network trouble or a server error says nothing about the session: keep it.
      if (!(err instanceof ApiError) || err.status === 0 || err.status >= 500) return null;
      setToken(null);
      return null;
    }
  }).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

function withRefreshLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks?.request) return fn();
  return locks.request('devhub-token-refresh', fn) as Promise<T>;
}

export interface RequestOptions {
  method?: string;
  /** A plain object/array is sent as JSON; FormData, Blob, strings etc. as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
  /** Send the Bearer token when one is stored (default true). */
  auth?: boolean;
  /** Keep the request alive while the page unloads (activity logging). */
  keepalive?: boolean;
  /** What to read from a successful answer (default 'json'). */
  responseType?: 'json' | 'text' | 'blob' | 'response';
  /** On a 401 to a request that sent the stored token: refresh once and retry (default true). */
  retryOnUnauthorized?: boolean;
}

export function buildUrl(path: string, query?: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null) params.set(k, String(v));
  }
  const qs = params.toString();
  if (!qs) return path;
  return path + (path.includes('?') ? '&' : '?') + qs;
}

function isJsonBody(body: unknown): boolean {
  if (body === undefined || body === null) return false;
  if (typeof body !== 'object') return false;
  return !(
    body instanceof FormData ||
    body instanceof Blob ||
    body instanceof ArrayBuffer ||
    body instanceof URLSearchParams ||
    ArrayBuffer.isView(body) ||
    (typeof ReadableStream !== 'undefined' && body instanceof ReadableStream)
  );
}

function isJsonResponse(res: Response): boolean {
  const type = res.headers.get('content-type') ?? '';
  return /[/+]json\b/i.test(type);
}

async function errorFromResponse(res: Response): Promise<ApiError> {
  let message = `HTTP error! status: ${res.status}`;
  let data: ApiErrorData = null;
  if (isJsonResponse(res)) {
    try {
      const payload = (await res.json()) as { message?: unknown; data?: unknown } | null;
      if (payload && typeof payload.message === 'string' && payload.message) message = payload.message;
      if (payload && payload.data && typeof payload.data === 'object') data = payload.data as ApiErrorData;
    } catch {
      /* keep the generic message */
    }
  }
  return new ApiError(res.status, message, data);
}

/** Low-level request: returns the parsed answer or throws ApiError (network failures: status 0). */
export async function request<T = unknown>(path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  let body: BodyInit | undefined;
  if (isJsonBody(opts.body)) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  } else if (opts.body !== undefined && opts.body !== null) {
    body = opts.body as BodyInit;
  }
  let sentToken: string | null = null;
  if (opts.auth !== false) {
    const token = getToken();
    if (token && !headers.Authorization) {
      headers.Authorization = `Bearer ${token}`;
      sentToken = token;
    }
  }

  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.query), {
      method: opts.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      signal: opts.signal,
      keepalive: opts.keepalive,
      credentials: 'same-origin',
      // Public answers carry max-age for CDNs and link visitors; the SPA itself must see a write
      // at once (an upload in the list, a deleted article gone), so it always revalidates — a
      // 304 when nothing changed.
      cache: 'no-cache',
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, err instanceof Error ? err.message : 'Network error');
  }

  if (res.status === 401 && sentToken && opts.retryOnUnauthorized !== false) {
    const fresh = await refreshAccessToken(sentToken);
    if (fresh) return request<T>(path, { ...opts, retryOnUnauthorized: false });
  }
  if (!res.ok) throw await errorFromResponse(res);

  switch (opts.responseType ?? 'json') {
    case 'response':
      return res as unknown as T;
    case 'text':
      return (await res.text()) as unknown as T;
    case 'blob':
      return (await res.blob()) as unknown as T;
    default: {
      if (res.status === 204 || res.headers.get('content-length') === '0') return undefined as T;
      if (!isJsonResponse(res)) throw new ApiError(res.status, 'Server returned non-JSON response');
      return (await res.json()) as T;
    }
  }
}

type Opts = Omit<RequestOptions, 'method' | 'body'>;

export const api = {
  get: <T = unknown>(path: string, opts?: Opts) => request<T>(path, { ...opts, method: 'GET' }),
  post: <T = unknown>(path: string, body?: unknown, opts?: Opts) =>
    request<T>(path, { ...opts, method: 'POST', body }),
  put: <T = unknown>(path: string, body?: unknown, opts?: Opts) =>
    request<T>(path, { ...opts, method: 'PUT', body }),
  patch: <T = unknown>(path: string, body?: unknown, opts?: Opts) =>
    request<T>(path, { ...opts, method: 'PATCH', body }),
  delete: <T = unknown>(path: string, opts?: Opts) => request<T>(path, { ...opts, method: 'DELETE' }),
};

/** The message to show for any thrown value. */
export function errorMessage(err: unknown, fallback = 'Error'): string {
  if (err instanceof Error && err.message) return err.message;
  if (typeof err === 'string' && err) return err;
  return fallback;
}
