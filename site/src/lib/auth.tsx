import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api, getToken, onTokenChange, setToken, TOKEN_KEY } from './api';

export interface User {
  id: number;
  email: string;
  name: string;
  role: string;
  createdAt?: string;
}

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

export function AuthProvider({ children }: { children: ReactNode }) {
  const [token, setTokenState] = useState<string | null>(() => getToken());
  const [user, setUser] = useState<User | null>(null);
  const [loading, setLoading] = useState<boolean>(() => getToken() !== null);

  useEffect(() => {
    if (!token || user) {
      setLoading(false);
      return;
    }
    const ctrl = new AbortController();
    setLoading(true);
    api
      .get<User | null>(PROFILE_ENDPOINT, { signal: ctrl.signal })
      .then((u) => {
        if (!ctrl.signal.aborted) setUser(u && typeof u === 'object' ? u : null);
      })
      .catch(() => {
        // spec §8: a failed profile fetch is treated as "no user"
        if (!ctrl.signal.aborted) setUser(null);
      })
      .finally(() => {
        if (!ctrl.signal.aborted) setLoading(false);
      });
    return () => ctrl.abort();
    // the user is loaded for a token once; setSession supplies both together
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  // The token changes outside React too: a refresh stores a new one, a failed refresh drops it
  // (logout), and other tabs sign in or out (the storage event).
  useEffect(() => {
    const follow = (t: string | null) => {
      setTokenState(t);
      if (!t) setUser(null);
    };
    const onStorage = (e: StorageEvent) => {
      if (e.key !== TOKEN_KEY && e.key !== null) return;
      const t = getToken();
      follow(t);
      // Another tab may have signed in as someone else: reload who we are.
      if (t) {
        api
          .get<User | null>(PROFILE_ENDPOINT)
          .then((u) => setUser(u && typeof u === 'object' ? u : null))
          .catch(() => undefined);
      }
    };
    window.addEventListener('storage', onStorage);
    const off = onTokenChange(follow);
    return () => {
      off();
      window.removeEventListener('storage', onStorage);
    };
  }, []);

  const setSession = useCallback((u: User, accessToken: string) => {
    setToken(accessToken);
    setUser(u);
    setTokenState(accessToken);
  }, []);

  const logout = useCallback(async () => {
    const had = getToken();
    // The token is removed even if the server call fails (spec §4).
    setToken(null);
    setUser(null);
    setTokenState(null);
    if (had) {
      await api
        .post(LOGOUT_ENDPOINT, undefined, {
          headers: { Authorization: `Bearer ${had}` },
          responseType: 'response',
        })
        .catch(() => undefined);
    }
  }, []);

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
