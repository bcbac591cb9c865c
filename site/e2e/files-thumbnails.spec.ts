import { crc32, deflateSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { expect, test, signInNewAccount, uid } from './fixtures';

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

/** A w×h RGB PNG with a gradient, encoded here (no image library needed). */
function png(w: number, h: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const raw = Buffer.alloc(h * (1 + 3 * w));
  for (let y = 0; y < h; y++) {
    const row = y * (1 + 3 * w);
    for (let x = 0; x < w; x++) {
      raw[row + 1 + 3 * x] = (x * 255) / w;
      raw[row + 2 + 3 * x] = (y * 255) / h;
      raw[row + 3 + 3 * x] = 128;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

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
