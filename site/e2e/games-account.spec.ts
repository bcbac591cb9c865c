import type { Browser, Locator, Page } from '@playwright/test';
import { baseURL, cli, expect, test } from './fixtures';
import { screenOf } from './gameScreen';

// Save states that follow a signed-in player: saved to an account slot in one browser context,
// loaded in another (a second device) at the same position, read from the game's pixels; and a
// favourite shows up in its row.

/** Where the white player sprite is across the game screen (0…1), -1 when not seen. */
const playerX = async (page: Page, canvas: Locator) => (await screenOf(page, canvas)).playerX;

async function frames(page: Page): Promise<number> {
  const f = page.frames().find((x) => x.url().includes('/emulator.html'));
  if (!f) return 0;
  // A player frame replaced while it is asked (the page loads the game into a new one) counts
  // as no frames yet: the next poll finds the new frame.
  return f
    .evaluate(() => (window as unknown as { __devhubEmulator?: { frames(): number } }).__devhubEmulator?.frames() ?? 0)
    .catch(() => 0);
}

const email = `player-${Date.now()}@example.com`;
const password = 'player-password';

/** A browser context signed in as the test player (the token in localStorage, as after sign-in). */
/** Whether the player frame has the keyboard. */
async function focused(page: Page): Promise<boolean> {
  const f = page.frames().find((x) => x.url().includes('/emulator.html'));
  if (!f) return false;
  return f.evaluate(() => (window as unknown as { __devhubEmulator?: { focused?(): boolean } }).__devhubEmulator?.focused?.() ?? false);
}

async function signedIn(browser: Browser): Promise<Page> {
  const ctx = await browser.newContext({ baseURL });
  const res = await ctx.request.post('/api/auth/login', { data: { email, password } });
  expect(res.ok()).toBe(true);
  const { tokens } = (await res.json()) as { tokens: { accessToken: string } };
  await ctx.addInitScript((tok) => localStorage.setItem('token', tok), tokens.accessToken);
  return ctx.newPage();
}

async function startCoinCatcher(page: Page): Promise<{ canvas: Locator; player: ReturnType<Page['frameLocator']> }> {
  await page.goto('/games');
  await page.locator('#games-library').getByRole('button', { name: 'Play Coin Catcher' }).click();
  const player = page.frameLocator('iframe[title="Game: Coin Catcher"]');
  await expect.poll(() => frames(page), { timeout: 60_000 }).toBeGreaterThan(30);
  const canvas = player.locator('canvas');
  await expect.poll(() => playerX(page, canvas), { timeout: 20_000 }).toBeGreaterThan(0.4);
  return { canvas, player };
}

test.beforeAll(() => {
  cli(['user', 'create', '--email', email, '--name', 'Player', '--password-stdin'], { input: `${password}\n` });
});

test('an account slot saved on one device loads on another at the same position', async ({ browser }) => {
  test.setTimeout(300_000);
  const first = await signedIn(browser);
  const a = await startCoinCatcher(first);
  // The player is a sandboxed frame: a key pressed before the browser gave it the keyboard goes to
  // the page and is lost (under load). Click, wait for its focus, then hold the key; again if lost.
  await expect(async () => {
    await first.keyboard.up('ArrowRight');
    await a.canvas.click();
    await expect.poll(() => focused(first), { timeout: 5_000 }).toBe(true);
    await first.keyboard.down('ArrowRight');
    await expect.poll(() => playerX(first, a.canvas), { timeout: 10_000 }).toBeGreaterThan(0.75);
  }).toPass({ timeout: 90_000 });
  await first.keyboard.up('ArrowRight');
  const moved = await playerX(first, a.canvas);

  const saves = first.getByRole('group', { name: 'Save states' });
  await saves.getByLabel('Slot').selectOption('2');
  await saves.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(saves.getByRole('status')).toHaveText('Saved to account slot 2');
  // The slot list shows a picture of the frame saved, which the server keeps beside the state.
  const thumb = saves.getByRole('button', { name: /^Account slot 2 —/ }).locator('img');
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 10_000 }).toBeGreaterThan(0);
  expect(await thumb.evaluate((img: HTMLImageElement) => img.naturalHeight)).toBeGreaterThan(0);
  const token = await first.evaluate(() => localStorage.getItem('token'));
  const games = await first.request.get('/romserv/consoles/nes/games?search=Coin%20Catcher');
  const gameId = ((await games.json()) as { data: Array<{ id: number; name: string }> }).data.find((g) => g.name === 'Coin Catcher')!.id;
  const shot = await first.request.get(`/api/games/${gameId}/states/2/screenshot`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(shot.status()).toBe(200);
  expect(shot.headers()['content-type']).toBe('image/png');
  expect((await shot.body()).subarray(0, 8).toString('latin1')).toBe('\x89PNG\r\n\x1a\n');
  await first.context().close();

  // Another device: the game starts in the middle; loading slot 2 puts the player where it was.
  const second = await signedIn(browser);
  const b = await startCoinCatcher(second);
  expect(await playerX(second, b.canvas)).toBeLessThan(0.6);
  const saves2 = second.getByRole('group', { name: 'Save states' });
  await expect(saves2.getByLabel('Slot').locator('option', { hasText: 'Account slot 2 — ' })).not.toHaveText(/empty/);
  await saves2.getByLabel('Slot').selectOption('2');
  await saves2.getByRole('button', { name: 'Load', exact: true }).click();
  await expect(saves2.getByRole('status')).toHaveText('State loaded');
  await expect.poll(async () => Math.abs((await playerX(second, b.canvas)) - moved), { timeout: 30_000 }).toBeLessThan(0.02);

  // Leaving the game keeps an autosave; coming back offers to continue from it.
  await second.getByRole('button', { name: 'Close the game' }).click();
  await expect
    .poll(async () => {
      const res = await second.request.get('/api/games/me', {
        headers: { Authorization: `Bearer ${await second.evaluate(() => localStorage.getItem('token'))}` },
      });
      return ((await res.json()) as { recent: Array<{ name: string }> }).recent.map((g) => g.name);
    })
    .toContain('Coin Catcher');
  const again = second.getByRole('region', { name: 'Continue playing' }).getByRole('button', { name: 'Coin Catcher', exact: true });
  const player = second.locator('iframe[title="Game: Coin Catcher"]');
  const autoThumb = second.getByRole('region', { name: 'Continue where you left off' }).getByRole('img', { name: 'Screenshot of where you left off' });
  // On a loaded machine the click can land while the list re-renders after the close and open
  // nothing ("Choose a game"): clicked again until the player runs. The autosave's picture comes
  // after the server and the emulator did their work.
  await expect(async () => {
    if (!(await player.isVisible())) await again.click();
    await expect.poll(() => frames(second), { timeout: 30_000 }).toBeGreaterThan(30);
    await expect.poll(() => autoThumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 15_000 }).toBeGreaterThan(0);
  }).toPass({ timeout: 120_000 });
  await second.getByRole('button', { name: 'Continue where you left off' }).click();
  await expect.poll(async () => Math.abs((await playerX(second, b.canvas)) - moved), { timeout: 30_000 }).toBeLessThan(0.05);
  await second.context().close();
});

test('a favourite appears in its row', async ({ page }) => {
  await page.goto('/games');
  const fav = page.getByRole('button', { name: 'Favourite: Coin Catcher' });
  await expect(fav).toHaveAttribute('aria-pressed', 'false');
  await fav.click();
  await expect(fav).toHaveAttribute('aria-pressed', 'true');
  const row = page.getByRole('region', { name: 'Favourites' });
  await expect(row.getByRole('button', { name: 'Coin Catcher', exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Favourites' }).getByRole('button', { name: 'Coin Catcher', exact: true })).toBeVisible();
});
