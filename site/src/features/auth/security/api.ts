// The account-security API: two-factor sign-in, sessions, and the admin panel's management,
// invitations and audit log. Reads and writes go through TanStack Query; keys live here.
import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { api, request } from '../../../lib/api';
import type { paths, ResponseOf, Schema } from '../../../lib/apiTypes';
import type { AdminUser } from '../api';
import { addPasskey } from './webauthn';

export const accountKeys = {
  twoFactor: ['account', 'twoFactor'] as const,
  passkeys: ['account', 'passkeys'] as const,
  sessions: ['account', 'sessions'] as const,
  users: (search: string, page: number) => ['admin', 'users', search, page] as const,
  usersAll: ['admin', 'users'] as const,
  invites: ['admin', 'invites'] as const,
  audit: (type: string) => ['admin', 'audit', type] as const,
  auditAll: ['admin', 'audit'] as const,
};

/**
 * A write of the account's or the site's security settings. Afterwards the lists it changed are
 * asked again, and so is the audit log, which records every one of them.
 */
export function useSecurityWrite<V, R>(mutationFn: (v: V) => Promise<R>, ...changed: QueryKey[]) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all([...changed, accountKeys.auditAll].map((queryKey) => qc.invalidateQueries({ queryKey }))),
  });
}

export type TwoFactorStatus = ResponseOf<'/api/auth/2fa', 'get'>;
export type Enrolment = ResponseOf<'/api/auth/2fa/totp', 'post'>;

export type SessionItem = Schema<'Session'>;
export type Invite = Schema<'Invite'>;
export type AuditEvent = Schema<'AuditEvent'>;

export type AuditPage = ResponseOf<'/api/audit', 'get'>;

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: accountKeys.twoFactor,
    queryFn: ({ signal }) => api.get<TwoFactorStatus>('/api/auth/2fa', { signal }),
  });
}

export function useBeginTotp() {
  return useMutation({ mutationFn: () => api.post<Enrolment>('/api/auth/2fa/totp') });
}

type ConfirmTotpOp = paths['/api/auth/2fa/totp/confirm']['post'];
/** {code, signOutOthers}: the server ends the account's other sessions unless signOutOthers is false. */
export type ConfirmTotpBody = ConfirmTotpOp['requestBody']['content']['application/json'];
/** The recovery codes (shown once) and how many other sessions ended. */
export type ConfirmTotpAnswer = ConfirmTotpOp['responses'][200]['content']['application/json'];

export function useConfirmTotp() {
  return useSecurityWrite(
    (body: ConfirmTotpBody) => api.post<ConfirmTotpAnswer>('/api/auth/2fa/totp/confirm', body),
    accountKeys.twoFactor,
    accountKeys.sessions,
  );
}

export function useDisableTotp() {
  return useSecurityWrite(
    (code: string) => request<void>('/api/auth/2fa/totp', { method: 'DELETE', body: { code } }),
    accountKeys.twoFactor,
  );
}

export function useSessions() {
  return useQuery({
    queryKey: accountKeys.sessions,
    queryFn: ({ signal }) => api.get<SessionItem[]>('/api/auth/sessions', { signal }),
  });
}

/** Ends one of the account's other sessions, or all of them ('others'). */
export function useRevokeSession() {
  return useSecurityWrite(
    (id: string | 'others') => api.delete<void>(id === 'others' ? '/api/auth/sessions' : `/api/auth/sessions/${encodeURIComponent(id)}`),
    accountKeys.sessions,
  );
}

/** Users per page in the admin panel. */
export const USERS_PER_PAGE = 20;
/** The admin panel's user search waits this long after the last keystroke. */
export const USER_SEARCH_DEBOUNCE_MS = 300;

export interface UserPage {
  users: AdminUser[];
  total: number;
}

export function useAdminUsers(search: string, page: number) {
  return useQuery({
    queryKey: accountKeys.users(search, page),
    queryFn: async ({ signal }): Promise<UserPage> => {
      const res = await api.get<Response>('/api/auth/admin/users', {
        signal,
        query: { search: search || undefined, page, limit: USERS_PER_PAGE },
        responseType: 'response',
      });
      const users = (await res.json()) as unknown;
      if (!Array.isArray(users)) throw new Error('usersFormat');
      return { users: users as AdminUser[], total: Number(res.headers.get('X-Total-Count') ?? users.length) };
    },
    placeholderData: (prev) => prev,
  });
}

export type AdminAction =
  | { kind: 'role'; id: number; role: 'admin' | 'user' }
  | { kind: 'revoke'; id: number }
  | { kind: 'reset2fa'; id: number }
  | { kind: 'delete'; id: number; files: 'keep' | 'delete' };

export function useAdminAction() {
  return useSecurityWrite((a: AdminAction): Promise<unknown> => {
    const path = `/api/auth/admin/users/${a.id}`;
    switch (a.kind) {
      case 'role':
        return api.patch<AdminUser>(path, { role: a.role });
      case 'revoke':
        return api.post<void>(`${path}/revoke`);
      case 'reset2fa':
        return api.delete<void>(`${path}/2fa`);
      case 'delete':
        return api.delete<void>(path, { query: { files: a.files } });
    }
  }, accountKeys.usersAll);
}

export function useInvites() {
  return useQuery({
    queryKey: accountKeys.invites,
    queryFn: ({ signal }) => api.get<Invite[]>('/api/auth/admin/invites', { signal }),
  });
}

export function useCreateInvite() {
  return useSecurityWrite(
    (expiresIn: string) => api.post<Invite & { code: string }>('/api/auth/admin/invites', { expiresIn }),
    accountKeys.invites,
  );
}

export function useDeleteInvite() {
  return useSecurityWrite((id: string) => api.delete<void>(`/api/auth/admin/invites/${encodeURIComponent(id)}`), accountKeys.invites);
}

export function useAudit(type: string, before: number | null) {
  return useQuery({
    queryKey: [...accountKeys.audit(type), before],
    queryFn: ({ signal }) =>
      api.get<AuditPage>('/api/audit', { signal, query: { type: type || undefined, limit: 50, before: before ?? undefined } }),
    placeholderData: (prev) => prev,
  });
}

export type PasskeyItem = Schema<'Passkey'>;

export function usePasskeys() {
  return useQuery({
    queryKey: accountKeys.passkeys,
    queryFn: ({ signal }) => api.get<PasskeyItem[]>('/api/auth/passkeys', { signal }),
  });
}

/** Adds a passkey under a name (the browser's ceremony between the two requests). */
export function useAddPasskey() {
  return useSecurityWrite((name: string) => addPasskey(name), accountKeys.passkeys);
}

export function useRemovePasskey() {
  return useSecurityWrite((id: string) => api.delete<void>(`/api/auth/passkeys/${encodeURIComponent(id)}`), accountKeys.passkeys);
}
