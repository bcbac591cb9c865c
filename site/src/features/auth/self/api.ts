// The account's own settings: display name, e-mail, avatar, a copy of its data, and deleting it.
// Every write answers with the account as it is now, which goes straight into the profile query
// (the header and the overview show it at once).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request, setToken } from '../../../lib/api';
import type { paths } from '../../../lib/apiTypes';
import { PROFILE_KEY, type User } from '../../../lib/auth';
import { saveBlob } from '../../../lib/saveBlob';

export const selfKeys = {
  profile: PROFILE_KEY,
};

type EmailOp = paths['/api/auth/email']['post'];
export type EmailChangeInput = EmailOp['requestBody']['content']['application/json'];
export type EmailChange = EmailOp['responses']['200']['content']['application/json'];
type DeleteOp = paths['/api/auth/profile']['delete'];
export type DeleteAccountInput = NonNullable<DeleteOp['requestBody']>['content']['application/json'];

/** The largest picture the server takes as an avatar (5 MiB). */
export const MAX_AVATAR_BYTES = 5 << 20;

function useProfileWrite<V>(call: (v: V) => Promise<User>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (u) => qc.setQueryData(PROFILE_KEY, u),
  });
}

/** PATCH /api/auth/profile {name}. */
export const useSetName = () => useProfileWrite((name: string) => api.patch<User>('/api/auth/profile', { name }));

/** POST /api/auth/profile/avatar: the picture as the body. */
export const useSetAvatar = () =>
  useProfileWrite((file: Blob) =>
    api.post<User>('/api/auth/profile/avatar', file, { headers: { 'Content-Type': file.type || 'application/octet-stream' } }),
  );

/** DELETE /api/auth/profile/avatar. */
export const useRemoveAvatar = () => useProfileWrite(() => api.delete<User>('/api/auth/profile/avatar'));

/** POST /api/auth/email: made at once, or pending a confirmation from the new address. */
export function useChangeEmail() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: EmailChangeInput) => api.post<EmailChange>('/api/auth/email', v),
    onSuccess: (res) => qc.setQueryData(PROFILE_KEY, res.user),
  });
}

/** DELETE /api/auth/profile: the account is gone, and so is this browser's session. */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: (v: DeleteAccountInput) => request<void>('/api/auth/profile', { method: 'DELETE', body: v }),
    // The token is dead: dropping it clears every account query (lib/auth follows it).
    onSuccess: () => setToken(null),
  });
}

/** GET /api/auth/export, handed to the browser as a download. */
export function useExportData() {
  return useMutation({
    mutationFn: async () => {
      const res = await api.get<Response>('/api/auth/export', { responseType: 'response', headers: { Accept: 'application/zip' } });
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'devhub-export.zip';
      saveBlob(await res.blob(), name);
    },
  });
}

/** Whether a refusal asks for the second factor's code (the server names the field "code"). */
export function codeRequired(err: unknown): boolean {
  const data = (err as { data?: Record<string, unknown> } | null)?.data;
  return !!data && typeof data === 'object' && 'code' in data;
}
