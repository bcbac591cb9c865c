// "Forgot password": whether the site offers it, asking for a reset link by e-mail, and setting a
// new password with the link's token. Types come from the contract (api/openapi.yaml).
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { paths } from '../../../lib/apiTypes';

type ForgotOp = paths['/api/auth/password/forgot'];
type ResetOp = paths['/api/auth/password/reset']['post'];
/** {available}: mail is on and the site knows its public address. */
export type ForgotAvailability = ForgotOp['get']['responses'][200]['content']['application/json'];
/** {email, lang}: the address of the account and the language of the mail. */
export type ForgotBody = ForgotOp['post']['requestBody']['content']['application/json'];
/** {token, newPassword}. */
export type ResetBody = ResetOp['requestBody']['content']['application/json'];

// Password reset calls never carry a token and never trigger a refresh.
const anonymous = { auth: false, retryOnUnauthorized: false } as const;

export const resetKeys = {
  all: ['auth', 'password-reset'] as const,
  availability: () => [...resetKeys.all, 'availability'] as const,
};

/** Whether the sign-in form links to "forgot password". */
export function useForgotAvailable() {
  return useQuery({
    queryKey: resetKeys.availability(),
    queryFn: ({ signal }) => api.get<ForgotAvailability>('/api/auth/password/forgot', { ...anonymous, signal }),
    staleTime: 5 * 60_000,
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (body: ForgotBody) => api.post<{ message: string }>('/api/auth/password/forgot', body, anonymous),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (body: ResetBody) => api.post<{ message: string }>('/api/auth/password/reset', body, anonymous),
  });
}
