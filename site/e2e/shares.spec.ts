import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { baseURL, cliJson, expect, test, signInNewAccount, uid } from './fixtures';

// Private files and share links end to end: the real binary, accounts seeded through
// the CLI, the link made on the file's page and opened in a fresh browser context.


// A real 2×2 PNG, so the share page's preview can draw it.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGP4z8DA8B+MgBgAHfAD/dPQfSYAAAAASUVORK5CYII=',
  'base64',
);

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    // Init scripts run in every frame; a PDF preview's viewer frame has no localStorage.
    if (window.top === window && !localStorage.getItem('preferredLanguage')) localStorage.setItem('preferredLanguage', 'en');
  });
});

/** Creates an account with the CLI, signs the page in and returns its access token. */
async function signIn(page: Page): Promise<string> {
  return (await signInNewAccount(page, { prefix: 'shares', name: 'Sharer' })).token;
}

/** Uploads one PNG as the signed-in page and returns its id. */
async function uploadPNG(page: Page, token: string, name: string): Promise<number> {
  return page.evaluate(
    async ([t, n, b64]) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const form = new FormData();
      form.append('files', new Blob([bytes], { type: 'image/png' }), n);
      const res = await fetch('/api/files/upload', { method: 'POST', headers: { Authorization: `Bearer ${t}` }, body: form });
      if (res.status !== 201) throw new Error(`upload: ${res.status}`);
      return ((await res.json()) as { files: { id: number }[] }).files[0].id;
    },
    [token, name, PNG.toString('base64')] as const,
  );
}

test('a private file shared with a password: the link opened in a fresh browser downloads it', async ({ page, browser }) => {
  const token = await signIn(page);
  const name = `secret-${uid()}.png`;
  const id = await uploadPNG(page, token, name);

  // The file page: inline preview, then private, then a link with a password.
  await page.goto(`/filecloud/${id}`);
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await expect(page.getByRole('img', { name })).toBeVisible();
  await page.getByLabel('Private — only me and administrators').click();
  await expect(page.getByText('Saved')).toBeVisible();
  await expect(page.getByLabel('Private — only me and administrators')).toBeChecked();
  await page.getByLabel('Password (optional)').fill('open sesame');
  await page.getByRole('button', { name: 'Create link' }).click();
  const url = (await page.locator('.share-list__url code').first().textContent()) ?? '';
  expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{22,}$/);
  // The private image still previews for its uploader (fetched with the account's token).
  await expect(page.getByRole('img', { name })).toBeVisible();

  const guest = await browser.newContext({ acceptDownloads: true, baseURL });
  try {
    const g = await guest.newPage();
    await g.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
    // The file itself is not there for a guest...
    const direct = await g.request.get(`/api/files/${id}`);
    expect(direct.status()).toBe(404);
    // ...but the link is, behind its password.
    await g.goto(url);
    await expect(g.getByText('This file is protected by a password.')).toBeVisible();
    await g.getByLabel('Password').fill('wrong guess');
    await g.getByRole('button', { name: 'Open' }).click();
    await expect(g.getByRole('alert')).toHaveText('Wrong password');
    await g.getByLabel('Password').fill('open sesame');
    await g.getByRole('button', { name: 'Open' }).click();
    await expect(g.getByRole('heading', { name })).toBeVisible();
    await expect(g.getByRole('img', { name })).toBeVisible();
    const downloadEvent = g.waitForEvent('download');
    await g.getByRole('link', { name: 'Download' }).click();
    const download = await downloadEvent;
    expect(download.suggestedFilename()).toBe(name);
    expect(readFileSync(await download.path()).equals(PNG)).toBe(true);
  } finally {
    await guest.close();
  }
  // The owner's profile lists the link with its download counted once (preview + download = one visit).
  await page.goto('/profile');
  const row = page.locator('.my-shares tr', { hasText: name });
  await expect(row).toContainText('active');
  await expect(row.locator('td').nth(4)).toHaveText('1');
  // Revoked from the profile: the row says so and the link is gone for everyone at once.
  await row.getByRole('button', { name: /^Revoke the link/ }).click();
  await expect(row).toContainText('revoked');
  await expect(row.getByRole('button', { name: /^Revoke the link/ })).toHaveCount(0);
  expect((await page.request.get(`${url}/info`)).status()).toBe(410);
});

test('an expired link shows the 410 page', async ({ page }) => {
  const id = cliJson<{ id: number }[]>(['file', 'add', writePNG(`expiring-${uid()}.png`)])[0].id;
  const link = cliJson<{ token: string }>(['file', 'share', String(id), '--expires', '1s']);
  await expect.poll(async () => (await page.request.get(`/s/${link.token}/info`)).status(), { timeout: 15_000 }).toBe(410);
  const answer = await page.goto(`/s/${link.token}`);
  expect(answer?.status()).toBe(410);
  await expect(page.getByRole('heading', { name: 'This link is no longer available' })).toBeVisible();
  await expect(page.getByText('The share link has expired, has been used up or was revoked by its owner.')).toBeVisible();
  expect((await page.request.get(`/s/${link.token}/download`)).status()).toBe(410);
});

test('a private file is invisible to a guest', async ({ page, browser }) => {
  const token = await signIn(page);
  const hidden = `hidden-${uid()}.png`;
  const shown = `shown-${uid()}.png`;
  const hiddenId = await uploadPNG(page, token, hidden);
  await uploadPNG(page, token, shown);
  const res = await page.evaluate(
    async ([t, i]) =>
      (
        await fetch(`/api/files/${i}`, {
          method: 'PATCH',
          headers: { Authorization: `Bearer ${t}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ visibility: 'private' }),
        })
      ).status,
    [token, hiddenId] as const,
  );
  expect(res).toBe(200);
  // The uploader still sees it in the list.
  await page.goto('/filecloud');
  await expect(page.getByRole('link', { name: hidden, exact: true })).toBeVisible();
  await expect(page.getByTestId(`file-${hiddenId}`).getByText('Private', { exact: true })).toBeVisible();

  const guest = await browser.newContext({ baseURL });
  try {
    const g = await guest.newPage();
    await g.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
    await g.goto('/filecloud');
    await expect(g.getByRole('link', { name: shown, exact: true })).toBeVisible();
    await expect(g.getByText(hidden)).toHaveCount(0);
    await expect(g.getByRole('link', { name: hidden, exact: true })).toHaveCount(0);
    await g.goto(`/filecloud/${hiddenId}`);
    await expect(g.getByRole('alert')).toHaveText('File not found');
    expect((await g.request.get(`/api/files/${hiddenId}/download`)).status()).toBe(404);
  } finally {
    await guest.close();
  }
});

test('a link for one download: the visit previews, downloads and resumes; the next visitor gets the 410 page', async ({
  browser,
}) => {
  const name = `once-${uid()}.png`;
  const id = cliJson<{ id: number }[]>(['file', 'add', writePNG(name)])[0].id;
  const link = cliJson<{ token: string }>(['file', 'share', String(id), '--max-downloads', '1']);

  const visitor = await browser.newContext({ acceptDownloads: true, baseURL });
  try {
    const v = await visitor.newPage();
    await v.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
    await v.goto(`/s/${link.token}`);
    // The preview uses up the link's one download...
    await expect(v.getByRole('img', { name })).toBeVisible();
    // ...and the same visit still downloads the file and reads a range of it.
    const downloadEvent = v.waitForEvent('download');
    await v.getByRole('link', { name: 'Download' }).click();
    expect(readFileSync(await (await downloadEvent).path()).equals(PNG)).toBe(true);
    const resumed = await v.evaluate(async (t) => {
      const r = await fetch(`/s/${t}/download`, { headers: { Range: 'bytes=1-' } });
      return [r.status, (await r.arrayBuffer()).byteLength];
    }, link.token);
    expect(resumed).toEqual([206, PNG.length - 1]);
  } finally {
    await visitor.close();
  }
  const [counted] = cliJson<{ downloads: number; state: string }[]>(['file', 'shares', String(id)]);
  expect(counted).toMatchObject({ downloads: 1, state: 'used_up' });

  // Anyone else, a range request included, finds the link used up.
  const next = await browser.newContext({ baseURL });
  try {
    const n = await next.newPage();
    await n.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
    expect((await n.request.get(`/s/${link.token}/download`, { headers: { Range: 'bytes=1-' } })).status()).toBe(410);
    expect((await n.goto(`/s/${link.token}`))?.status()).toBe(410);
    await expect(n.getByRole('heading', { name: 'This link is no longer available' })).toBeVisible();
  } finally {
    await next.close();
  }
});

/** Writes a PNG under a temp name for `devhub file add` and returns its path. */
function writePNG(name: string): string {
  const p = join(mkdtempSync(join(tmpdir(), 'devhub-share-')), name);
  writeFileSync(p, PNG);
  return p;
}
