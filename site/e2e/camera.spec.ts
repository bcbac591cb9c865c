import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

// The camera tester against Chromium's fake camera (--use-fake-device-for-media-stream):
// the picture plays, the report measures it, filters and rotation reach the photos, photos download
// as JPEG, and every track ends when the camera is turned off or the page is left.

/** Counts live camera tracks through a wrapped getUserMedia (nothing test-only ships in the page). */
async function trackTracks(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __tracks: MediaStreamTrack[] };
    w.__tracks = [];
    const orig = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (c) => {
      const s = await orig(c);
      w.__tracks.push(...s.getTracks());
      return s;
    };
  });
}
const liveTracks = (page: Page) =>
  page.evaluate(() => (window as unknown as { __tracks: MediaStreamTrack[] }).__tracks.filter((t) => t.readyState === 'live').length);

/** Width, height and mean brightness of a gallery photo, read from its pixels. */
async function photoStats(page: Page, index: number) {
  return page.evaluate(async (i) => {
    const img = document.querySelectorAll<HTMLImageElement>('.camera-panel img')[i];
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let sum = 0;
    for (let p = 0; p < d.length; p += 4) sum += (d[p] + d[p + 1] + d[p + 2]) / 3;
    return { w: c.width, h: c.height, mean: sum / (d.length / 4) };
  }, index);
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
});

test('the camera plays, is measured, and its photos carry filters and rotation', async ({ page, consoleErrors }) => {
  await trackTracks(page);
  await page.goto('/tools/camera');
  await page.getByRole('button', { name: 'Turn the camera on' }).click();
  const video = page.getByLabel('Camera picture');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 2 && !v.paused && v.videoWidth > 0)).toBe(true);
  await expect(page.getByTestId('camera-resolution')).toHaveText(/^\d+×\d+$/);
  const [vw, vh] = await video.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight]);
  await expect(page.getByTestId('camera-resolution')).toHaveText(`${vw}×${vh}`);
  await expect.poll(async () => parseFloat((await page.getByTestId('camera-fps').textContent()) ?? ''), { timeout: 10_000 }).toBeGreaterThan(0);
  expect(await liveTracks(page)).toBe(1);

  // A plain photo, then one brighter, then one rotated by 90°.
  await page.getByRole('button', { name: 'Take a photo' }).click();
  await expect(page.getByText('Photos: 1')).toBeVisible();
  await page.getByRole('button', { name: 'Show settings' }).click();
  await page.getByLabel('Brightness').fill('200');
  await page.getByRole('button', { name: 'Take a photo' }).click();
  await expect(page.getByText('Photos: 2')).toBeVisible();
  await page.getByRole('button', { name: 'Reset filters' }).click();
  await page.getByRole('button', { name: 'Rotate by 90°' }).click();
  await page.getByRole('button', { name: 'Take a photo' }).click();
  await expect(page.getByText('Photos: 3')).toBeVisible();

  const photos = [await photoStats(page, 0), await photoStats(page, 1), await photoStats(page, 2)];
  // The gallery lists the newest first: rotated, bright, plain.
  const [rotated, bright, plain] = photos;
  expect(bright.mean).toBeGreaterThan(plain.mean * 1.3);
  expect([rotated.w, rotated.h]).toEqual([plain.h, plain.w]);

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: /^Download photo_\d+\.jpg$/ }).first().click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^photo_\d{13}\.jpg$/);
  const bytes = Buffer.from(await (await import('node:fs/promises')).readFile((await file.path())!));
  expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);

  await page.getByRole('button', { name: 'Turn the camera off' }).click();
  await expect.poll(() => liveTracks(page)).toBe(0);
  expect(consoleErrors).toEqual([]);
});

test('leaving the page ends every camera track', async ({ page }) => {
  await trackTracks(page);
  await page.goto('/tools/camera');
  await page.getByRole('button', { name: 'Turn the camera on' }).click();
  await expect.poll(() => liveTracks(page)).toBe(1);
  await page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: /Blog/i }).first().click();
  await expect(page).toHaveURL(/\/blog/);
  await expect.poll(() => liveTracks(page)).toBe(0);
});

for (const lang of ['uk', 'ru', 'en'] as const) {
  test(`the camera page in ${lang} shows no raw key and logs no error`, async ({ page, consoleErrors }) => {
    await page.addInitScript((l) => localStorage.setItem('preferredLanguage', l), lang);
    await page.goto('/tools/camera');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const text = await page.locator('main').innerText();
    expect(text).not.toMatch(/\b(camera|settings|report|gallery|scan|errors)\.[a-zA-Z]+/);
    expect(consoleErrors).toEqual([]);
  });
}

test('on a 375 px phone the camera report keeps its values readable', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'uk'));
  await page.goto('/tools/camera');
  await page.getByRole('button', { name: 'Увімкнути камеру' }).click();
  const resolution = page.getByTestId('camera-resolution');
  await expect(resolution).toHaveText(/^\d+×\d+$/);
  // The long Ukrainian labels once took the whole row and left the values a letter wide,
  // so "1280×720" stood in a column of single characters.
  const lines = await resolution.evaluate((el) => {
    const text = document.createRange();
    text.selectNodeContents(el);
    return text.getClientRects().length;
  });
  expect(lines).toBe(1);
});
