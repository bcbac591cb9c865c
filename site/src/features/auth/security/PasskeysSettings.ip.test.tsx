import { screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import { AuthForm } from '../components/AuthForm';
import { PasskeysSettings } from './PasskeysSettings';

// The site opened by an IP address (http://192.168.1.10:8080) in a browser that has passkeys:
// onIPAddress's own cases are in webauthn.test.ts.
vi.mock('./webauthn', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./webauthn')>()),
  passkeysSupported: () => true,
  onIPAddress: () => true,
}));

beforeAll(async () => {
  await initTestI18n('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('passkeys on a site opened by its IP address', () => {
  it('the profile says why instead of offering a form the browser would refuse', async () => {
    localStorage.setItem('token', 't');
    stubFetch({ '/api/auth/passkeys': () => json([]) });
    renderWithShell(<PasskeysSettings />);
    expect(await screen.findByText(/open the site by its host name/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
  });

  it('the sign-in form offers no passkey button', async () => {
    stubFetch({ '/api/auth/registration': () => json({ policy: 'open' }) });
    renderWithShell(<AuthForm />);
    await screen.findByRole('button', { name: 'Sign in' });
    expect(screen.queryByRole('button', { name: /passkey/i })).toBeNull();
  });
});
