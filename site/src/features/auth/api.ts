// The accounts API: one function per call, all through the one client, and the
// TanStack Query hooks the sign-in, sign-up and password forms use.
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, setToken } from '../../lib/api';
import type { RequestOf, ResponseOf, Schema } from '../../lib/apiTypes';
import { useAuth } from '../../lib/auth';
import { accountKeys, useSecurityWrite } from './security/api';
import { passkeySecondFactor, signInWithPasskey } from './security/webauthn';

export type AuthResponse = Schema<'AuthResult'>;

/** The registration form's fields: every one but the invitation code is filled in. */
type RegisterBody = RequestOf<'/api/auth/register', 'post'>;
export type RegisterInput = Required<Pick<RegisterBody, 'name' | 'email' | 'password' | 'confirmPassword'>> &
  Pick<RegisterBody, 'invite' | 'lang'>;

/** A registration under auth.verify_email required: the account exists, with no session until its link is opened. */
export type VerificationPending = ResponseOf<'/api/auth/register', 'post'> & { verificationRequired: true };

export function isVerificationPending(v: unknown): v is VerificationPending {
  return !!v && typeof v === 'object' && (v as VerificationPending).verificationRequired === true && !!(v as VerificationPending).user;
}

/** The password step's answer when the account signs in with a second factor. */
export type MfaChallenge = Schema<'Challenge'>;

export function isMfaChallenge(v: unknown): v is MfaChallenge {
  return !!v && typeof v === 'object' && (v as MfaChallenge).mfaRequired === true && typeof (v as MfaChallenge).mfaToken === 'string';
}

export type AdminUser = Schema<'User'>;

// Sign-in calls never carry an old token and never trigger a refresh.
const anonymous = { auth: false, retryOnUnauthorized: false } as const;

export function register(input: RegisterInput): Promise<AuthResponse | VerificationPending> {
  return api.post<AuthResponse | VerificationPending>('/api/auth/register', input, anonymous);
}

export function login(email: string, password: string): Promise<AuthResponse | MfaChallenge> {
  return api.post<AuthResponse | MfaChallenge>('/api/auth/login', { email, password }, anonymous);
}

/** The second step of a two-factor sign-in: the challenge's token and a one-time or recovery code. */
export function loginMfa(mfaToken: string, code: string): Promise<AuthResponse> {
  return api.post<AuthResponse>('/api/auth/login/2fa', { mfaToken, code }, anonymous);
}

export type RegistrationPolicy = 'open' | 'invite' | 'closed';
/** {policy, verifyEmail}: who may register, and whether new accounts confirm their e-mail. */
export type RegistrationInfo = ResponseOf<'/api/auth/registration', 'get'>;

export function fetchRegistrationPolicy(signal?: AbortSignal): Promise<RegistrationInfo> {
  return api.get<RegistrationInfo>('/api/auth/registration', { ...anonymous, signal });
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

export type SignInResult = AuthResponse | MfaChallenge | VerificationPending;

/** An answer that is neither a challenge, a registration waiting for its e-mail, nor an account with its token is a failure. */
function checked(res: SignInResult): SignInResult {
  if (isMfaChallenge(res) || isVerificationPending(res)) return res;
  if (!res?.user || !res.tokens?.accessToken) throw new Error('malformed answer');
  return res;
}

/**
 * A sign-in write. An answer with an account starts its session: setSession drops the previous
 * account's cached queries (profile, account and admin lists, files, shares, the games shelf)
 * and puts the user in the profile query, so nothing is asked again. A two-factor challenge is
 * the caller's to continue (the mutation's data).
 */
function useSignIn<V>(call: (v: V) => Promise<SignInResult>) {
  const { setSession } = useAuth();
  return useMutation({
    mutationFn: async (v: V) => checked(await call(v)),
    onSuccess: (res) => {
      if (!isMfaChallenge(res) && !isVerificationPending(res)) setSession(res.user, res.tokens.accessToken);
    },
  });
}

/** POST /api/auth/login: the password step. */
export const useLogin = () => useSignIn((v: { email: string; password: string }) => login(v.email, v.password));

/** POST /api/auth/register. */
export const useRegister = () => useSignIn(register);

/** POST /api/auth/login/2fa: the code step after a challenge. */
export const useLoginMfa = () => useSignIn((v: { mfaToken: string; code: string }) => loginMfa(v.mfaToken, v.code));

/** A passkey sign-in (the browser's ceremony between the two requests). */
export const usePasskeySignIn = () => useSignIn((_: void) => signInWithPasskey());

/** A passkey as the second step after a challenge (its mfaToken). */
export const usePasskeySecondFactor = () => useSignIn(passkeySecondFactor);

/**
 * POST /api/auth/change-password. Every older access token stops working and the answer carries
 * this session's new one, which is stored at once; the other sessions ended.
 */
export function useChangePassword() {
  return useSecurityWrite(async (v: { oldPassword: string; newPassword: string }) => {
    const res = await changePassword(v.oldPassword, v.newPassword);
    if (res && typeof res.token === 'string' && res.token) setToken(res.token);
    return res;
  }, accountKeys.sessions);
}
