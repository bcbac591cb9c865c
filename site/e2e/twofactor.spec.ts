import { createHmac } from 'node:crypto';
import type { Page } from '@playwright/test';
import { cli, cliJson, expect, test } from './fixtures';

// Two-factor sign-in end to end: enrol from the profile's settings with the key the page
// shows, confirm, keep the recovery codes, sign out, sign in with the password and a code computed
// here from the key (RFC 6238), and find it all in the CLI's status and audit log.

const unique = (name: string) => `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

function base32(secret: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of secret.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The TOTP code of secret for the 30-second step that holds time t (ms). */
function totp(secret: string, t = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(t / 1000 / 30)));
  const h = createHmac('sha1', base32(secret)).update(counter).digest();
  const o = h[h.length - 1] & 0xf;
  return String((h.readUInt32BE(o) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
});

async function signIn(page: Page, email: string, password: string) {
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('TOTP enrolment and sign-in with a code computed from the key', async ({ page, request, consoleErrors }) => {
  const email = unique('totp');
  cli(['user', 'create', '--email', email, '--name', 'Two Step', '--password-stdin'], { input: 'two-step-password\n' });

  await page.goto('/profile');
  await signIn(page, email, 'two-step-password');
  await expect(page.getByRole('heading', { level: 2, name: email })).toBeVisible();

  // Another session, begun with the password alone (a script, another device).
  const other = await request.post('/api/auth/login', { data: { email, password: 'two-step-password' } });
  const otherToken = ((await other.json()) as { tokens: { accessToken: string } }).tokens.accessToken;
  const otherProfile = () => request.get('/api/auth/profile', { headers: { Authorization: `Bearer ${otherToken}` } });
  expect((await otherProfile()).status()).toBe(200);

  await page.goto('/profile?section=settings');
  const section = page.getByRole('region', { name: 'Two-factor sign-in' });
  await expect(section.getByText('Off: the password alone signs in')).toBeVisible();
  await section.getByRole('button', { name: 'Turn on' }).click();
  await expect(section.getByRole('img', { name: 'QR code for the authenticator app' })).toBeVisible();
  const secret = (await section.locator('.twofactor__secret').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);

  await section.getByLabel('Code from the app').fill('000000' === totp(secret) ? '111111' : '000000');
  await section.getByRole('button', { name: 'Confirm' }).click();
  await expect(section.getByRole('alert')).toHaveText('The code is wrong or was already used.');
  // Signing out the other sessions is offered, ticked.
  await expect(section.getByRole('checkbox', { name: 'Sign out my other sessions' })).toBeChecked();
  const confirmedAt = Date.now();
  await section.getByLabel('Code from the app').fill(totp(secret, confirmedAt));
  await section.getByRole('button', { name: 'Confirm' }).click();
  const codes = section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await expect(section.getByText('1 other session was signed out.')).toBeVisible();
  expect((await otherProfile()).status()).toBe(401);
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await expect(section.getByText('Recovery codes left: 10')).toBeVisible();
  expect(cliJson<{ totp: boolean; recoveryCodesLeft: number }>(['user', '2fa', 'status', email])).toEqual({ totp: true, recoveryCodesLeft: 10 });

  // Sign out, then in: the password alone no longer signs in.
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Log out' }).first().click();
  await signIn(page, email, 'two-step-password');
  const step = page.getByRole('form', { name: 'Two-step sign-in' });
  await expect(step).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  // The code that confirmed the enrolment was spent; the next step's code is new.
  await step.getByLabel('Code').fill(totp(secret, confirmedAt + 30_000));
  await step.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { level: 2, name: email })).toBeVisible();

  const events = cli(['audit', 'list', '--json', '--limit', '20'])
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; target: string })
    .filter((e) => e.target === email)
    .map((e) => e.type);
  expect(events.slice(0, 3)).toEqual(['signin', 'sessions.revoked', '2fa.enabled']);
  // The one error logged is the browser's note of the deliberately wrong code's 400.
  expect(consoleErrors.filter((e) => !e.includes('400 (Bad Request) (http') || !e.includes('/api/auth/2fa/totp/confirm'))).toEqual([]);
});
