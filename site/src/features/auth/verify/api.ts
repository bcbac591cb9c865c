// The links mailed to prove an address: opening one (a new account's verification, or the
// confirmation of a change of e-mail) and asking for a new verification link. Types come from the
// contract (api/openapi.yaml).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { RequestOf, ResponseOf } from '../../../lib/apiTypes';
import { PROFILE_KEY } from '../../../lib/auth';

/** {purpose: verify | email_change, email}: what opening the link did. */
export type EmailConfirmation = ResponseOf<'/api/auth/verify-email', 'post'>;
/** {email, lang}: the address of the account and the language of the mail. */
export type ResendBody = RequestOf<'/api/auth/verify-email/resend', 'post'>;

// The link is the proof: these calls never carry a token and never trigger a refresh.
const anonymous = { auth: false, retryOnUnauthorized: false } as const;

/** POST /api/auth/verify-email: spends the link's token; a signed-in profile is read again. */
export function useConfirmEmail() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api.post<EmailConfirmation>('/api/auth/verify-email', { token }, anonymous),
    onSuccess: () => qc.invalidateQueries({ queryKey: PROFILE_KEY }),
  });
}

/** POST /api/auth/verify-email/resend: the same answer whatever the address. */
export function useResendVerification() {
  return useMutation({
    mutationFn: (body: ResendBody) => api.post<{ message: string }>('/api/auth/verify-email/resend', body, anonymous),
  });
}
