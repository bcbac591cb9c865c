import { readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { baseURL, cli, expect, test } from './fixtures';

// An admin adds a ROM (with its cover) from the games page — the ROM as a resumable upload through
// /api/files/tus/ — it appears in the list and plays; then the admin removes it. The e2e instance
// serves the repository's roms/, so the test cleans up after itself whatever happens.

const romsDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'roms');
const email = `rom-admin-${Date.now()}@example.com`;
const password = 'rom-admin-password';

test.beforeAll(() => {
  cli(['user', 'create', '--email', email, '--name', 'Admin', '--admin', '--password-stdin'], { input: `${password}\n` });
});

test.afterAll(() => {
  for (const name of ['Uploaded Catcher.nes', 'Clash Catcher.nes', 'Clash Catcher (2).nes']) rmSync(join(romsDir, 'nes', name), { force: true });
  rmSync(join(romsDir, 'nes', 'images', 'Uploaded Catcher.png'), { force: true });
  cli(['rom', 'scan']);
});

async function frames(page: Page): Promise<number> {
  const f = page.frames().find((x) => x.url().includes('/emulator.html'));
  if (!f) return 0;
  return f.evaluate(() => (window as unknown as { __devhubEmulator?: { frames(): number } }).__devhubEmulator?.frames() ?? 0);
}

test('an admin upload appears in the list and plays; removing it takes it away', async ({ browser }) => {
  test.setTimeout(120_000);
  const ctx = await browser.newContext({ baseURL });
  const res = await ctx.request.post('/api/auth/login', { data: { email, password } });
  const { tokens } = (await res.json()) as { tokens: { accessToken: string } };
  await ctx.addInitScript((tok) => localStorage.setItem('token', tok), tokens.accessToken);
  const page = await ctx.newPage();
  // The ROM goes through the file cloud's resumable endpoint, not the one-request route.
  const sent: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/api/files/tus/') || path === '/api/games/roms') sent.push(`${r.method()} ${path}`);
  });
  await page.goto('/games');

  const upload = page.getByRole('region', { name: 'Add games' });
  await upload.getByLabel('Choose files').setInputFiles([
    { name: 'Uploaded Catcher.nes', mimeType: 'application/octet-stream', buffer: readFileSync(join(romsDir, 'nes', 'Coin_Catcher.nes')) },
    { name: 'Uploaded Catcher.png', mimeType: 'image/png', buffer: readFileSync(join(romsDir, 'nes', 'images', 'Coin_Catcher.png')) },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a rom') },
  ]);
  await expect(upload.getByText('Uploaded Catcher.nes: added')).toBeVisible();
  expect(sent).toContain('POST /api/files/tus/');
  expect(sent.some((r) => /^PATCH \/api\/files\/tus\/[0-9a-f]{32}$/.test(r))).toBe(true);
  expect(sent.filter((r) => r.endsWith('/api/games/roms'))).toEqual([]);
  // A file no console runs gets the server's clear message.
  await expect(upload.getByText(/notes\.txt: choose the console/)).toBeVisible();

  const game = page.locator('#games-library').getByRole('button', { name: 'Play Uploaded Catcher' });
  await expect(game).toBeVisible();
  await expect(game.locator('img')).toHaveAttribute('src', '/romserv/nes/images/Uploaded%20Catcher.png');
  await game.click();
  await expect.poll(() => frames(page), { timeout: 60_000 }).toBeGreaterThan(30);

  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Remove Uploaded Catcher' }).click();
  await expect(game).toHaveCount(0);
  await expect(page.locator('iframe[title="Game: Uploaded Catcher"]')).toHaveCount(0);
  await ctx.close();
});

test('a ROM whose file name the library has is shown at once, in the reader’s language, to rename or replace', async ({ browser }) => {
  test.setTimeout(120_000);
  const ctx = await browser.newContext({ baseURL });
  const res = await ctx.request.post('/api/auth/login', { data: { email, password } });
  const { tokens } = (await res.json()) as { tokens: { accessToken: string } };
  await ctx.addInitScript((tok) => {
    localStorage.setItem('token', tok);
    localStorage.setItem('preferredLanguage', 'uk');
  }, tokens.accessToken);
  const page = await ctx.newPage();
  const creations: number[] = [];
  page.on('response', (r) => {
    if (r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/files/tus/') creations.push(r.status());
  });
  await page.goto('/games');
  const upload = page.getByRole('region', { name: 'Додати ігри' });
  const rom = readFileSync(join(romsDir, 'nes', 'Coin_Catcher.nes'));
  const choose = (name: string) =>
    upload.getByLabel('Вибрати файли').setInputFiles([{ name, mimeType: 'application/octet-stream', buffer: rom }]);

  await choose('Clash Catcher.nes');
  await expect(upload.getByText('Clash Catcher.nes: додано')).toBeVisible();
  // The same name again: the server's 409 is shown at once, never retried.
  await choose('Clash Catcher.nes');
  await expect(upload.getByText(/^Clash Catcher\.nes: гра з такою назвою файлу вже є в бібліотеці/)).toBeVisible({ timeout: 5_000 });
  await expect(upload.getByRole('progressbar')).toHaveCount(0);
  expect(creations).toEqual([201, 409]);

  // Another name: a second game.
  await expect(upload.getByRole('textbox', { name: 'Нова назва файлу для Clash Catcher.nes' })).toHaveValue('Clash Catcher (2).nes');
  await upload.getByRole('button', { name: 'Завантажити під цією назвою' }).click();
  await expect(upload.getByText('Clash Catcher (2).nes: додано')).toBeVisible();
  await expect(page.locator('#games-library').getByRole('button', { name: 'Грати в Clash Catcher (2)' })).toBeVisible();

  // Replace: the same game, no third one.
  await choose('Clash Catcher.nes');
  await upload.getByRole('button', { name: 'Замінити Clash Catcher.nes у бібліотеці' }).click();
  await page.getByRole('alertdialog', { name: 'Замінити гру?' }).getByRole('button', { name: 'Замінити' }).click();
  await expect(upload.getByText('Clash Catcher.nes: замінено')).toBeVisible();
  expect(creations).toEqual([201, 409, 201, 409, 201]);
  await expect(page.locator('#games-library').getByRole('button', { name: /^Грати в Clash Catcher/ })).toHaveCount(2);
  await ctx.close();
});
