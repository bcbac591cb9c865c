// The file cloud's API calls, one per function. JSON calls go through the shared client; the
// upload uses XMLHttpRequest because only it reports upload progress, and downloads read the
// response stream themselves to report theirs. Every call uses a canonical path, where a file
// has one shape (the contract's File).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiError, api, getToken, refreshAccessToken, request } from '../../lib/api';
import type { Schema } from '../../lib/apiTypes';
import { useAuth } from '../../lib/auth';
import type { Quota } from '../../lib/quotaRefusal';
import { THUMB_POLL_MS, awaitingThumbnail } from './thumbnails';
import { type RememberedUpload, forgetRemembered, rememberedUploads } from '../../lib/resumable/tusStorage';

export type FileType = Schema<'FileType'>;

/** A file as the lists and the upload answer show it (the contract's File). */
export type FileItem = Schema<'File'>;

/** The lists of GET /api/files by group (its totals are read apart). */
export type FileGroups = Omit<Schema<'FileGroups'>, 'totals'>;

export const GROUPS = ['images', 'videos', 'audio', 'documents', 'other'] as const;
export type Group = (typeof GROUPS)[number];

/** Who may see a file: everyone, or only its uploader and the administrators. */
export type Visibility = Schema<'Visibility'>;

/** A file with its hash, as the detail page shows it. */
export type FileDetail = Schema<'FileWithHash'>;

export const filePaths = {
  list: '/api/files',
  upload: '/api/files/upload',
  detail: (id: number | string) => `/api/files/${id}`,
  download: (id: number | string) => `/api/files/${id}/download`,
  stream: (id: number | string) => `/api/files/stream/${id}`,
  quota: '/api/auth/quota',
};

/** GET /api/files (with mine: only the caller's own uploads): every group, missing ones as empty lists. */
export async function listFiles(signal?: AbortSignal, mine = false): Promise<FileGroups> {
  const res = await api.get<Partial<FileGroups> | null>(mine ? `${filePaths.list}?mine=true` : filePaths.list, { signal });
  const out = {} as FileGroups;
  for (const g of GROUPS) out[g] = Array.isArray(res?.[g]) ? (res[g] as FileItem[]) : [];
  return out;
}

/** GET /api/files/{id}. */
export function getFile(id: string | number, signal?: AbortSignal): Promise<FileDetail> {
  return api.get<FileDetail>(filePaths.detail(id), { signal });
}

/** DELETE /api/files/{id} (its uploader or an admin; the server checks). */
export function deleteFile(id: number): Promise<void> {
  return api.delete<void>(filePaths.detail(id));
}

/** Query keys of the file cloud's TanStack queries. The quota is per user: the key names them. */
export const fileKeys = {
  /** The lists depend on who asks (private files): the key names the viewer. */
  list: (userId: number | null, mine = false) => ['files', 'list', userId, mine] as const,
  listAll: ['files', 'list'] as const,
  detail: (id: string, userId: number | null) => ['files', 'detail', id, userId] as const,
  preview: (id: number, sha256: string) => ['files', 'preview', id, sha256] as const,
  quota: (userId: number | null) => ['files', 'quota', userId] as const,
  quotaAll: ['files', 'quota'] as const,
  unfinished: (userId: number | null) => ['files', 'unfinished', userId] as const,
  unfinishedAll: ['files', 'unfinished'] as const,
};

/**
 * The file lists, grouped. While a freshly uploaded image still waits for its thumbnail (made in
 * the background after the upload answers), the list is asked again every THUMB_POLL_MS, for at
 * most a minute after the upload (awaitingThumbnail).
 */
export function useFileList(mine = false) {
  const { user, loading } = useAuth();
  const onlyMine = mine && user !== null;
  const viewer = user?.id ?? null;
  return useQuery({
    queryKey: fileKeys.list(viewer, onlyMine),
    queryFn: ({ signal }) => listFiles(signal, onlyMine),
    // Switching "only my files" keeps the list on screen until the other one is in; never
    // across accounts (another viewer may see other, private, files).
    placeholderData: (prev, prevQuery) => (prevQuery?.queryKey[2] === viewer ? prev : undefined),
    enabled: !loading,
    refetchInterval: (query) => (query.state.data && awaitingThumbnail(query.state.data) ? THUMB_POLL_MS : false),
  });
}

/**
 * One file's details. An id that is not a positive number names no file and is never asked for;
 * a 4xx answer is final (not retried).
 */
export function useFileDetail(id: string) {
  const { user, loading } = useAuth();
  return useQuery({
    queryKey: fileKeys.detail(id, user?.id ?? null),
    queryFn: ({ signal }) => getFile(id, signal),
    enabled: !loading && /^[1-9]\d*$/.test(id),
    retry: (failures, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && failures < 1,
  });
}

/** Replaces a file's cached details (after the uploader changed its visibility) and refreshes the lists. */
export function useSetFileDetail(id: string): (f: FileDetail) => void {
  const client = useQueryClient();
  const { user } = useAuth();
  return useCallback(
    (f: FileDetail) => {
      client.setQueryData(fileKeys.detail(id, user?.id ?? null), f);
      void client.invalidateQueries({ queryKey: fileKeys.listAll });
    },
    [client, id, user?.id],
  );
}

/** Asks the file lists again (after an upload). */
export function useRefreshFileList(): () => void {
  const client = useQueryClient();
  return useCallback(() => void client.invalidateQueries({ queryKey: fileKeys.listAll }), [client]);
}

/** Deletes a file (its uploader or an admin; the server checks), then refreshes the lists and the quota. */
export function useDeleteFile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteFile(id),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: fileKeys.listAll });
      void client.invalidateQueries({ queryKey: fileKeys.quotaAll });
    },
  });
}

/** GET /api/auth/quota: what the signed-in user stores beside what they may store. */
export function getQuota(signal?: AbortSignal): Promise<Quota> {
  return api.get<Quota>(filePaths.quota, { signal });
}

/** The signed-in user's quota (nothing is asked for a guest). */
export function useQuota() {
  const { user } = useAuth();
  return useQuery({
    queryKey: fileKeys.quota(user?.id ?? null),
    queryFn: ({ signal }) => getQuota(signal),
    enabled: user !== null,
  });
}

/** Asks for the quota again: after an upload or a deletion changed it. */
export function useRefreshQuota(): () => void {
  const client = useQueryClient();
  return useCallback(() => void client.invalidateQueries({ queryKey: fileKeys.quotaAll }), [client]);
}

/** An unfinished resumable upload this browser remembers, with what the server has of it. */
export interface UnfinishedUpload extends RememberedUpload {
  offset: number;
}

const TUS_HEADERS = { 'Tus-Resumable': '1.0.0', Accept: 'application/json' };

/** The path of a tus upload URL (the API is on this origin whatever host the URL names). */
const tusPath = (url: string) => new URL(url, window.location.href).pathname;

/**
 * The user's unfinished uploads: the ones this browser remembers that the server still has (a
 * HEAD each); the ones it no longer has (finished elsewhere, cancelled, expired) are forgotten.
 */
export async function listUnfinished(userId: number, signal?: AbortSignal): Promise<UnfinishedUpload[]> {
  const out: UnfinishedUpload[] = [];
  for (const u of await rememberedUploads(userId)) {
    try {
      const res = await request<Response>(tusPath(u.url), { method: 'HEAD', headers: TUS_HEADERS, responseType: 'response', signal });
      const offset = Number(res.headers.get('Upload-Offset'));
      out.push({ ...u, offset: Number.isFinite(offset) ? offset : 0 });
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.status === 410)) await forgetRemembered(u.key);
      else if (!(err instanceof ApiError)) throw err; // aborted
    }
  }
  return out;
}

/** Deletes an unfinished upload on the server (tus termination) and forgets it here. */
export async function discardUnfinished(u: RememberedUpload): Promise<void> {
  try {
    await request(tusPath(u.url), { method: 'DELETE', headers: TUS_HEADERS, responseType: 'response' });
  } catch (err) {
    // Already gone is as good as deleted.
    if (!(err instanceof ApiError) || (err.status !== 404 && err.status !== 410)) throw err;
  }
  await forgetRemembered(u.key);
}

/** The unfinished uploads of the signed-in user (nothing for a guest). */
export function useUnfinishedUploads(enabled = true) {
  const { user } = useAuth();
  return useQuery({
    queryKey: fileKeys.unfinished(user?.id ?? null),
    queryFn: ({ signal }) => listUnfinished(user!.id, signal),
    enabled: enabled && user !== null,
    staleTime: 0,
  });
}

/** Discards an unfinished upload (server and browser), then lists them again. */
export function useDiscardUnfinished() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: discardUnfinished,
    onSettled: () => client.invalidateQueries({ queryKey: fileKeys.unfinishedAll }),
  });
}

/** Asks for the unfinished uploads again (an upload finished, continued or was cancelled). */
export function useRefreshUnfinished(): () => void {
  const client = useQueryClient();
  return useCallback(() => void client.invalidateQueries({ queryKey: fileKeys.unfinishedAll }), [client]);
}

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0–100. */
  percent: number;
  /** Bytes per second since the upload started. */
  speed: number;
}

/** Why an upload failed, so the uploader can show the spec's texts (§8). */
export class UploadError extends Error {
  constructor(
    readonly kind: 'server' | 'network' | 'parse' | 'aborted',
    message: string,
    readonly status = 0,
    /** The error answer's data (data.quota on a 413 over the quota). */
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

export interface UploadHandle {
  promise: Promise<FileItem[]>;
  abort: () => void;
}

function sendUpload(files: File[], visibility: Visibility, onProgress: (p: UploadProgress) => void, token: string | null) {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<FileItem[]>((resolve, reject) => {
    const form = new FormData();
    // Before the files: the server takes it anywhere in the form, but first it is refused
    // before a byte of a file is stored when it is wrong.
    form.append('visibility', visibility);
    for (const f of files) form.append('files', f, f.name);
    const started = performance.now();
    xhr.upload.onprogress = (e) => {
      if (!e.lengthComputable) return;
      const secs = Math.max((performance.now() - started) / 1000, 0.001);
      onProgress({
        loaded: e.loaded,
        total: e.total,
        percent: e.total > 0 ? Math.min(100, Math.round((e.loaded / e.total) * 100)) : 0,
        speed: e.loaded / secs,
      });
    };
    xhr.onerror = () => reject(new UploadError('network', 'Network error occurred'));
    xhr.onabort = () => reject(new UploadError('aborted', 'Upload aborted'));
    xhr.onload = () => {
      let body: unknown = null;
      let parsed = true;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        parsed = false;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const list = (body as { files?: unknown } | null)?.files;
        if (!parsed || !Array.isArray(list)) {
          reject(new UploadError('parse', 'Error parsing server response', xhr.status));
          return;
        }
        resolve(list as FileItem[]);
        return;
      }
      const message = (body as { message?: unknown } | null)?.message;
      const data = (body as { data?: unknown } | null)?.data ?? null;
      reject(new UploadError('server', typeof message === 'string' && message ? message : 'Upload failed', xhr.status, data));
    };
    xhr.open('POST', filePaths.upload);
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.send(form);
  });
  return { xhr, promise };
}

/**
 * POST /api/files/upload: multipart with one repeated "files" field and their visibility,
 * reporting progress and speed. An expired access token is refreshed once and the upload sent
 * again. An XMLHttpRequest, not fetch through a mutation: only XHR reports upload progress, and
 * the Uploader keeps the handle to abort it; what it changes (lists, quota) is refreshed by the
 * caller when it ends.
 */
export function uploadFiles(files: File[], onProgress: (p: UploadProgress) => void, visibility: Visibility = 'public'): UploadHandle {
  let current = sendUpload(files, visibility, onProgress, getToken());
  let aborted = false;
  const promise = current.promise.catch(async (err: unknown) => {
    const sent = getToken();
    if (aborted || !(err instanceof UploadError) || err.status !== 401 || !sent) throw err;
    const fresh = await refreshAccessToken(sent);
    if (!fresh) throw err;
    current = sendUpload(files, visibility, onProgress, fresh);
    return current.promise;
  });
  return {
    promise,
    abort: () => {
      aborted = true;
      current.xhr.abort();
    },
  };
}

export type DownloadProgress = { loaded: number; total: number | null; percent: number };

/**
 * GET a file's bytes (download or stream route) and report progress from Content-Length while
 * reading the body. Resolves to a Blob of the file's type. Called on demand (a download, a
 * preview), not through a query: the bytes are handed to the browser or an object URL at once,
 * and keeping up to files.max_upload_bytes of them in the query cache would only cost memory.
 */
export async function fetchFileBlob(
  path: string,
  onProgress?: (p: DownloadProgress) => void,
  signal?: AbortSignal,
): Promise<Blob> {
  const res = await api.get<Response>(path, { responseType: 'response', signal, headers: { Accept: '*/*' } });
  const type = res.headers.get('content-type') ?? 'application/octet-stream';
  const lengthHeader = res.headers.get('content-length');
  const total = lengthHeader !== null && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : null;
  if (!res.body) {
    const blob = await res.blob();
    onProgress?.({ loaded: blob.size, total, percent: 100 });
    return blob;
  }
  const reader = res.body.getReader();
  const chunks: BlobPart[] = [];
  let loaded = 0;
  onProgress?.({ loaded: 0, total, percent: 0 });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value as Uint8Array<ArrayBuffer>);
    loaded += value.byteLength;
    onProgress?.({ loaded, total, percent: total ? Math.min(100, Math.round((loaded / total) * 100)) : 0 });
  }
  if (total !== null && loaded !== total) throw new ApiError(res.status, `Incomplete download: ${loaded} of ${total} bytes`);
  return new Blob(chunks, { type });
}

/** GET /api/files/{id}/download with progress. */
export function downloadFile(id: number | string, onProgress?: (p: DownloadProgress) => void, signal?: AbortSignal) {
  return fetchFileBlob(filePaths.download(id), onProgress, signal);
}

/** GET /api/files/stream/{id}: the bytes for a preview. */
export function previewFile(id: number, signal?: AbortSignal) {
  return fetchFileBlob(filePaths.stream(id), undefined, signal);
}

export { saveBlob } from '../../lib/saveBlob';

/** GET /api/files/zip?ids=…: the chosen files as one zip (refused whole, before any byte, when one may not be read). */
export function downloadZip(ids: number[], onProgress?: (p: DownloadProgress) => void, signal?: AbortSignal) {
  return fetchFileBlob(`/api/files/zip?ids=${ids.join(',')}`, onProgress, signal);
}
