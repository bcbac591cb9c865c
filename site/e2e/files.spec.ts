import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { cliJson, expect, test, signInNewAccount, uid } from './fixtures';

// File cloud end to end: the real binary, users seeded through the CLI (owner socket),
// uploads through the browser. The cloud page runs in English, the language in which the spec
// states its texts; the detail page is also checked in Ukrainian (its units and errors).


test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    // Init scripts run in every frame; a PDF preview's viewer frame has no localStorage.
    if (window.top === window && !localStorage.getItem('preferredLanguage')) localStorage.setItem('preferredLanguage', 'en');
  });
});

/** Creates an account with the CLI and signs the page in as it through the API. */
async function signIn(page: Page, role: 'user' | 'admin') {
  await signInNewAccount(page, { prefix: `files-${role}`, name: `Files ${role}`, admin: role === 'admin' });
}

// A real 2×2 PNG (so the preview can draw it), a WAV and a PDF, each with a unique name.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGP4z8DA8B+MgBgAHfAD/dPQfSYAAAAASUVORK5CYII=',
  'base64',
);

function wav(seconds = 1, rate = 8000): Buffer {
  const data = rate * seconds;
  const b = Buffer.alloc(44 + data);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + data, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20); // PCM
  b.writeUInt16LE(1, 22); // mono
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate, 28);
  b.writeUInt16LE(1, 32);
  b.writeUInt16LE(8, 34);
  b.write('data', 36);
  b.writeUInt32LE(data, 40);
  b.fill(128, 44);
  return b;
}

function pdf(padding: number): Buffer {
  // A valid one-page PDF, padded with a comment to a size that shows decimal units.
  const body =
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n';
  return Buffer.concat([Buffer.from(body), Buffer.from(`%${'x'.repeat(padding)}\n%%EOF\n`)]);
}

const row = (page: Page, name: string) => page.getByRole('listitem').filter({ has: page.getByRole('link', { name, exact: true }) });

test('a user uploads three files with progress, finds them by type, previews, downloads, opens the detail page', async ({
  page,
  consoleErrors,
}) => {
  // Three uploads, previews and a download: about 20 s alone, more beside other work.
  test.setTimeout(90_000);
  await signIn(page, 'user');
  const tag = uid();
  const files = {
    image: { name: `photo-${tag}.png`, mimeType: 'image/png', buffer: PNG },
    audio: { name: `tone-${tag}.wav`, mimeType: 'audio/wav', buffer: wav() },
    doc: { name: `paper-${tag}.pdf`, mimeType: 'application/pdf', buffer: pdf(1_499_000) },
  };

  // Hold the server's answer until the progress has been seen.
  let release: () => void = () => undefined;
  const released = new Promise<void>((r) => (release = r));
  await page.route('**/api/files/upload', async (route) => {
    await released;
    await route.continue();
  });

  await page.goto('/filecloud');
  await expect(page.getByRole('heading', { level: 1, name: 'File cloud' })).toBeVisible();
  await page.getByLabel('Choose files').setInputFiles([files.doc, files.image, files.audio]);
  // Only the first file's name and size are shown, in binary units.
  await expect(page.getByTestId('upload-selection')).toHaveText(`Selected: ${files.doc.name} (1.43 MB) and 2 more files`);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('Uploading…')).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
  await expect(page.getByTestId('upload-progress')).toHaveText(/^\d{1,3}% · \d+(\.\d\d)? (B|KB|MB|GB)\/s$/);
  release();

  await expect(page.getByText('Files uploaded successfully!')).toBeVisible();
  await expect(page.getByText('Uploaded', { exact: true })).toBeVisible();
  await expect(page.getByText(`${files.doc.name} (1.43 MB) and 2 more files`)).toBeVisible();
  // A plain user may delete only their own files: theirs carry the button.
  await expect(row(page, files.doc.name).getByRole('button', { name: 'Delete', exact: true })).toBeVisible();

  // Each file is in its tab, with its size in MB.
  const tab = (name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) });
  await tab('Documents').click();
  await expect(row(page, files.doc.name)).toContainText('1.43 MB');
  await tab('Images').click();
  // A file under 0.01 MB reads in KB, never "0.00 MB".
  await expect(row(page, files.image.name)).toContainText(`${(PNG.length / 1024).toFixed(2)} KB`);
  await expect(row(page, files.audio.name)).toHaveCount(0);
  await tab('Audio').click();
  await expect(row(page, files.audio.name)).toContainText(`${(files.audio.buffer.length / 1024).toFixed(2)} KB`);
  await tab('Videos').click();
  await expect(page.getByRole('tabpanel').getByRole('link', { name: new RegExp(tag) })).toHaveCount(0);

  // Copy link: the file's page address, a 2 s tooltip and a toast.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await tab('Images').click();
  const imageRow = row(page, files.image.name);
  await imageRow.getByRole('button', { name: /Copy link/ }).click();
  await expect(imageRow.getByRole('tooltip')).toHaveText('Copied!');
  await expect(page.getByText('Link copied to clipboard')).toBeVisible();
  const href = await imageRow.getByRole('link', { name: files.image.name }).getAttribute('href');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(new URL(href!, page.url()).href);
  await expect(imageRow.getByRole('tooltip')).toHaveCount(0);

  // The image preview opens from an object URL, draws, and closes.
  await row(page, files.image.name).getByRole('button', { name: 'Preview', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Preview: ${files.image.name}` });
  const img = dialog.getByRole('img', { name: files.image.name });
  await expect(img).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(2);
  // Closing revokes the object URL: a fresh image can load it before, and not after.
  const objectUrl = (await img.getAttribute('src'))!;
  const loads = (u: string) =>
    page.evaluate(
      (src) =>
        new Promise<boolean>((resolve) => {
          const probe = new Image();
          probe.onload = () => resolve(true);
          probe.onerror = () => resolve(false);
          probe.src = src;
        }),
      u,
    );
  expect(await loads(objectUrl)).toBe(true);
  await dialog.getByRole('button', { name: 'Close preview' }).click();
  await expect(dialog).toHaveCount(0);
  expect(await loads(objectUrl)).toBe(false);

  // A download completes with the original name and the same bytes; its status then clears.
  await tab('Documents').click();
  const docRow = row(page, files.doc.name);
  const downloadEvent = page.waitForEvent('download');
  await docRow.getByRole('button', { name: 'Download', exact: true }).click();
  const download = await downloadEvent;
  expect(download.suggestedFilename()).toBe(files.doc.name);
  expect(readFileSync(await download.path()).equals(files.doc.buffer)).toBe(true);
  await expect(docRow.getByRole('status')).toHaveText('Completed');
  await expect(page.getByText('File downloaded successfully')).toBeVisible();
  await expect(docRow.getByRole('status')).toHaveCount(0);

  // The detail page: decimal units (1e3, 1e6, 1e9).
  await docRow.getByRole('link', { name: files.doc.name }).click();
  await expect(page).toHaveURL(/\/filecloud\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: files.doc.name })).toBeVisible();
  const size = files.doc.buffer.length;
  await expect(page.getByTestId('file-size')).toHaveText(`${(size / 1e6).toFixed(2)} MB (${size.toLocaleString('en')} bytes)`);
  await expect(page.getByText('application/pdf')).toBeVisible();
  await page.evaluate(() => localStorage.setItem('preferredLanguage', 'uk'));
  await page.reload();
  await expect(page.getByTestId('file-size')).toHaveText(new RegExp(`^${(size / 1e6).toFixed(2).replace('.', ',')} МБ \\(.+ байт\\)$`));
  await page.getByRole('link', { name: 'Назад до файлової хмари' }).click();
  await expect(page).toHaveURL(/\/filecloud$/);

  // An unknown id shows the spec's text.
  await page.goto('/filecloud/987654321');
  await expect(page.getByRole('alert')).toHaveText('Файл не знайдено');

  // The CLI sees the same files, with the hash of the bytes sent.
  const listed = cliJson<Array<{ originalName: string; sha256: string; type: string }>>(['file', 'list']);
  const mine = listed.filter((f) => f.originalName.includes(tag));
  expect(mine.map((f) => f.type).sort()).toEqual(['audio', 'document', 'image']);
  // The only errors the browser logs are the 404 of the unknown id, which the page expected, and
  // the probe of the revoked object URL.
  expect(consoleErrors.filter((e) => !e.includes('/api/files/987654321') && !e.includes(objectUrl))).toEqual([]);
});

test('an admin deletes a file after confirming; cancelling keeps it', async ({ page, consoleErrors }) => {
  const name = `to-delete-${uid()}.txt`;
  const dir = test.info().outputPath();
  const { mkdirSync, writeFileSync } = await import('node:fs');
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/${name}`, 'delete me\n');
  const [added] = cliJson<Array<{ id: number }>>(['file', 'add', `${dir}/${name}`]);

  await signIn(page, 'admin');
  await page.goto('/filecloud');
  await page.getByRole('tab', { name: /^Documents/ }).click();
  const target = row(page, name);
  await target.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete file?' });
  await expect(confirm).toContainText(name);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(target).toHaveCount(1);

  await target.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText('File deleted successfully')).toBeVisible();
  await expect(target).toHaveCount(0);
  expect(cliJson<Array<{ id: number }>>(['file', 'list']).some((f) => f.id === added.id)).toBe(false);
  expect(consoleErrors).toEqual([]);
});

test('a guest browses and downloads but gets a sign-in prompt instead of the uploader', async ({ page, request, consoleErrors }) => {
  const name = `guest-${uid()}.png`;
  const dir = test.info().outputPath();
  const { mkdirSync, writeFileSync } = await import('node:fs');
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/${name}`, PNG);
  const [added] = cliJson<Array<{ id: number }>>(['file', 'add', `${dir}/${name}`]);

  await page.goto('/filecloud');
  await expect(page.getByText('Sign in to upload files.', { exact: false })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/profile');
  await expect(page.getByLabel('Choose files')).toHaveCount(0);
  await expect(row(page, name)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);

  // The server agrees: no upload and no delete without rights; files are served safely.
  const upload = await request.post('/api/files/upload', { multipart: { files: { name: 'x.txt', mimeType: 'text/plain', buffer: Buffer.from('x') } } });
  expect(upload.status()).toBe(401);
  expect((await request.delete(`/api/files/${added.id}`)).status()).toBe(401);
  const stream = await request.get(`/api/files/stream/${added.id}`, { headers: { Range: 'bytes=0-' } });
  expect(stream.status()).toBe(206);
  expect(stream.headers()['content-disposition']).toMatch(/^inline;/);
  expect(stream.headers()['x-content-type-options']).toBe('nosniff');
  expect(stream.headers()['content-security-policy']).toBe("default-src 'none'; media-src 'self'; style-src 'unsafe-inline'; sandbox");
  expect(consoleErrors).toEqual([]);
});

test('a video previews from the stream URL, which answers the player’s range requests', async ({ page, consoleErrors }) => {
  await signIn(page, 'user');
  await page.goto('/filecloud');
  // A short WebM recorded in the page itself (no binary fixture, no outside tool).
  const webm = Buffer.from(
    await page.evaluate(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = 160;
      canvas.height = 120;
      const ctx = canvas.getContext('2d')!;
      const rec = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm' });
      const parts: Blob[] = [];
      rec.ondataavailable = (e) => parts.push(e.data);
      const stopped = new Promise((r) => (rec.onstop = r));
      rec.start();
      const t0 = performance.now();
      await new Promise<void>((done) => {
        const frame = () => {
          const t = performance.now() - t0;
          ctx.fillStyle = `hsl(${Math.round(t / 4)}, 80%, 50%)`;
          ctx.fillRect(0, 0, 160, 120);
          if (t < 1000) requestAnimationFrame(frame);
          else done();
        };
        frame();
      });
      rec.stop();
      await stopped;
      const bytes = new Uint8Array(await new Blob(parts).arrayBuffer());
      let bin = '';
      for (const b of bytes) bin += String.fromCharCode(b);
      return btoa(bin);
    }),
    'base64',
  );
  const name = `clip-${uid()}.webm`;
  await page.getByLabel('Choose files').setInputFiles({ name, mimeType: 'video/webm', buffer: webm });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('Files uploaded successfully!')).toBeVisible();
  // The page switches to the tab of what was uploaded.
  await expect(page.getByRole('tab', { name: /^Videos/ })).toHaveAttribute('aria-selected', 'true');

  const ranged: number[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/api/files/stream/') && r.request().headers()['range']) ranged.push(r.status());
  });
  await row(page, name).getByRole('button', { name: 'Preview', exact: true }).click();
  const video = page.getByRole('dialog', { name: `Preview: ${name}` }).locator('video');
  await expect(video).toHaveAttribute('src', /^\/api\/files\/stream\/\d+$/);
  // The player loads the video's metadata from the stream route with Range requests (206).
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 1 && v.videoWidth)).toBe(160);
  expect(ranged.length).toBeGreaterThan(0);
  expect(ranged.every((s) => s === 206)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test('a user renames and deletes their own file; another user can do neither', async ({ page, browser, consoleErrors }) => {
  test.slow(); // two accounts in two browser contexts
  const name = `mine-${uid()}.txt`;
  const renamed = `renamed-${uid()}.txt`;
  await signIn(page, 'user');
  await page.goto('/filecloud');
  await page.getByLabel('Choose files').setInputFiles([{ name, mimeType: 'text/plain', buffer: Buffer.from('mine\n') }]);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('Files uploaded successfully!')).toBeVisible();
  await page.getByRole('tab', { name: /^Documents/ }).click();
  await row(page, name).getByRole('link', { name }).click();

  // The file's page: rename it.
  const field = page.getByRole('textbox', { name: 'File name' });
  await expect(field).toHaveValue(name);
  await field.fill(renamed);
  await page.getByRole('button', { name: 'Rename', exact: true }).click();
  await expect(page.getByText('Renamed', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: renamed })).toBeVisible();
  const fileUrl = page.url();

  // Someone else sees it but may neither rename nor delete it.
  const other = await browser.newContext({ baseURL: new URL(fileUrl).origin });
  const otherPage = await other.newPage();
  await otherPage.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
  await signInNewAccount(otherPage, { prefix: 'files-other', name: 'Files other' });
  await otherPage.goto('/filecloud');
  await otherPage.getByRole('tab', { name: /^Documents/ }).click();
  await expect(row(otherPage, renamed)).toBeVisible();
  await expect(row(otherPage, renamed).getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
  await otherPage.goto(fileUrl);
  await expect(otherPage.getByRole('heading', { name: renamed })).toBeVisible();
  await expect(otherPage.getByRole('textbox', { name: 'File name' })).toHaveCount(0);
  await other.close();

  // Only my files, then delete it.
  await page.goto('/filecloud');
  await page.getByRole('checkbox', { name: 'Only my files' }).check();
  await page.getByRole('tab', { name: /^Documents/ }).click();
  await expect(page.getByRole('tabpanel').getByRole('link')).toHaveCount(1);
  await row(page, renamed).getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText('File deleted successfully')).toBeVisible();
  await expect(row(page, renamed)).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test('a file uploaded as private is private from the start: listed for its uploader, absent for a guest', async ({
  page,
  request,
  consoleErrors,
}) => {
  await signIn(page, 'user');
  const name = `private-${uid()}.txt`;
  await page.goto('/filecloud');
  const choice = page.getByRole('group', { name: 'Who can see the uploaded files' });
  await expect(choice.getByRole('radio', { name: 'Public — everyone' })).toBeChecked();
  await choice.getByRole('radio', { name: 'Private — only me and administrators' }).check();
  await page.getByLabel('Choose files').setInputFiles([{ name, mimeType: 'text/plain', buffer: Buffer.from('only mine\n') }]);
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/files/upload') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const uploaded = (await (await answer).json()) as { files: Array<{ id: number; visibility: string }> };
  expect(uploaded.files.map((f) => f.visibility)).toEqual(['private']);
  await expect(page.getByText('Files uploaded successfully!')).toBeVisible();

  await page.getByRole('tab', { name: /^Documents/ }).click();
  await expect(row(page, name)).toContainText('Private');

  // A guest never sees it: not in the list, and its detail is 404.
  const list = await request.get('/api/files?type=documents&limit=100');
  expect(JSON.stringify(await list.json())).not.toContain(name);
  expect((await request.get(`/api/files/${uploaded.files[0].id}`)).status()).toBe(404);
  expect(consoleErrors).toEqual([]);
});
