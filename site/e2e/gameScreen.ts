import type { Locator, Page } from '@playwright/test';

// Reading the game screen's pixels, shared by the games specs. Coin Catcher (roms/nes) draws a
// blue background, red while A is held, and a white player sprite.

export type RGB = [number, number, number];

export const isBlue = ([r, , b]: number[]) => b > 150 && b > r + 80;
export const isRed = ([r, g, b]: number[]) => r > 150 && r > b + 80 && r > g + 60;

/** A decoded PNG: its size and the colour at a point. */
export interface Pixels {
  width: number;
  height: number;
  at(x: number, y: number): RGB;
}

/**
 * Decodes a PNG (a screenshot or a downloaded file) through the page's own image decoder, which
 * the test runner lacks, and hands its RGBA bytes back to the test.
 */
export async function pixels(page: Page, png: Buffer): Promise<Pixels> {
  const { width, height, rgba } = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const { data } = ctx.getImageData(0, 0, c.width, c.height);
    let bin = '';
    for (let i = 0; i < data.length; i += 0x8000) bin += String.fromCharCode(...data.subarray(i, i + 0x8000));
    return { width: c.width, height: c.height, rgba: btoa(bin) };
  }, png.toString('base64'));
  const data = Buffer.from(rgba, 'base64');
  return {
    width,
    height,
    at(x, y) {
      const i = (Math.floor(y) * width + Math.floor(x)) * 4;
      return [data[i], data[i + 1], data[i + 2]];
    },
  };
}

/**
 * The game screen alone (the canvas inside the player frame, wherever the frame puts it): the
 * most common non-black colour (the background, whatever the letterboxing) and where the white
 * player sprite is.
 */
export async function screenOf(page: Page, canvas: Locator): Promise<{ bg: RGB; playerX: number }> {
  const { width, height, at } = await pixels(page, await canvas.screenshot());
  const counts = new Map<string, number>();
  let left = width;
  let right = -1;
  let sum = 0;
  let n = 0;
  for (let y = 0; y < height; y += 2) {
    for (let x = 0; x < width; x += 2) {
      const [r, g, b] = at(x, y);
      if (r + g + b < 40) continue;
      left = Math.min(left, x);
      right = Math.max(right, x);
      if (r > 235 && g > 235 && b > 235 && y > height * 0.2) {
        sum += x;
        n++;
      }
      const k = `${r >> 4},${g >> 4},${b >> 4}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  }
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '0,0,0';
  const bg = top.split(',').map((v) => Number(v) * 16 + 8) as RGB;
  // The player's position across the game picture (not the letterboxed canvas).
  const playerX = n > 4 && right > left ? (sum / n - left) / (right - left) : -1;
  return { bg, playerX };
}
