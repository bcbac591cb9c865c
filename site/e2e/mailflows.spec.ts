import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { devhubBin } from './env';
import { decoded, type MailDevhub, startMailDevhub } from './mailSink';

// The e-mail flows end to end on a devhub of this spec's own with mail on and
// auth.verify_email required, sending to an SMTP sink in this process: a registration signs in
// only after the link mailed to it was opened, and a change of e-mail applies only when the link
// sent to the new address is opened.

let dh: MailDevhub;
test.beforeAll(async () => {
  dh = await startMailDevhub('mailflows', { DEVHUB_AUTH_VERIFY_EMAIL: 'required' });
});
test.afterAll(() => dh?.stop());

/** The link of the only mail to `to` whose text matches `about`. */
async function mailedLink(to: string, about: RegExp): Promise<string> {
  const find = () => dh.sink.mails.map((m) => ({ ...m, text: decoded(m.data) })).filter((m) => m.to.includes(to) && about.test(m.text));
  await expect.poll(() => find().length, { timeout: 20_000 }).toBe(1);
  const link = /http:\/\/127\.0\.0\.1:\d+\/verify-email\?token=[0-9a-f]+/.exec(find()[0].text)?.[0];
  expect(link).toBeTruthy();
  return link!;
}

async function signIn(page: Page, email: string, password: string) {
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('a registration signs in only after the link mailed to it was opened, once', async ({ browser }) => {
  test.setTimeout(120_000);
  const email = `verify-${Date.now()}@example.com`;
  const ctx = await browser.newContext({ baseURL: dh.base, locale: 'en-US' });
  const page = await ctx.newPage();
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
  await page.goto('/profile');
  await page.getByRole('button', { name: 'No account yet? Register' }).click();
  const form = page.getByRole('form', { name: 'Register' });
  await form.getByLabel('Name').fill('Verify');
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('Password', { exact: true }).fill('verify-password-long');
  await form.getByLabel('Confirm password').fill('verify-password-long');
  await form.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText(`We sent a link to ${email}`)).toBeVisible();

  // Not before the link: the sign-in says why and offers a new link.
  await page.getByRole('button', { name: 'Already have an account? Sign in' }).click();
  await signIn(page, email, 'verify-password-long');
  await expect(page.getByRole('form', { name: 'Sign in' }).getByRole('alert')).toHaveText(/not confirmed yet/);
  await expect(page.getByRole('button', { name: 'Send the link again' })).toBeVisible();

  const link = await mailedLink(email, /Confirm my address/);
  await page.goto(link);
  await expect(page.getByText(`Your address ${email} is confirmed.`)).toBeVisible();
  await page.getByRole('link', { name: 'To your profile' }).click();
  await signIn(page, email, 'verify-password-long');
  await expect(page.getByRole('heading', { level: 2, name: email })).toBeVisible();

  // The link works once.
  await page.goto(link);
  await expect(page.getByRole('alert')).toHaveText(/invalid, used or expired/);
  await ctx.close();
});

test('a change of e-mail applies when the link sent to the new address is opened', async ({ browser }) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  const oldEmail = `change-${stamp}@example.com`;
  const newEmail = `changed-${stamp}@example.com`;
  execFileSync(devhubBin, ['user', 'create', '--email', oldEmail, '--name', 'Change', '--password-stdin'], {
    env: dh.env,
    input: 'change-password-long\n',
  });
  const ctx = await browser.newContext({ baseURL: dh.base, locale: 'en-US' });
  const page = await ctx.newPage();
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
  await page.goto('/profile');
  // An account the owner made counts as verified: it signs in under "required".
  await signIn(page, oldEmail, 'change-password-long');
  await expect(page.getByRole('heading', { level: 2, name: oldEmail })).toBeVisible();

  await page.goto('/profile?section=settings');
  const form = page.getByRole('form', { name: 'E-mail' });
  await form.getByLabel('New e-mail').fill(newEmail);
  await form.getByLabel('Current password').fill('change-password-long');
  await form.getByRole('button', { name: 'Change e-mail' }).click();
  await expect(form.getByRole('status')).toHaveText(`We sent a link to ${newEmail}; the e-mail changes once it is opened.`);
  await expect(form.getByText(`Now: ${oldEmail}`)).toBeVisible();

  const link = await mailedLink(newEmail, /Confirm the new address/);
  await page.goto(link);
  await expect(page.getByText(`Your account's e-mail is now ${newEmail}.`)).toBeVisible();
  // The old address is told.
  await expect
    .poll(() => dh.sink.mails.filter((m) => m.to.includes(oldEmail) && decoded(m.data).includes(newEmail)).length, { timeout: 20_000 })
    .toBe(1);

  await page.goto('/profile?section=settings');
  await expect(page.getByRole('form', { name: 'E-mail' }).getByText(`Now: ${newEmail}`)).toBeVisible();
  await ctx.close();
});
