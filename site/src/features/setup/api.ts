// The first run's API: whether the link serve printed is live, and the owner's account made with
// it. Types come from the contract (api/openapi.yaml).
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { useAuth, type User } from '../../lib/auth';
import type { paths } from '../../lib/apiTypes';

export type OwnerInput = Omit<
  paths['/api/setup/owner']['post']['requestBody']['content']['application/json'],
  'token' | 'refreshTokenInBody'
>;
type SignedIn = paths['/api/setup/owner']['post']['responses']['201']['content']['application/json'];

// No old token is sent and no refresh is tried: the visitor has no account yet.
const anonymous = { auth: false, retryOnUnauthorized: false } as const;

export const setupKeys = {
  all: ['setup'] as const,
  link: (token: string) => [...setupKeys.all, 'link', token] as const,
};

/** Whether token is a live first-run link (a 404 ApiError when it is not). */
export function useSetupLink(token: string) {
  return useQuery({
    queryKey: setupKeys.link(token),
    // A live link answers 204 (no body); the query's data is just "live".
    queryFn: async ({ signal }) => {
      await api.post<void>('/api/setup/check', { token }, { ...anonymous, signal });
      return true;
    },
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
}

/** Creates the owner's admin account with the link and starts its session. */
export function useCreateOwner(token: string) {
  const { setSession } = useAuth();
  return useMutation({
    mutationFn: (input: OwnerInput) => api.post<SignedIn>('/api/setup/owner', { ...input, token }, anonymous),
    onSuccess: (res) => setSession(res.user as User, res.tokens.accessToken),
  });
}
