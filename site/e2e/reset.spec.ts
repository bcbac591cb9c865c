import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { devhubBin } from './env';
import { decoded, type MailDevhub, startMailDevhub } from './mailSink';

// "Forgot password" end to end: a devhub of this spec's own with mail on, sending to a tiny SMTP
// sink in this process; the browser asks for a link, opens it from the captured mail, sets a new
// password, and the session another browser held ends.

let dh: MailDevhub;
test.beforeAll(async () => {
  dh = await startMailDevhub('reset');
});
test.afterAll(() => dh?.stop());

test('a password is reset from the link in the mail; the old session ends and the link is spent', async ({ browser }) => {
  // Two browsers, a server of its own and a mail on a shared two-core machine.
  test.setTimeout(120_000);
  const email = `reset-${Date.now()}@example.com`;
  execFileSync(devhubBin, ['user', 'create', '--email', email, '--name', 'Reset', '--password-stdin'], {
    env: dh.env,
    input: 'old-password-long\n',
  });

  // A browser that is signed in with the old password.
  const other = await browser.newContext({ baseURL: dh.base, locale: 'en-US' });
  const otherPage = await other.newPage();
  await otherPage.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
  await otherPage.goto('/profile');
  const signIn = otherPage.getByRole('form', { name: 'Sign in' });
  await signIn.getByLabel('E-mail').fill(email);
  await signIn.getByLabel('Password', { exact: true }).fill('old-password-long');
  await signIn.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(otherPage.getByRole('heading', { level: 2, name: email })).toBeVisible();

  // The visitor who forgot it, on a phone.
  const ctx = await browser.newContext({ baseURL: dh.base, locale: 'en-US', viewport: { width: 375, height: 740 } });
  const page = await ctx.newPage();
  const noSidewaysScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
  await page.goto('/profile');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  const form = page.getByRole('form', { name: 'Forgot your password' });
  await form.getByLabel('E-mail').fill(email);
  expect(await noSidewaysScroll()).toBe(true);
  await form.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByText(/a link to set a new password is on its way/)).toBeVisible();

  await expect.poll(() => dh.sink.mails.filter((m) => m.to.includes(email)).length, { timeout: 20_000 }).toBe(1);
  const mail = decoded(dh.sink.mails.find((m) => m.to.includes(email))!.data);
  expect(mail).toMatch(/Subject: Reset your password on 127\.0\.0\.1/);
  const link = /http:\/\/127\.0\.0\.1:\d+\/reset-password\?token=[0-9a-f]+/.exec(mail)?.[0];
  expect(link).toBeTruthy();

  await page.goto(link!);
  const reset = page.getByRole('form', { name: 'Set a new password' });
  await expect(reset).toBeVisible();
  expect(await noSidewaysScroll()).toBe(true);
  await reset.getByLabel('New password', { exact: true }).fill('new-password-long');
  await reset.getByLabel('Repeat the new password').fill('new-password-long');
  await reset.getByRole('button', { name: 'Save the password' }).click();
  await expect(page.getByText(/Your password is changed/)).toBeVisible();

  // The session of the other browser ended: its next request finds itself signed out.
  await otherPage.reload();
  await expect(otherPage.getByRole('form', { name: 'Sign in' })).toBeVisible();

  // The new password signs in; the link does not work twice.
  await page.getByRole('link', { name: 'Sign in' }).click();
  const again = page.getByRole('form', { name: 'Sign in' });
  await again.getByLabel('E-mail').fill(email);
  await again.getByLabel('Password', { exact: true }).fill('new-password-long');
  await again.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: email })).toBeVisible();

  const spent = await ctx.newPage();
  await spent.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
  await spent.goto(link!);
  const form2 = spent.getByRole('form', { name: 'Set a new password' });
  await form2.getByLabel('New password', { exact: true }).fill('third-password-long');
  await form2.getByLabel('Repeat the new password').fill('third-password-long');
  await form2.getByRole('button', { name: 'Save the password' }).click();
  await expect(form2.getByRole('alert')).toHaveText(/invalid, used or expired/);
  await expect(spent.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();

  await other.close();
  await ctx.close();
});
