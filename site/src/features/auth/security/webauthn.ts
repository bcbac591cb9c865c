// The browser side of the passkey ceremonies: the server's options (JSON, binary fields as
// base64url) become the objects navigator.credentials wants, and the credential it returns
// becomes JSON again. The browser's own JSON helpers are used where it has them.
// The ceremonies (two requests around the browser's prompt) run as the mutations of
// useAddPasskey (security/api.ts) and usePasskeySignIn/usePasskeySecondFactor (auth/api.ts).
import { api } from '../../../lib/api';
import type { AuthResponse } from '../api';

interface CeremonyJSON {
  ceremonyId: string;
  options: { publicKey: Record<string, unknown> };
}

type PKC = typeof PublicKeyCredential & {
  parseCreationOptionsFromJSON?: (o: unknown) => PublicKeyCredentialCreationOptions;
  parseRequestOptionsFromJSON?: (o: unknown) => PublicKeyCredentialRequestOptions;
};

export function fromB64url(s: string): ArrayBuffer {
  const b = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4));
  const out = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
  return out.buffer;
}

export function toB64url(buf: ArrayBuffer | ArrayBufferView): string {
  const bytes = buf instanceof ArrayBuffer ? new Uint8Array(buf) : new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

type Desc = { id: string; type: string; transports?: string[] };
const descriptors = (list: unknown) =>
  Array.isArray(list) ? (list as Desc[]).map((d) => ({ ...d, id: fromB64url(d.id) })) : undefined;

export function creationOptions(o: Record<string, unknown>): PublicKeyCredentialCreationOptions {
  const P = globalThis.PublicKeyCredential as PKC | undefined;
  if (P?.parseCreationOptionsFromJSON) return P.parseCreationOptionsFromJSON(o);
  const user = o.user as { id: string; name: string; displayName: string };
  return {
    ...(o as object),
    challenge: fromB64url(o.challenge as string),
    user: { ...user, id: fromB64url(user.id) },
    excludeCredentials: descriptors(o.excludeCredentials),
  } as PublicKeyCredentialCreationOptions;
}

export function requestOptions(o: Record<string, unknown>): PublicKeyCredentialRequestOptions {
  const P = globalThis.PublicKeyCredential as PKC | undefined;
  if (P?.parseRequestOptionsFromJSON) return P.parseRequestOptionsFromJSON(o);
  return {
    ...(o as object),
    challenge: fromB64url(o.challenge as string),
    allowCredentials: descriptors(o.allowCredentials),
  } as PublicKeyCredentialRequestOptions;
}

/** A credential as the server reads it (the WebAuthn JSON form). */
export function credentialJSON(cred: PublicKeyCredential): unknown {
  const own = (cred as PublicKeyCredential & { toJSON?: () => unknown }).toJSON;
  if (own) return own.call(cred);
  const r = cred.response as AuthenticatorAttestationResponse & AuthenticatorAssertionResponse;
  const response: Record<string, string> = { clientDataJSON: toB64url(r.clientDataJSON) };
  if ('attestationObject' in r && r.attestationObject) response.attestationObject = toB64url(r.attestationObject);
  if ('authenticatorData' in r && r.authenticatorData) response.authenticatorData = toB64url(r.authenticatorData);
  if ('signature' in r && r.signature) response.signature = toB64url(r.signature);
  if ('userHandle' in r && r.userHandle) response.userHandle = toB64url(r.userHandle);
  return { id: cred.id, rawId: toB64url(cred.rawId), type: cred.type, response };
}

export const passkeysSupported = () => typeof globalThis.PublicKeyCredential !== 'undefined' && !!navigator.credentials;

/**
 * Whether the site was opened by an IP address (http://192.168.1.10:8080): WebAuthn binds a
 * passkey to a host name, so the browser and the server refuse every ceremony there.
 */
export const onIPAddress = (hostname = location.hostname) => /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i.test(hostname);

/** Adds a passkey named name to the signed-in account. */
export async function addPasskey(name: string): Promise<void> {
  const c = await api.post<CeremonyJSON>('/api/auth/passkeys/register/begin');
  const cred = (await navigator.credentials.create({ publicKey: creationOptions(c.options.publicKey) })) as PublicKeyCredential | null;
  if (!cred) throw new Error('cancelled');
  await api.post('/api/auth/passkeys/register/finish', { ceremonyId: c.ceremonyId, name, credential: credentialJSON(cred) });
}

const anonymous = { auth: false, retryOnUnauthorized: false } as const;

/** Signs in with a passkey alone (the browser offers the accounts it holds). */
export async function signInWithPasskey(): Promise<AuthResponse> {
  const c = await api.post<CeremonyJSON>('/api/auth/passkeys/login/begin', undefined, anonymous);
  const cred = (await navigator.credentials.get({ publicKey: requestOptions(c.options.publicKey) })) as PublicKeyCredential | null;
  if (!cred) throw new Error('cancelled');
  return api.post<AuthResponse>('/api/auth/passkeys/login/finish', { ceremonyId: c.ceremonyId, credential: credentialJSON(cred) }, anonymous);
}

/** The passkey as the second step of a password sign-in. */
export async function passkeySecondFactor(mfaToken: string): Promise<AuthResponse> {
  const c = await api.post<CeremonyJSON>('/api/auth/login/2fa/passkey/begin', { mfaToken }, anonymous);
  const cred = (await navigator.credentials.get({ publicKey: requestOptions(c.options.publicKey) })) as PublicKeyCredential | null;
  if (!cred) throw new Error('cancelled');
  return api.post<AuthResponse>(
    '/api/auth/login/2fa/passkey/finish',
    { mfaToken, ceremonyId: c.ceremonyId, credential: credentialJSON(cred) },
    anonymous,
  );
}
