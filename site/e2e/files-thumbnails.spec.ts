import type { Page } from '@playwright/test';
import { expect, test, signInNewAccount, uid } from './fixtures';
import { rgbPNG } from './png';

// Thumbnails: an image uploaded through the browser gets a thumbnail made in the
// background; the list shows it once it is there, from an immutable, versioned URL.


test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    // Init scripts run in every frame; a PDF preview's viewer frame has no localStorage.
    if (window.top === window && !localStorage.getItem('preferredLanguage')) localStorage.setItem('preferredLanguage', 'en');
  });
});

async function signIn(page: Page) {
  await signInNewAccount(page, { prefix: 'thumbs', name: 'Thumbs user' });
}

/** A w×h RGB PNG with a gradient. */
const png = (w: number, h: number) => rgbPNG(w, h, (x, y) => [(x * 255) / w, (y * 255) / h, 128]);

const row = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('link', { name, exact: true }) });

test('an uploaded image shows its thumbnail in the list; a document shows its type icon', async ({ page, consoleErrors }) => {
  await signIn(page);
  const tag = uid();
  const image = { name: `landscape-${tag}.png`, mimeType: 'image/png', buffer: png(640, 400) };
  const doc = { name: `notes-${tag}.txt`, mimeType: 'text/plain', buffer: Buffer.from('plain text, no picture\n') };

  await page.goto('/filecloud');
  await page.getByLabel('Choose files').setInputFiles([image, doc]);
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('Files uploaded successfully!')).toBeVisible();

  await page.getByRole('tab', { name: /^Images/ }).click();
  const imageRow = row(page, image.name);
  const thumb = imageRow.getByRole('img', { name: `Thumbnail of ${image.name}` });
  // The thumbnail is made in the background; the list asks again until it is there.
  await expect(thumb).toBeVisible({ timeout: 15_000 });
  await expect(thumb).toHaveAttribute('src', /^\/api\/files\/\d+\/thumbnail\?v=[0-9a-f]{16}-\d+$/);
  await expect(thumb).toHaveAttribute('loading', 'lazy');
  // Decoded by the browser: 640×400 scaled to 320 on the long side.
  await expect.poll(() => thumb.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(320);
  expect(await thumb.evaluate((el: HTMLImageElement) => el.naturalHeight)).toBe(200);
  // The box is fixed: the row's picture is the same size as an icon's.
  const box = await imageRow.getByTestId(/^thumb-/).boundingBox();

  const src = (await thumb.getAttribute('src'))!;
  const res = await page.request.get(src);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('image/jpeg');
  expect(res.headers()['cache-control']).toContain('immutable');

  await page.getByRole('tab', { name: /^Documents/ }).click();
  const docRow = row(page, doc.name);
  await expect(docRow).toBeVisible();
  await expect(docRow.getByRole('img')).toHaveCount(0);
  const iconBox = await docRow.getByTestId(/^thumb-/).boundingBox();
  expect(iconBox && box && Math.round(iconBox.width) === Math.round(box.width) && Math.round(iconBox.height) === Math.round(box.height)).toBe(true);

  expect(consoleErrors).toEqual([]);
});
