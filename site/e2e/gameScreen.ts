import type { Locator, Page } from '@playwright/test';

// Reading the game screen's pixels, shared by the games specs.

/**
 * The game screen alone (the canvas inside the player frame, wherever the frame puts it): the
 * most common non-black colour (the background, whatever the letterboxing) and where the white
 * player sprite is.
 */
export async function screenOf(page: Page, canvas: Locator): Promise<{ bg: [number, number, number]; playerX: number }> {
  const png = (await canvas.screenshot()).toString('base64');
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const { data, width, height } = ctx.getImageData(0, 0, c.width, c.height);
    const counts = new Map<string, number>();
    let left = width;
    let right = -1;
    let sum = 0;
    let n = 0;
    for (let y = 0; y < height; y += 2) {
      for (let x = 0; x < width; x += 2) {
        const i = (y * width + x) * 4;
        const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
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
    const bg = top.split(',').map((v) => Number(v) * 16 + 8) as [number, number, number];
    // The player's position across the game picture (not the letterboxed canvas).
    const playerX = n > 4 && right > left ? (sum / n - left) / (right - left) : -1;
    return { bg, playerX };
  }, png);
}
