import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { certFile, dataDir, domain, httpPort, httpsPort, httpsURL, httpURL, keyFile } from './tls-env';

// devhub on the internet by itself (run by playwright.https.config.ts): its own https with the
// owner's certificate (server.tls files) and HTTP/2, plain HTTP redirected to https, the camera
// page a secure context on a name that is not localhost, and the first run's one-time link
// creating the owner's account in the browser.

const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const devhubBin = resolve(repoDir, 'site', process.env.DEVHUB_BIN ?? '../bin/devhub');

let server: ChildProcess;
let setupURL = '';

test.beforeAll(async () => {
  server = spawn(devhubBin, ['serve'], {
    env: {
      ...process.env,
      DEVHUB_SERVER_TLS: 'files',
      DEVHUB_SERVER_DOMAINS: domain,
      DEVHUB_SERVER_ADDR: `127.0.0.1:${httpsPort}`,
      DEVHUB_SERVER_HTTP_ADDR: `127.0.0.1:${httpPort}`,
      DEVHUB_SERVER_TLS_FILES_CERT: certFile,
      DEVHUB_SERVER_TLS_FILES_KEY: keyFile,
      DEVHUB_STORAGE_DATA_DIR: dataDir,
      DEVHUB_STORAGE_UPLOADS_DIR: join(dataDir, 'uploads'),
      DEVHUB_STORAGE_ROMS_DIR: join(repoDir, 'roms'),
      DEVHUB_STORAGE_CONTENT_DIR: join(repoDir, 'content'),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // The store is fresh, so serve prints the first-run link once it listens.
  setupURL = await new Promise<string>((res, rej) => {
    let log = '';
    const timer = setTimeout(() => rej(new Error(`no first-run link in the server's log:\n${log}`)), 30_000);
    server.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const m = /url="?(https:\/\/[^"\s]+\/setup\?token=[^"\s]+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        res(m[1]);
      }
    });
    server.on('exit', (code) => rej(new Error(`devhub serve exited (${code}):\n${log}`)));
  });
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((res) => server.once('exit', res));
    server.kill('SIGTERM');
    await exited;
  }
});

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
});

test('the first-run link creates the owner account over https, once', async ({ page }) => {
  expect(setupURL.startsWith(`${httpsURL}/setup?token=`)).toBe(true);
  await page.goto(setupURL);
  await expect(page.getByRole('heading', { level: 1, name: "Create the owner's account" })).toBeVisible();
  await page.getByLabel('Name').fill('Owner');
  await page.getByLabel('E-mail').fill('owner@devhub.test');
  await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
  await page.getByLabel('Repeat the password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Create the account' }).click();
  await expect(page.getByText("The owner's account is ready, and you are signed in.")).toBeVisible();
  await page.getByRole('link', { name: 'Open your profile' }).click();
  await expect(page.getByText('owner@devhub.test').first()).toBeVisible();

  // The link is spent.
  await page.goto(setupURL);
  await expect(page.getByRole('alert')).toContainText('no longer valid');
  await expect(page.getByRole('form')).toHaveCount(0);
});

test('plain HTTP redirects to https, served over HTTP/2 with HSTS, and the camera works there', async ({ page }) => {
  const response = await page.goto(`${httpURL}/tools/camera?x=1`);
  expect(page.url()).toBe(`${httpsURL}/tools/camera?x=1`);
  expect(response?.headers()['strict-transport-security']).toContain('max-age=');
  expect(await page.evaluate(() => isSecureContext)).toBe(true);
  expect(
    await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).nextHopProtocol),
  ).toBe('h2');
  await page.getByRole('button', { name: 'Turn the camera on' }).click();
  const video = page.getByLabel('Camera picture');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 2 && v.videoWidth > 0)).toBe(true);
  await expect(page.getByText('The camera needs a secure connection')).toHaveCount(0);
});

test('readiness over https names its checks, the certificate among them', async ({ page }) => {
  await page.goto(`${httpsURL}/`);
  const ready = await page.evaluate(async () => {
    const res = await fetch('/readyz');
    return { status: res.status, body: await res.json() };
  });
  expect(ready.status).toBe(200);
  expect(ready.body.checks.map((c: { name: string; ok: boolean }) => `${c.name}:${c.ok}`)).toEqual([
    'store:true',
    'storage:true',
    'backup:true',
    'mail:true',
    'certificate:true',
  ]);
});
