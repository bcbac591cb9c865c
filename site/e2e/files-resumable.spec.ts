import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { Page, Route, TestInfo } from '@playwright/test';
import { cli, expect, test, signInNewAccount, uid } from './fixtures';

// Resumable uploads and the quota against the real binary: large files go through tus
// in 8 MiB PATCHes. To stop an upload at a known place, the browser's PATCH requests pass through
// a gate: the first ones go to the server, the next one is held back; the server's offset is then
// read with a HEAD, so nothing depends on timing.

const MiB = 1024 * 1024;

test.describe.configure({ timeout: 120_000 });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    // Init scripts run in every frame; a PDF preview's viewer frame has no localStorage.
    if (window.top === window && !localStorage.getItem('preferredLanguage')) localStorage.setItem('preferredLanguage', 'en');
  });
});

async function signIn(page: Page, admin = false): Promise<string> {
  return (await signInNewAccount(page, { prefix: 'tus', name: 'Tus user', admin })).email;
}

/** A file on disk (a stable modification time, as a user's file has) of random bytes. */
function bigFile(path: string, size: number): string {
  writeFileSync(path, randomBytes(size));
  return path;
}

/** Lets `pass` PATCH requests through to the server and holds the next ones back. */
async function gatePatches(page: Page, pass: number) {
  const gate = { passed: 0, held: [] as Route[] };
  await page.route('**/api/files/tus/**', async (route) => {
    if (route.request().method() !== 'PATCH') return route.continue();
    if (gate.passed < pass) {
      gate.passed++;
      return route.continue();
    }
    gate.held.push(route); // never answered: the page aborts it (pause) or goes away (reload)
  });
  return gate;
}

/** The unfinished upload this page's tus client remembers (its URL), read from localStorage. */
async function rememberedUploads(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Object.keys(localStorage)
      .filter((k) => k.startsWith('tus::'))
      .map((k) => (JSON.parse(localStorage.getItem(k)!) as { uploadUrl: string }).uploadUrl),
  );
}

/** A tus HEAD of an upload, signed in as the page's user. */
async function tusHead(page: Page, url: string) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  return page.request.head(url, { headers: { 'Tus-Resumable': '1.0.0', Authorization: `Bearer ${token}` } });
}

/** The server's offset of an upload (tus HEAD). */
async function serverOffset(page: Page, url: string): Promise<number> {
  const res = await tusHead(page, url);
  expect(res.status()).toBe(200);
  return Number(res.headers()['upload-offset']);
}

/** The stored files of that name (GET /api/files). */
async function storedSizes(page: Page, name: string): Promise<number[]> {
  return page.evaluate(async (n) => {
    const res = await fetch('/api/files', { headers: { Accept: 'application/json' } });
    const groups = (await res.json()) as Record<string, Array<{ originalName: string; size: number }>>;
    return Object.values(groups)
      .flat()
      .filter((f) => f.originalName === n)
      .map((f) => f.size);
  }, name);
}

/** Signs in, makes a file of random bytes named `<prefix>-<uid>.bin` and opens the file cloud. */
async function openWithBigFile(page: Page, info: TestInfo, prefix: string, size: number) {
  await signIn(page);
  const name = `${prefix}-${uid()}.bin`;
  const path = bigFile(info.outputPath(name), size);
  await page.goto('/filecloud');
  return { name, path };
}

/** Starts uploading `path` and waits until the PATCH after the first `pass` ones is held back. */
async function uploadUntilHeld(page: Page, path: string, pass: number) {
  const gate = await gatePatches(page, pass);
  await page.getByLabel('Choose files').setInputFiles(path);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect.poll(() => gate.held.length, { timeout: 60_000 }).toBe(1);
}

/** Pauses the held upload and lets the next requests through to the server again. */
async function pause(page: Page, name: string) {
  await page.getByRole('button', { name: `Pause ${name}` }).click();
  await page.unrouteAll({ behavior: 'ignoreErrors' });
}

/** Resumes the paused upload and waits until the page says it is stored. */
async function resumeToEnd(page: Page, name: string) {
  await page.getByRole('button', { name: `Resume ${name}` }).click();
  await expect(page.getByText('Files uploaded successfully!')).toBeVisible({ timeout: 60_000 });
}

const row = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('link', { name, exact: true }) });

test('a large upload paused and resumed completes with the right size', async ({ page, consoleErrors }, info) => {
  const { name, path } = await openWithBigFile(page, info, 'paused', 48 * MiB);
  await expect(page.getByTestId('quota-usage')).toHaveText('Storage: 0 B of 10.00 GB used, 0 of 10,000 files');

  await uploadUntilHeld(page, path, 1);
  const item = page.getByTestId('resumable-upload');
  await expect(item).toContainText(name);
  const [url] = await rememberedUploads(page);
  expect(url).toMatch(/\/api\/files\/tus\/[0-9a-f]{32}$/);
  expect(await serverOffset(page, url)).toBe(8 * MiB);

  await page.getByRole('button', { name: `Pause ${name}` }).click();
  await expect(item.getByTestId('resumable-status')).toHaveText(/^Paused at \d+%$/);
  // The uploader with a paused row (quota line, progress, Resume and Cancel) passes axe.
  const { default: AxeBuilder } = await import('@axe-core/playwright');
  const violations = (await new AxeBuilder({ page }).include('.files-uploader').analyze()).violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(violations).toEqual([]);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  // Paused: the server still has what it had.
  expect(await serverOffset(page, url)).toBe(8 * MiB);

  await resumeToEnd(page, name);
  await expect(page.getByText(`${name} (48.00 MB)`)).toBeVisible();
  await expect(row(page, name)).toContainText('48.00 MB');
  expect(await storedSizes(page, name)).toEqual([48 * MiB]);
  // Finished: the browser forgets it (removeFingerprintOnSuccess), and the quota counts it.
  expect(await rememberedUploads(page)).toEqual([]);
  await expect(page.getByTestId('quota-usage')).toHaveText('Storage: 48.00 MB of 10.00 GB used, 1 of 10,000 files');
  expect(consoleErrors).toEqual([]);
});

test('an upload interrupted by a page reload continues where it stopped', async ({ page }, info) => {
  const { name, path } = await openWithBigFile(page, info, 'reload', 64 * MiB);
  await uploadUntilHeld(page, path, 2);
  const [url] = await rememberedUploads(page);
  expect(await serverOffset(page, url)).toBe(16 * MiB);

  // The page goes away in the middle of the third PATCH.
  await page.reload();
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  expect(await rememberedUploads(page)).toEqual([url]);
  // Before any file is picked, the page lists what it can continue and how far it got.
  await expect(page.getByTestId('unfinished-uploads')).toHaveText(`${name}: 16.00 MB of 64.00 MB uploadedDiscard`);

  // The user picks the same file again: the page knows it and continues it.
  await page.getByLabel('Choose files').setInputFiles(path);
  await expect(page.getByTestId('upload-earlier')).toHaveText(
    `${name}: an earlier upload was interrupted — it will continue where it stopped`,
  );
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByTestId('upload-resumed')).toHaveText(
    'Continuing where it stopped: 16.00 MB of 64.00 MB were already uploaded',
  );
  await expect(page.getByText('Files uploaded successfully!')).toBeVisible({ timeout: 60_000 });
  await expect(row(page, name)).toContainText('64.00 MB');
  // One file, whole: the resumed upload, not a second copy.
  expect(await storedSizes(page, name)).toEqual([64 * MiB]);
  expect(await rememberedUploads(page)).toEqual([]);
  await page.getByRole('button', { name: 'Upload another' }).click();
  await expect(page.getByTestId('unfinished-uploads')).toHaveCount(0);
});

test('an access token that stopped working during a pause is refreshed and the upload goes on', async ({ page }, info) => {
  const { name, path } = await openWithBigFile(page, info, 'token', 24 * MiB);
  await uploadUntilHeld(page, path, 1);
  await pause(page, name);

  // The server no longer takes the stored token: the HEAD of the resume gets 401, the client
  // refreshes it with the cookie and asks again.
  const statuses: string[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/api/files/tus/') || r.url().endsWith('/api/auth/refresh')) statuses.push(`${r.request().method()} ${r.status()}`);
  });
  await page.evaluate(() => localStorage.setItem('token', 'expired.or.forged'));
  await resumeToEnd(page, name);
  expect(await storedSizes(page, name)).toEqual([24 * MiB]);
  expect(statuses.slice(0, 4)).toEqual(['HEAD 401', 'POST 200', 'HEAD 200', 'PATCH 204']);
  expect(await page.evaluate(() => localStorage.getItem('token'))).not.toBe('expired.or.forged');
});

test('a 502 while asking for the offset is retried; the upload is not started again from zero', async ({ page }, info) => {
  const { name, path } = await openWithBigFile(page, info, 'proxy', 24 * MiB);
  await uploadUntilHeld(page, path, 1);
  await pause(page, name);

  // A proxy in front of a restarting server answers the resume's first HEAD with 502.
  const seen: string[] = [];
  let failed = false;
  await page.route('**/api/files/tus/**', async (route) => {
    const method = route.request().method();
    if (method === 'HEAD' && !failed) {
      failed = true;
      seen.push('HEAD 502');
      return route.fulfill({ status: 502, body: '' });
    }
    seen.push(method);
    return route.continue();
  });
  await resumeToEnd(page, name);
  expect(seen).toEqual(['HEAD 502', 'HEAD', 'PATCH', 'PATCH']);
  expect(await storedSizes(page, name)).toEqual([24 * MiB]);
});

test('cancel deletes the unfinished upload on the server and keeps nothing', async ({ page }, info) => {
  const { name, path } = await openWithBigFile(page, info, 'cancel', 24 * MiB);
  await uploadUntilHeld(page, path, 1);
  const [url] = await rememberedUploads(page);
  expect(await serverOffset(page, url)).toBe(8 * MiB);

  const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url() === url);
  await page.getByRole('button', { name: `Cancel ${name}` }).click();
  expect((await deleted).status()).toBe(204);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await expect(page.getByTestId('resumable-upload')).toHaveCount(0);
  expect((await tusHead(page, url)).status()).toBe(404);
  expect(await rememberedUploads(page)).toEqual([]);
  expect(await storedSizes(page, name)).toEqual([]);
});

test('a dropped connection is retried by itself from the server\'s offset', async ({ page }, info) => {
  const { name, path } = await openWithBigFile(page, info, 'dropped', 24 * MiB);
  // The second PATCH loses its connection once; the client asks the server where it is (HEAD)
  // and goes on from there.
  const seen: string[] = [];
  let dropped = false;
  await page.route('**/api/files/tus/**', async (route) => {
    const method = route.request().method();
    seen.push(method);
    if (method === 'PATCH' && !dropped && seen.filter((m) => m === 'PATCH').length === 2) {
      dropped = true;
      return route.abort('connectionreset');
    }
    return route.continue();
  });
  await page.getByLabel('Choose files').setInputFiles(path);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('Files uploaded successfully!')).toBeVisible({ timeout: 60_000 });
  expect(await storedSizes(page, name)).toEqual([24 * MiB]);
  // POST, PATCH (0–8), PATCH dropped, HEAD, PATCH (8–16), PATCH (16–24).
  expect(seen).toEqual(['POST', 'PATCH', 'PATCH', 'HEAD', 'PATCH', 'PATCH']);
});

test('the quota shows on the profile and in the uploader, and an upload over it says why', async ({ page }, info) => {
  const email = await signIn(page);
  cli(['user', 'quota', email, '--bytes', '20MiB', '--files', '5']);

  await page.goto('/profile');
  await expect(page.getByTestId('quota-usage')).toHaveText('Storage: 0 B of 20.00 MB used, 0 of 5 files');
  await expect(page.getByRole('meter', { name: 'Storage used' })).toBeVisible();

  await page.goto('/filecloud');
  await page.getByLabel('Choose files').setInputFiles([
    { name: `small-${uid()}.txt`, mimeType: 'text/plain', buffer: Buffer.alloc(1024 * 1024, 'a') },
  ]);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('Files uploaded successfully!')).toBeVisible();
  await expect(page.getByTestId('quota-usage')).toHaveText('Storage: 1.00 MB of 20.00 MB used, 1 of 5 files');

  await page.getByRole('button', { name: 'Upload another' }).click();
  const name = `toolarge-${uid()}.bin`;
  await page.getByLabel('Choose files').setInputFiles(bigFile(info.outputPath(name), 24 * MiB));
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByTestId('upload-errors')).toHaveText(
    `${name}: Not enough storage left: 1.00 MB of 20.00 MB used, 1 of 5 files. Nothing was kept — delete some files or ask an administrator for a larger quota.`,
  );
  expect(await storedSizes(page, name)).toEqual([]);
  expect(await rememberedUploads(page)).toEqual([]);
});

test('an admin sees unlimited storage, and the usage follows an upload and a deletion', async ({ page }) => {
  await signIn(page, true);
  await page.goto('/filecloud');
  const usage = page.getByTestId('quota-usage');
  await expect(usage).toHaveText('Storage: 0 B used (unlimited), 0 files (unlimited)');
  await expect(page.getByRole('meter', { name: 'Storage used' })).toHaveCount(0);

  const name = `counted-${uid()}.txt`;
  await page.getByLabel('Choose files').setInputFiles([{ name, mimeType: 'text/plain', buffer: Buffer.alloc(MiB, 'b') }]);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('Files uploaded successfully!')).toBeVisible();
  await expect(usage).toHaveText('Storage: 1.00 MB used (unlimited), 1 file (unlimited)');

  await page.getByRole('tab', { name: /^Documents/ }).click();
  await row(page, name).getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText('File deleted successfully')).toBeVisible();
  await expect(usage).toHaveText('Storage: 0 B used (unlimited), 0 files (unlimited)');
});
