import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { devhubEnv, expect, signInNewAccount, test } from './fixtures';
import { rgbPNG } from './png';

// The account's own things, end to end on the real binary: name, avatar and theme; two files as
// one zip; deleting the account. The pages run in English.

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    if (!localStorage.getItem('preferredLanguage')) localStorage.setItem('preferredLanguage', 'en');
  });
});

/** A w×h RGB PNG of one colour (a real picture the server decodes). */
const png = (w: number, h: number, rgb: [number, number, number]) => rgbPNG(w, h, () => rgb);

async function settings(page: Page) {
  await page.goto('/profile?section=settings');
  await expect(page.getByRole('heading', { name: 'Display name' })).toBeVisible();
}

test('a user changes their name, avatar and theme; the theme survives a reload with no flash', async ({ page, consoleErrors }) => {
  await signInNewAccount(page, { prefix: 'self-look', name: 'Before' });
  await settings(page);

  const name = page.getByRole('form', { name: 'Display name' });
  await name.getByLabel('Name').fill('Olena Self-Service');
  await name.getByRole('button', { name: 'Save' }).click();
  await expect(name.getByText('The name is saved.')).toBeVisible();

  // A wide picture becomes a square avatar, shown in the header and the settings at once.
  await page.getByLabel('Choose a picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png(300, 120, [200, 40, 40]) });
  await expect(page.getByText('The avatar is saved.')).toBeVisible();
  const headerAvatar = page.locator('header .header-avatar img');
  await expect(headerAvatar).toBeVisible();
  await expect.poll(() => headerAvatar.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([120, 120]);

  await page.goto('/profile');
  await expect(page.getByText('Olena Self-Service', { exact: false })).toBeVisible();

  // Dark, chosen in the header.
  await page.getByRole('button', { name: /^Theme: / }).click();
  await page.getByRole('menuitemradio', { name: 'Dark' }).click();
  await expect(page.locator('html')).toHaveClass(/is-dark/);
  const darkBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(darkBg).toBe('rgb(15, 17, 21)');

  // On a reload the page is dark before any script of the app has run: the scripts are held
  // back until the first paint has been checked.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.reload({ waitUntil: 'commit' });
  await page.waitForFunction(() => document.body !== null && getComputedStyle(document.body).backgroundColor !== 'rgba(0, 0, 0, 0)');
  expect(await page.evaluate(() => !!document.querySelector('.site-header'))).toBe(false);
  expect(await page.evaluate(() => document.documentElement.className)).toContain('is-dark');
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(darkBg);
  release();
  await expect(page.getByRole('button', { name: 'Theme: Dark' })).toBeVisible();

  // Back to the system's: the choice is forgotten.
  await page.getByRole('button', { name: 'Theme: Dark' }).click();
  await page.getByRole('menuitemradio', { name: 'System' }).click();
  await expect(page.locator('html')).not.toHaveClass(/is-dark/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull();
  expect(consoleErrors).toEqual([]);
});

test('a user downloads two chosen files as one zip', async ({ page, consoleErrors }) => {
  const { token } = await signInNewAccount(page, { prefix: 'self-zip', name: 'Zipper' });
  const stamp = Date.now().toString(36);
  const names = [`red-${stamp}.png`, `blue-${stamp}.png`];
  for (const [i, n] of names.entries()) {
    const status = await page.evaluate(
      async ([tok, name, bytes]) => {
        const fd = new FormData();
        fd.append('files', new File([new Uint8Array(bytes as number[])], name as string, { type: 'image/png' }));
        const res = await fetch('/api/files/upload', { method: 'POST', headers: { Authorization: `Bearer ${tok}` }, body: fd });
        return res.status;
      },
      [token, n, [...png(40, 40, i === 0 ? [255, 0, 0] : [0, 0, 255])]] as const,
    );
    expect(status).toBe(201);
  }
  await page.goto('/filecloud');
  await page.getByLabel('My files').check();
  for (const n of names) await page.getByRole('checkbox', { name: `Select ${n}` }).check();
  await expect(page.getByText('2 files selected')).toBeVisible();
  const downloadEvent = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download selected (zip)' }).click();
  const download = await downloadEvent;
  expect(download.suggestedFilename()).toBe('files.zip');
  const zip = readFileSync(await download.path());
  expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
  for (const n of names) expect(zip.includes(Buffer.from(n))).toBe(true);
  await expect(page.getByText('Files downloaded as a zip')).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test('a user deletes their account with their password; the session and the sign-in end', async ({ page, consoleErrors }) => {
  const acct = await signInNewAccount(page, { prefix: 'self-bye', name: 'Leaving' });
  await settings(page);
  const form = page.getByRole('form', { name: 'Delete account' });
  await form.getByLabel('Delete them too').check();
  await form.getByLabel('Current password').fill('not the password');
  await form.getByRole('button', { name: 'Delete my account' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete for good' }).click();
  await expect(form.getByRole('alert')).toHaveText('The current password is wrong');

  await form.getByLabel('Current password').fill(acct.password);
  await form.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('every file you uploaded');
  await dialog.getByRole('button', { name: 'Delete for good' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  const status = (await page.request.post('/api/auth/login', { data: { email: acct.email, password: acct.password } })).status();
  expect(status).toBe(401);
  // The refused attempt logged its 400 in the console; nothing else went wrong.
  expect(consoleErrors.filter((e) => !e.includes('400'))).toEqual([]);
});

test('an admin edits the portfolio from the site and the home page changes', async ({ page, consoleErrors }) => {
  test.setTimeout(90_000);
  // The instance's content/ is shared by every spec: the file is put back exactly as it was after.
  const { readFileSync: read, writeFileSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const file = join(devhubEnv.DEVHUB_STORAGE_CONTENT_DIR, 'profile.yaml');
  const original = read(file);
  const { token } = await signInNewAccount(page, { prefix: 'self-portfolio', name: 'Owner', admin: true });
  const before = await (await page.request.get('/api/profile')).json();
  try {
    await page.goto('/profile?section=admin');
    await page.getByRole('link', { name: 'Edit the portfolio' }).click();
    await expect(page.getByRole('heading', { name: 'Edit the portfolio' })).toBeVisible();
    const headline = `Builds calm software ${Date.now().toString(36)}`;
    await page.getByLabel('Headline (en)').fill(headline);
    // An icon that is not in the bundled set is flagged, and the server refuses it by its field.
    const firstIcon = page.getByRole('group', { name: 'Links' }).getByLabel('Icon').first();
    const icon = await firstIcon.inputValue();
    await firstIcon.fill('no-such-icon');
    await expect(page.getByText('Not in the icon set')).toBeVisible();
    await page.getByRole('button', { name: 'Save the portfolio' }).click();
    await expect(page.getByRole('alert')).toContainText('links.0.icon');
    expect(read(file).equals(original)).toBe(true);
    await firstIcon.fill(icon);
    await page.getByRole('button', { name: 'Save the portfolio' }).click();
    await expect(page.getByText('Saved: the pages show it now.')).toBeVisible();
    expect(read(file, 'utf8')).toContain(headline);
    expect(read(file, 'utf8')).toContain('# The owner');

    await page.locator('header a.brand').click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText(headline)).toBeVisible();
    await page.reload();
    await expect(page.getByText(headline)).toBeVisible();
  } finally {
    const { avatarUrl: _, ...body } = before as Record<string, unknown>;
    await page.request.put('/api/profile', { data: body, headers: { Authorization: `Bearer ${token}` } });
    writeFileSync(file, original);
    rmSync(`${file}.prev`, { force: true });
  }
  expect(consoleErrors.filter((e) => !e.includes('400'))).toEqual([]);
});
