// Share links and file visibility (docs/shares.md): the owner's side under /api, the visitor's
// side under /s/:token. Reads and writes go through TanStack Query; keys live here.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, request } from '../../../lib/api';
import type { Schema } from '../../../lib/apiTypes';
import type { FileDetail } from '../api';

export type ShareLink = Schema<'ShareLink'>;
export type ShareInfo = Schema<'ShareInfo'>;
export type Visibility = Schema<'Visibility'>;

export const shareKeys = {
  file: (id: number) => ['shares', 'file', id] as const,
  mine: ['shares', 'mine'] as const,
  all: ['shares'] as const,
  info: (token: string) => ['share', token] as const,
};

export const sharePaths = {
  page: (token: string) => `/s/${encodeURIComponent(token)}`,
  info: (token: string) => `/s/${encodeURIComponent(token)}/info`,
  unlock: (token: string) => `/s/${encodeURIComponent(token)}/unlock`,
  download: (token: string) => `/s/${encodeURIComponent(token)}/download`,
  inline: (token: string) => `/s/${encodeURIComponent(token)}/download?inline=1`,
};

/** GET /api/files/:id/shares — 403/401 mean the caller may not manage the file. */
export function useFileShares(fileId: number, enabled = true) {
  return useQuery({
    queryKey: shareKeys.file(fileId),
    queryFn: ({ signal }) => api.get<ShareLink[]>(`/api/files/${fileId}/shares`, { signal }),
    enabled,
    retry: false,
  });
}

/** GET /api/shares: the links the caller made (the profile). */
export function useMyShares() {
  return useQuery({
    queryKey: shareKeys.mine,
    queryFn: ({ signal }) => api.get<ShareLink[]>('/api/shares', { signal }),
  });
}

export interface NewShare {
  expiresIn?: string;
  password?: string;
  maxDownloads?: number;
}

export function useCreateShare(fileId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: NewShare) => api.post<ShareLink>(`/api/files/${fileId}/shares`, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: shareKeys.all }),
  });
}

export function useRevokeShare() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api.delete<void>(`/api/shares/${encodeURIComponent(token)}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: shareKeys.all }),
  });
}

/** PATCH /api/files/:id {name}: the uploader or an admin renames the file. */
export function useRenameFile(fileId: number) {
  return useMutation({
    mutationFn: (name: string) => api.patch<FileDetail>(`/api/files/${fileId}`, { name }),
  });
}

/** PATCH /api/files/:id {visibility}. */
export function useSetVisibility(fileId: number) {
  return useMutation({
    mutationFn: (visibility: Visibility) => api.patch<FileDetail>(`/api/files/${fileId}`, { visibility }),
  });
}

/** GET /s/:token/info, without the account's token (a link works the same for everyone). */
export function useShareInfo(token: string) {
  return useQuery({
    queryKey: shareKeys.info(token),
    queryFn: ({ signal }) => request<ShareInfo>(sharePaths.info(token), { signal, auth: false }),
    retry: false,
  });
}

/** POST /s/:token/unlock: the server sets the cookie the preview and download then carry. */
export function useUnlockShare(token: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (password: string) =>
      request<{ grant: string; expiresAt: string }>(sharePaths.unlock(token), {
        method: 'POST',
        body: { password },
        auth: false,
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: shareKeys.info(token) }),
  });
}

/** The HTTP status of a failed call (0 when it is not an API error). */
export function statusOf(err: unknown): number {
  return err instanceof ApiError ? err.status : 0;
}

/** Safe media types the server shows inline (pkg/server inlineTypes), by preview element. */
const INLINE: Record<string, 'image' | 'video' | 'audio' | 'pdf'> = {
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/gif': 'image',
  'image/webp': 'image',
  'video/mp4': 'video',
  'video/webm': 'video',
  'video/ogg': 'video',
  'audio/ogg': 'audio',
  'audio/mpeg': 'audio',
  'audio/wav': 'audio',
  'audio/wave': 'audio',
  'audio/x-wav': 'audio',
  'application/pdf': 'pdf',
};

/** How a file of this MIME type is previewed inline, or null for no preview. */
export function inlineKind(mimetype: string): 'image' | 'video' | 'audio' | 'pdf' | null {
  const base = mimetype.split(';')[0].trim().toLowerCase();
  return INLINE[base] ?? null;
}
