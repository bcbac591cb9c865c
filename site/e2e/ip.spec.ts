import { readFileSync } from 'node:fs';
import { baseURL, expect, test } from './fixtures';

// The IP and browser report against the real binary. The browser reaches the
// server over loopback, so the address is 127.0.0.1 and every place field is Unknown.

const today = () => {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    // Init scripts run in every frame; a PDF preview's viewer frame has no localStorage.
    if (window.top === window && !localStorage.getItem('preferredLanguage')) localStorage.setItem('preferredLanguage', 'en');
  });
});

test('shows the caller as 127.0.0.1 with the browser, performance, web API and consistency panels', async ({ page, consoleErrors }) => {
  await page.goto('/tools/ip');
  await expect(page.getByRole('heading', { level: 1, name: 'Your IP address' })).toBeVisible();
  await expect(page.getByTestId('ip-address')).toHaveText('127.0.0.1');
  await expect(page.getByTestId('last-updated')).toContainText(/\d{2}:\d{2}:\d{2}/);
  await expect(page.getByRole('heading', { name: 'Browser, system and connection' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Performance' })).toBeVisible();
  await expect(page.getByTestId('webapi-total')).toHaveText(/^\d+ of \d+ supported \(\d+%\)$/);
  await expect(page.getByRole('heading', { name: 'Consistency report' })).toBeVisible();
  await expect(page.getByText('no STUN server')).toBeVisible();
  await expect(page.getByTestId('webrtc-result')).not.toHaveText('Checking…');
  await expect(page.getByRole('heading', { name: 'Emulator readiness' })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test('Export downloads ip-browser-info-<today>.json with timestamp, ip and browser', async ({ page }) => {
  await page.goto('/tools/ip');
  const exportButton = page.getByRole('button', { name: 'Export' });
  await expect(exportButton).toBeEnabled();
  const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
  expect(download.suggestedFilename()).toBe(`ip-browser-info-${today()}.json`);
  const data = JSON.parse(readFileSync((await download.path())!, 'utf8'));
  expect(Object.keys(data)).toEqual(['timestamp', 'ip', 'browser']);
  expect(new Date(data.timestamp).toISOString()).toBe(data.timestamp);
  expect(data.ip.ip).toBe('127.0.0.1');
  expect(data.browser.browser.name).toBeTruthy();
  expect(data.browser.userAgent).toContain('Chrome');
});

test('Share falls back to the clipboard with the alert', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await page.addInitScript(() => {
    // No Web Share on this "device".
    Object.defineProperty(Navigator.prototype, 'share', { value: undefined, configurable: true });
  });
  await page.goto('/tools/ip');
  // The handler accepts the alert as it opens: a dialog left waiting blocks the page, and one
  // without a handler is dismissed by Playwright before the test could read it.
  const messages: string[] = [];
  page.on('dialog', (d) => {
    messages.push(d.message());
    void d.accept();
  });
  await page.getByRole('button', { name: 'Share' }).click();
  await expect.poll(() => messages).toEqual(['Information copied to clipboard!']);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('IP: 127.0.0.1');
});

test('Refresh is disabled while loading; Export and Share wait for data', async ({ page }) => {
  let release: () => void = () => {};
  let hold = true;
  await page.route('**/api/ip', async (route) => {
    if (hold) await new Promise<void>((r) => (release = r));
    await route.continue();
  });
  await page.goto('/tools/ip');
  const refresh = page.getByRole('button', { name: 'Refresh' });
  await expect(page.getByRole('heading', { level: 1, name: 'Your IP address' })).toBeVisible();
  await expect(refresh).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Export' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Share' })).toBeDisabled();
  await expect(page.getByText('Loading IP data…')).toBeVisible();
  hold = false;
  release();
  await expect(page.getByTestId('ip-address')).toHaveText('127.0.0.1');
  await expect(refresh).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Export' })).toBeEnabled();

  // A refresh holds the button again until the new answer is in.
  hold = true;
  await refresh.click();
  await expect(refresh).toBeDisabled();
  hold = false;
  release();
  await expect(refresh).toBeEnabled();
});

test('the copy button shows a check mark', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await page.goto('/tools/ip');
  await page.getByRole('button', { name: 'Copy the IP address' }).click();
  await expect(page.getByRole('button', { name: 'Copy the IP address' })).toHaveText('✓');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('127.0.0.1');
});

for (const [lang, title] of [
  ['uk', 'Ваша IP-адреса'],
  ['ru', 'Ваш IP-адрес'],
  ['en', 'Your IP address'],
] as const) {
  test(`the IP page in ${lang} shows no raw key and logs no error`, async ({ page, consoleErrors }) => {
    await page.addInitScript((l) => localStorage.setItem('preferredLanguage', l), lang);
    await page.goto('/tools/ip');
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByTestId('ip-address')).toHaveText('127.0.0.1');
    await expect(page.getByTestId('webrtc-result')).not.toHaveText(/…$/);
    const text = await page.locator('main').innerText();
    expect(text).not.toMatch(/\b(ipBlock|browserPanel|performance|webApis|consistency|webrtc|readiness)\.[a-zA-Z]+/);
    expect(consoleErrors).toEqual([]);
  });
}

test('on a 375 px phone no label of the report runs into its value', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'ru'));
  await page.goto('/tools/ip');
  await expect(page.getByRole('heading', { name: 'Производительность' })).toBeVisible();
  // "Перенаправления" (redirects) is one word wider than its column: it ran on into its "0".
  const overflowing = await page.locator('.ip-row dt').evaluateAll((dts) =>
    dts.filter((dt) => dt.scrollWidth > dt.clientWidth).map((dt) => dt.textContent),
  );
  expect(overflowing).toEqual([]);
});

test('/ip for a plain client is the address as text; /api/ip text/plain is key: value lines', async ({ request }) => {
  const plain = await request.get('/ip', { headers: { Accept: '*/*' } });
  expect(plain.status()).toBe(200);
  expect(plain.headers()['content-type']).toContain('text/plain');
  expect(await plain.text()).toBe('127.0.0.1\n');

  const lines = await request.get('/api/ip', { headers: { Accept: 'text/plain' } });
  const body = await lines.text();
  expect(body).toMatch(/^ip: 127\.0\.0\.1\ncountry: Unknown\n/m);
  expect(body).toContain('hostname: Unknown\n');
});
