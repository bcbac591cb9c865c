import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { screenOf } from './gameScreen';

// The player's own additions: the touch pad shows only the console's buttons, fast-forward on a
// held key (listed in the keys panel), and a screenshot key that saves a PNG of the frame.

type Hook = { frames(): number; fastForward(): boolean };
const frames = (page: Page) => page.evaluate(() => (window as unknown as { __devhubEmulator?: Hook }).__devhubEmulator?.frames() ?? 0);

test.describe('touch pad', () => {
  test.use({ viewport: { width: 400, height: 760 }, hasTouch: true });

  test('the NES touch pad has no X/Y; the SNES one has them', async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto(`/emulator.html?core=fceumm&gameUrl=${encodeURIComponent('/romserv/nes/Coin_Catcher.nes')}&lang=en`);
    await expect.poll(() => frames(page), { timeout: 60_000 }).toBeGreaterThan(10);
    // The pad is aria-hidden (the keyboard and gamepads are the accessible input): by class.
    const pad = page.locator('#emu-touch');
    await expect(pad.locator('.emu-touch-a')).toBeVisible();
    await expect(pad.locator('.emu-touch-b')).toBeVisible();
    await expect(pad.locator('.emu-touch-start')).toBeVisible();
    await expect(pad.locator('.emu-touch-x')).toHaveCount(0);
    await expect(pad.locator('.emu-touch-y')).toHaveCount(0);

    await page.goto(`/emulator.html?core=snes9x&gameUrl=${encodeURIComponent('/romserv/snes/Colour_Test_SNES.sfc')}&lang=en`);
    await expect.poll(() => frames(page), { timeout: 60_000 }).toBeGreaterThan(10);
    await expect(pad.locator('.emu-touch-x')).toBeVisible();
    await expect(pad.locator('.emu-touch-y')).toBeVisible();
  });
});

test('fast-forward on a held key, shown in the keys panel; F8 saves a PNG of the frame', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/games');
  await page.getByRole('button', { name: 'Play Coin Catcher' }).click();
  const player = page.frameLocator('iframe[title="Game: Coin Catcher"]');
  const emu = () => page.frames().find((x) => x.url().includes('/emulator.html'))!;
  await expect
    .poll(() => emu()?.evaluate(() => (window as unknown as { __devhubEmulator?: Hook }).__devhubEmulator?.frames() ?? 0) ?? 0, { timeout: 60_000 })
    .toBeGreaterThan(30);
  const ff = () => emu().evaluate(() => (window as unknown as { __devhubEmulator: Hook }).__devhubEmulator.fastForward());

  await player.getByRole('button', { name: 'Keys' }).click();
  const help = player.locator('#emu-help');
  await expect(help.getByRole('row', { name: /Space.*fast-forward/ })).toBeVisible();
  await expect(help.getByRole('row', { name: /F8.*Screenshot/ })).toBeVisible();
  await player.getByRole('button', { name: 'Keys' }).click();

  await player.locator('canvas').click();
  await page.keyboard.down('Space');
  await expect.poll(ff).toBe(true);
  await expect(player.getByRole('status')).toHaveText('Fast-forward');
  await page.keyboard.up('Space');
  await expect.poll(ff).toBe(false);

  const download = page.waitForEvent('download');
  await page.keyboard.press('F8');
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^Coin Catcher-.*\.png$/);
  const png = readFileSync((await file.path())!);
  expect(png.subarray(0, 8).toString('binary')).toBe('\x89PNG\r\n\x1a\n');
  // The frame's colours: Coin Catcher's blue background.
  const blue = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const [r, , b] = ctx.getImageData(Math.floor(c.width * 0.85), Math.floor(c.height * 0.7), 1, 1).data;
    return b > 150 && b > r + 80;
  }, png.toString('base64'));
  expect(blue).toBe(true);
});

/** The most common non-black colour of the game screen (its background). */
async function background(page: Page): Promise<[number, number, number]> {
  return (await screenOf(page, page.frameLocator('iframe[title="Game: Coin Catcher"]').locator('canvas'))).bg;
}
const isBlue = ([r, , b]: number[]) => b > 150 && b > r + 80;
const isRed = ([r, g, b]: number[]) => r > 150 && r > b + 80 && r > g + 60;

test('a remapped key drives the game, stays for the console, and reset brings the default back', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/games');
  await page.getByRole('button', { name: 'Play Coin Catcher' }).click();
  const player = page.frameLocator('iframe[title="Game: Coin Catcher"]');
  const emuFrames = () =>
    page.frames().find((x) => x.url().includes('/emulator.html'))?.evaluate(() => (window as unknown as { __devhubEmulator?: Hook }).__devhubEmulator?.frames() ?? 0) ?? 0;
  await expect.poll(emuFrames, { timeout: 60_000 }).toBeGreaterThan(30);
  await expect.poll(async () => isBlue(await background(page)), { timeout: 20_000 }).toBe(true);

  await page.getByRole('button', { name: 'Controls' }).click();
  const panel = page.getByRole('region', { name: 'Controls' });
  await panel.getByRole('button', { name: 'Bind a key to A' }).click();
  await expect(panel.getByRole('button', { name: 'Bind a key to A' })).toHaveText('Press a key…');
  await page.keyboard.press('k');
  await expect(panel.getByRole('row', { name: /^A\b/ })).toContainText('K');
  const keymap = () =>
    page.frames().find((x) => x.url().includes('/emulator.html'))!.evaluate(() =>
      (window as unknown as { __devhubEmulator: { keymap(): Record<string, number> } }).__devhubEmulator.keymap(),
    );
  await expect.poll(keymap).toMatchObject({ KeyK: 8 });

  // K (the new A) turns the background red while held.
  await player.locator('canvas').click();
  await page.keyboard.down('k');
  await expect.poll(async () => isRed(await background(page)), { timeout: 10_000 }).toBe(true);
  await page.keyboard.up('k');
  await expect.poll(async () => isBlue(await background(page)), { timeout: 10_000 }).toBe(true);

  // The mapping stays for the NES after a reload; reset brings X back.
  await page.reload();
  await page.getByRole('button', { name: 'Play Coin Catcher' }).click();
  await page.getByRole('button', { name: 'Controls' }).click();
  await expect(page.getByRole('region', { name: 'Controls' }).getByRole('row', { name: /^A\b/ })).toContainText('K');
  await page.getByRole('button', { name: 'Reset to defaults' }).click();
  await expect(page.getByRole('region', { name: 'Controls' }).getByRole('row', { name: /^A\b/ })).toContainText('X');
});
