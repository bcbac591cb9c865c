// The accounts API (spec §7 "Auth"): one function per call, all through the one client.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import type { User } from '../../lib/auth';

export interface AuthTokens {
  accessToken: string;
  refreshToken?: string;
  expiresIn?: number;
}

export interface AuthResponse {
  user: User;
  tokens: AuthTokens;
}

export interface RegisterInput {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
  /** The invitation code, when registration is by invitation. */
  invite?: string;
}

/** The password step's answer when the account signs in with a second factor. */
export interface MfaChallenge {
  mfaRequired: true;
  mfaToken: string;
  /** The second factors the account can use ("totp", "passkey"). */
  methods?: string[];
}

export function isMfaChallenge(v: unknown): v is MfaChallenge {
  return !!v && typeof v === 'object' && (v as MfaChallenge).mfaRequired === true && typeof (v as MfaChallenge).mfaToken === 'string';
}

export interface AdminUser {
  id: number;
  email: string;
  name?: string;
  role: string;
  createdAt?: string;
}

// Sign-in calls never carry an old token and never trigger a refresh.
const anonymous = { auth: false, retryOnUnauthorized: false } as const;

export function register(input: RegisterInput): Promise<AuthResponse> {
  return api.post<AuthResponse>('/api/auth/register', input, anonymous);
}

export function login(email: string, password: string): Promise<AuthResponse | MfaChallenge> {
  return api.post<AuthResponse | MfaChallenge>('/api/auth/login', { email, password }, anonymous);
}

/** The second step of a two-factor sign-in: the challenge's token and a one-time or recovery code. */
export function loginMfa(mfaToken: string, code: string): Promise<AuthResponse> {
  return api.post<AuthResponse>('/api/auth/login/2fa', { mfaToken, code }, anonymous);
}

export type RegistrationPolicy = 'open' | 'invite' | 'closed';

export function fetchRegistrationPolicy(signal?: AbortSignal): Promise<{ policy: RegistrationPolicy }> {
  return api.get<{ policy: RegistrationPolicy }>('/api/auth/registration', { ...anonymous, signal });
}

export function changePassword(oldPassword: string, newPassword: string): Promise<{ message?: string; token?: string }> {
  return api.post('/api/auth/change-password', { oldPassword, newPassword });
}

export const REGISTRATION_POLICY_KEY = ['auth', 'registration'] as const;

/** Whether sign-up is open, by invitation or closed (the sign-up form and the invites panel). */
export function useRegistrationPolicy() {
  return useQuery({
    queryKey: REGISTRATION_POLICY_KEY,
    queryFn: ({ signal }) => fetchRegistrationPolicy(signal),
    staleTime: Infinity,
  });
}
