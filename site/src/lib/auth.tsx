import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api, getToken, onTokenChange, setToken, TOKEN_KEY } from './api';
import type { Schema } from './apiTypes';

export type User = Schema<'User'>;

export interface AuthState {
  user: User | null;
  token: string | null;
  isAdmin: boolean;
  /** True while the stored token's profile is being loaded. */
  loading: boolean;
  setSession: (user: User, accessToken: string) => void;
  logout: () => Promise<void>;
}

const AuthContext = createContext<AuthState | null>(null);

export const PROFILE_ENDPOINT = '/api/auth/profile';
export const LOGOUT_ENDPOINT = '/api/auth/logout';

/**
 * The signed-in account's profile. One key for the session, not per access token: a refreshed
 * token is the same account and needs no new request.
 */
export const PROFILE_KEY = ['auth', 'profile'] as const;

/**
 * Queries that hold one account's data, dropped when an account signs in or out so that none of
 * it shows for the next: the profile, the account's and the admin's lists, the file cloud (its
 * lists hold the viewer's private files), share links, and the games' shelf, save states and
 * controls.
 */
const ACCOUNT_QUERY_ROOTS = [
  ['auth', 'profile'],
  ['account'],
  ['admin'],
  ['files'],
  ['shares'],
  ['games', 'shelf'],
  ['games', 'states'],
  ['games', 'controls'],
  ['chat'],
  ['notifications'],
] as const;

export function AuthProvider({ children }: { children: ReactNode }) {
  const qc = useQueryClient();
  const [token, setTokenState] = useState<string | null>(() => getToken());
  // Loaded once per session (setSession puts the user in at once); a failed profile
  // fetch is treated as "no user", so it is not retried.
  const profile = useQuery({
    queryKey: PROFILE_KEY,
    queryFn: async ({ signal }) => {
      const u = await api.get<User | null>(PROFILE_ENDPOINT, { signal });
      return u && typeof u === 'object' ? u : null;
    },
    enabled: token !== null,
    staleTime: Infinity,
    retry: false,
  });
  const user = token ? (profile.data ?? null) : null;
  const loading = token !== null && profile.isPending;

  // The token changes outside React too: a refresh stores a new one, a failed refresh drops it
  // (logout), and other tabs sign in or out (the storage event).
  useEffect(() => {
    const follow = (t: string | null) => {
      setTokenState(t);
      if (!t) for (const queryKey of ACCOUNT_QUERY_ROOTS) qc.removeQueries({ queryKey });
    };
    const onStorage = (e: StorageEvent) => {
      if (e.key !== TOKEN_KEY && e.key !== null) return;
      const t = getToken();
      follow(t);
      // Another tab may have signed in as someone else: reload who we are.
      if (t) void qc.invalidateQueries({ queryKey: PROFILE_KEY });
    };
    window.addEventListener('storage', onStorage);
    const off = onTokenChange(follow);
    return () => {
      off();
      window.removeEventListener('storage', onStorage);
    };
  }, [qc]);

  const setSession = useCallback(
    (u: User, accessToken: string) => {
      // Another account's cached data must not show for this one.
      for (const queryKey of ACCOUNT_QUERY_ROOTS) qc.removeQueries({ queryKey });
      qc.setQueryData(PROFILE_KEY, u);
      setToken(accessToken);
      setTokenState(accessToken);
    },
    [qc],
  );

  // The server call of a sign-out, with the token being given up (the client's is gone by then).
  const { mutateAsync: signOut } = useMutation({
    mutationFn: (had: string) =>
      api.post(LOGOUT_ENDPOINT, undefined, { headers: { Authorization: `Bearer ${had}` }, responseType: 'response' }),
  });

  const logout = useCallback(async () => {
    const had = getToken();
    // The token is removed even if the server call fails.
    setToken(null);
    setTokenState(null);
    for (const queryKey of ACCOUNT_QUERY_ROOTS) qc.removeQueries({ queryKey });
    if (had) await signOut(had).catch(() => undefined);
  }, [qc, signOut]);

  const value = useMemo<AuthState>(
    () => ({ user, token, isAdmin: user?.role === 'admin', loading, setSession, logout }),
    [user, token, loading, setSession, logout],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used within an AuthProvider');
  return ctx;
}
