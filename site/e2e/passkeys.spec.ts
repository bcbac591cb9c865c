import { cli, expect, test } from './fixtures';
import { port } from './env';

// Passkeys end to end with Chromium's virtual authenticator (CDP WebAuthn domain):
// register one from the settings, then sign in with it alone. WebAuthn needs a domain for its
// relying party, so this test uses http://localhost:<port> rather than the suite's 127.0.0.1.

const unique = (name: string) => `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
const site = `http://localhost:${port}`;

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
});

test('a passkey registered in the settings signs in on its own', async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const email = unique('passkey');
  cli(['user', 'create', '--email', email, '--name', 'Key Holder', '--password-stdin'], { input: 'passkey-password\n' });

  await page.goto(`${site}/profile`);
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('Password', { exact: true }).fill('passkey-password');
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: email })).toBeVisible();

  await page.goto(`${site}/profile?section=settings`);
  const section = page.getByRole('region', { name: 'Passkeys' });
  await section.getByLabel('Name of the new passkey').fill('Virtual key');
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(section.getByRole('list', { name: 'Passkeys' }).getByText('Virtual key')).toBeVisible();
  // The authenticator holds one discoverable credential for this site.
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

  await page.goto(`${site}/profile`);
  await page.getByRole('button', { name: 'Log out' }).first().click();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('heading', { level: 2, name: email })).toBeVisible();

  const events = cli(['audit', 'list', '--json', '--limit', '20'])
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; target: string; details?: Record<string, string> })
    .filter((e) => e.target === email);
  expect(events[0]).toMatchObject({ type: 'signin', details: { method: 'passkey' } });
  expect(events.some((e) => e.type === 'passkey.added' && e.details?.name === 'Virtual key')).toBe(true);
});
