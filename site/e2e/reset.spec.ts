import { spawn, type ChildProcess, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { devhubBin, devhubEnv } from './env';

// "Forgot password" end to end: a devhub of this spec's own with mail on, sending to a tiny SMTP
// sink in this process; the browser asks for a link, opens it from the captured mail, sets a new
// password, and the session another browser held ends.

interface Mail {
  to: string[];
  data: string;
}

/** A minimal SMTP server that takes every message and keeps it. */
function smtpSink(): Promise<{ server: Server; port: number; mails: Mail[] }> {
  const mails: Mail[] = [];
  const server = createServer((sock: Socket) => {
    let buf = '';
    let inData = false;
    let to: string[] = [];
    const reply = (line: string) => sock.write(`${line}\r\n`);
    reply('220 sink ESMTP');
    sock.on('data', (chunk) => {
      buf += chunk.toString('latin1');
      for (;;) {
        if (inData) {
          const end = buf.indexOf('\r\n.\r\n');
          if (end < 0) return;
          mails.push({ to, data: Buffer.from(buf.slice(0, end), 'latin1').toString('utf8') });
          buf = buf.slice(end + 5);
          inData = false;
          to = [];
          reply('250 queued');
          continue;
        }
        const nl = buf.indexOf('\r\n');
        if (nl < 0) return;
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 2);
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO' || cmd === 'HELO') reply('250 sink');
        else if (cmd === 'RCPT') {
          to.push(line.replace(/^.*<(.*)>.*$/, '$1'));
          reply('250 ok');
        } else if (cmd === 'DATA') {
          inData = true;
          reply('354 go on');
        } else if (cmd === 'QUIT') {
          reply('221 bye');
          sock.end();
        } else reply('250 ok');
      }
    });
    sock.on('error', () => {});
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ server, port: (server.address() as { port: number }).port, mails })));
}

/** A free loopback port. */
function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

/** The text of a mail with quoted-printable undone. */
function decoded(raw: string): string {
  return raw.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

let sink: Awaited<ReturnType<typeof smtpSink>>;
let server: ChildProcess;
let base: string;
let env: Record<string, string>;
let dataDir: string;

test.beforeAll(async () => {
  sink = await smtpSink();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  dataDir = mkdtempSync(join(tmpdir(), 'devhub-e2e-reset-'));
  env = {
    ...(process.env as Record<string, string>),
    ...devhubEnv,
    DEVHUB_SERVER_ADDR: `127.0.0.1:${port}`,
    DEVHUB_SERVER_PUBLIC_URL: base,
    DEVHUB_STORAGE_DATA_DIR: dataDir,
    DEVHUB_STORAGE_UPLOADS_DIR: join(dataDir, 'uploads'),
    DEVHUB_MAIL_HOST: '127.0.0.1',
    DEVHUB_MAIL_PORT: String(sink.port),
    DEVHUB_MAIL_SECURITY: 'none',
    DEVHUB_MAIL_FROM: 'devhub <noreply@devhub.test>',
  };
  server = spawn(resolve(devhubBin), ['serve'], { env, stdio: 'ignore' });
  await expect
    .poll(async () => fetch(`${base}/healthz`).then((r) => r.status).catch(() => 0), { timeout: 30_000 })
    .toBe(200);
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await new Promise((done) => (server?.exitCode !== null ? done(null) : server.once('exit', done)));
  sink?.server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('a password is reset from the link in the mail; the old session ends and the link is spent', async ({ browser }) => {
  // Two browsers, a server of its own and a mail on a shared two-core machine.
  test.setTimeout(120_000);
  const email = `reset-${Date.now()}@example.com`;
  execFileSync(devhubBin, ['user', 'create', '--email', email, '--name', 'Reset', '--password-stdin'], {
    env,
    input: 'old-password-long\n',
  });

  // A browser that is signed in with the old password.
  const other = await browser.newContext({ baseURL: base, locale: 'en-US' });
  const otherPage = await other.newPage();
  await otherPage.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
  await otherPage.goto('/profile');
  const signIn = otherPage.getByRole('form', { name: 'Sign in' });
  await signIn.getByLabel('E-mail').fill(email);
  await signIn.getByLabel('Password', { exact: true }).fill('old-password-long');
  await signIn.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(otherPage.getByRole('heading', { level: 2, name: email })).toBeVisible();

  // The visitor who forgot it, on a phone.
  const ctx = await browser.newContext({ baseURL: base, locale: 'en-US', viewport: { width: 375, height: 740 } });
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

  await expect.poll(() => sink.mails.filter((m) => m.to.includes(email)).length, { timeout: 20_000 }).toBe(1);
  const mail = decoded(sink.mails.find((m) => m.to.includes(email))!.data);
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
