import { describe, expect, it } from 'vitest';
import { creationOptions, credentialJSON, fromB64url, onIPAddress, requestOptions, toB64url } from './webauthn';

describe('passkey JSON conversions', () => {
  it('round-trips base64url', () => {
    for (const bytes of [[], [0], [251, 255, 191], Array.from({ length: 33 }, (_, i) => i * 7)]) {
      const b = new Uint8Array(bytes);
      const s = toB64url(b);
      expect(s).not.toMatch(/[+/=]/);
      expect(Array.from(new Uint8Array(fromB64url(s)))).toEqual(bytes);
    }
  });

  it('turns the server options into the browser objects', () => {
    const c = creationOptions({
      challenge: 'AQID',
      rp: { id: 'localhost', name: 'devhub' },
      user: { id: 'BAUG', name: 'a@example.com', displayName: 'A' },
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      excludeCredentials: [{ type: 'public-key', id: 'BwgJ' }],
    });
    expect(Array.from(new Uint8Array(c.challenge as ArrayBuffer))).toEqual([1, 2, 3]);
    expect(Array.from(new Uint8Array(c.user.id as ArrayBuffer))).toEqual([4, 5, 6]);
    expect(Array.from(new Uint8Array(c.excludeCredentials![0].id as ArrayBuffer))).toEqual([7, 8, 9]);
    const r = requestOptions({ challenge: 'AQID', allowCredentials: [{ type: 'public-key', id: 'BwgJ' }] });
    expect(Array.from(new Uint8Array(r.allowCredentials![0].id as ArrayBuffer))).toEqual([7, 8, 9]);
  });

  it('writes a credential the server can read', () => {
    const buf = (xs: number[]) => new Uint8Array(xs).buffer;
    const cred = {
      id: 'AQI',
      rawId: buf([1, 2]),
      type: 'public-key',
      response: { clientDataJSON: buf([123]), authenticatorData: buf([5]), signature: buf([6]), userHandle: buf([7]) },
    } as unknown as PublicKeyCredential;
    expect(credentialJSON(cred)).toEqual({
      id: 'AQI',
      rawId: 'AQI',
      type: 'public-key',
      response: { clientDataJSON: 'ew', authenticatorData: 'BQ', signature: 'Bg', userHandle: 'Bw' },
    });
  });
});

describe('onIPAddress', () => {
  it.each([
    ['192.168.1.10', true],
    ['127.0.0.1', true],
    ['[::1]', true],
    ['[2001:db8::7]', true],
    ['localhost', false],
    ['devhub.example.com', false],
    ['1.2.3.example', false],
  ])('%s → %s', (host, want) => {
    expect(onIPAddress(host)).toBe(want);
  });
});
