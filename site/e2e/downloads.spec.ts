import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, signInNewAccount, test, uid } from './fixtures';

// The download sections (/programs, /alavar) against the real binary: an admin publishes an entry
// with two releases, a screenshot and a large file that goes resumably (tus); a visitor on
// Windows gets the Windows file's button and a download whose SHA-256 is the one shown; the home
// cards and the profile's quick links open both sections.

const MiB = 1024 * 1024;
const WINDOWS_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

test.describe.configure({ timeout: 120_000 });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
});

/** A 1×1 PNG. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8cfc0f01f0005000201e226059b0000000049454e44ae426082',
  'hex',
);

function tempFile(name: string, data: Buffer): string {
  const path = join(mkdtempSync(join(tmpdir(), 'devhub-dl-')), name);
  writeFileSync(path, data);
  return path;
}

test('an admin publishes two releases with a screenshot and a resumable file; a Windows visitor downloads the right file', async ({
  page,
  browser,
  consoleErrors,
}) => {
  await signInNewAccount(page, { prefix: 'dl-admin', name: 'Downloads admin', admin: true });
  const slug = `tool-${uid()}`;
  await page.goto('/programs');
  await page.getByRole('button', { name: 'New entry' }).click();
  const form = page.getByRole('dialog', { name: 'New entry' });
  await form.getByLabel('Slug (address)').fill(slug);
  await form.getByLabel('Name', { exact: true }).fill(`Tool ${slug}`);
  await form.getByLabel('Summary', { exact: true }).fill('Does one thing well');
  await form.getByLabel('Windows 10').check();
  await form.getByLabel('Windows 11').check();
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form).toHaveCount(0);
  await page.getByRole('link', { name: `Tool ${slug}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Tool ${slug}` })).toBeVisible();

  // Release 1.0: one small file (multipart).
  const release = page.getByRole('form', { name: 'New release' });
  await release.getByLabel('Version').fill('1.0');
  await release.getByLabel('Add files').setInputFiles(tempFile('tool-x86.exe', randomBytes(3000)));
  await expect(release.getByLabel('System of')).toHaveValue('windows');
  await expect(release.getByLabel('Architecture of')).toHaveValue('x86');
  await release.getByRole('button', { name: 'Publish release' }).click();
  await expect(page.getByRole('region', { name: 'Latest release' }).getByRole('heading', { name: 'Version 1.0' })).toBeVisible();

  // Release 2.0: a 64-bit installer large enough to go resumably, and a Linux build.
  const big = randomBytes(5 * MiB + 123);
  const bigSum = createHash('sha256').update(big).digest('hex');
  await release.getByLabel('Version').fill('2.0');
  await release.getByLabel('Release notes (Markdown)').fill('Now *faster*.');
  await release.getByLabel('Add files').setInputFiles([tempFile('tool-setup-x64.exe', big), tempFile('tool-linux', randomBytes(2000))]);
  await release.getByLabel(/^System of .*tool-linux$/).selectOption('linux');
  await release.getByLabel(/^Architecture of .*tool-linux$/).selectOption('x64');
  const tusPatch = page.waitForRequest((r) => r.url().includes('/api/files/tus/') && r.method() === 'PATCH');
  await release.getByRole('button', { name: 'Publish release' }).click();
  await tusPatch;
  const latest = page.getByRole('region', { name: 'Latest release' });
  await expect(latest.getByRole('heading', { name: 'Version 2.0' })).toBeVisible();
  await expect(latest.getByText('faster', { exact: true })).toBeVisible();
  await expect(latest.getByText(bigSum)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Older releases' }).getByRole('heading', { name: 'Version 1.0' })).toBeVisible();

  // A screenshot, shown as a thumbnail that opens a keyboard-navigable lightbox.
  await page.getByLabel('Add screenshots').setInputFiles([tempFile('shot1.png', PNG), tempFile('shot2.png', PNG)]);
  const open = page.getByRole('button', { name: 'Open screenshot 1 of 2' });
  await expect(open).toBeVisible();
  await open.click();
  await expect(page.getByRole('dialog', { name: 'Screenshot 1 of 2' })).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('dialog', { name: 'Screenshot 2 of 2' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(consoleErrors).toEqual([]);

  // A visitor on Windows 11 (Client Hints) gets the 64-bit Windows installer.
  const visitor = await browser.newContext({ userAgent: WINDOWS_UA, acceptDownloads: true });
  const vpage = await visitor.newPage();
  await vpage.addInitScript(() => {
    localStorage.setItem('preferredLanguage', 'en');
    Object.defineProperty(navigator, 'userAgentData', {
      configurable: true,
      value: {
        getHighEntropyValues: () => Promise.resolve({ platform: 'Windows', platformVersion: '15.0.0', architecture: 'x86', bitness: '64' }),
      },
    });
  });
  await vpage.goto(`/programs/${slug}`);
  const button = vpage.getByRole('link', { name: 'Download for Windows 11 (x64)' });
  await expect(button).toBeVisible({ timeout: 30_000 });
  const [download] = await Promise.all([vpage.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toBe('tool-setup-x64.exe');
  const saved = join(tmpdir(), `${uid()}-downloaded.exe`);
  await download.saveAs(saved);
  const got = createHash('sha256').update(readFileSync(saved)).digest('hex');
  expect(got).toBe(bigSum);
  await expect(vpage.getByRole('region', { name: 'Latest release' }).getByText(got)).toBeVisible();
  // The download counted once.
  await expect
    .poll(async () => {
      const res = await vpage.request.get(`/api/downloads/${slug}`);
      const e = (await res.json()) as { releases: Array<{ files: Array<{ name: string; downloads: number }> }> };
      return e.releases[0].files.find((f) => f.name === 'tool-setup-x64.exe')?.downloads;
    })
    .toBe(1);
  // Every other file is reachable by hand.
  await expect(vpage.getByRole('link', { name: 'Download tool-linux' })).toBeVisible();
  await visitor.close();
});

test('the home cards open both sections, which list the example entries', async ({ page, consoleErrors }) => {
  await page.goto('/');
  await page.getByRole('main').getByRole('link', { name: 'Windows programs', exact: true }).click();
  await expect(page).toHaveURL(/\/programs$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Programs for Windows' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'devhub-sum' })).toBeVisible();
  await page.goto('/');
  await page.getByRole('main').getByRole('link', { name: 'Alavar games', exact: true }).click();
  await expect(page).toHaveURL(/\/alavar$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Alavar games' })).toBeVisible();
  await page.getByRole('link', { name: 'Guess the number' }).click();
  await expect(page.getByText('This is an example entry shipped with devhub', { exact: false })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test('the profile quick links open both sections', async ({ page }) => {
  await signInNewAccount(page, { prefix: 'dl-user', name: 'Quick links' });
  await page.goto('/profile');
  const links = page.getByRole('navigation', { name: 'Quick links' });
  await links.locator('a[href="/programs"]').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Programs for Windows' })).toBeVisible();
  await page.goto('/profile');
  await page.getByRole('navigation', { name: 'Quick links' }).locator('a[href="/alavar"]').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Alavar games' })).toBeVisible();
});

test('a phone does not scroll sideways on the list and the entry', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  for (const path of ['/programs', '/programs/devhub-sum']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText(/Loading/)).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(375);
  }
});
