import { baseURL, expect, test } from './fixtures';

// The contract's reader: Redoc, bundled into the binary, renders api/openapi.yaml under
// the site's CSP without asking another host for anything — not even a request the CSP refuses.
test('GET /api/docs renders the OpenAPI document with the bundled reader', async ({ page, consoleErrors }) => {
  // Every request the page tried towards another host, whatever became of it (refused ones too).
  const foreign: string[] = [];
  const local = new URL(baseURL).host;
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (/^https?:$/.test(u.protocol) && u.host !== local) foreign.push(r.url());
  });
  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { level: 1, name: /devhub API/ })).toBeVisible({ timeout: 15_000 });
  // Redoc renders the areas as they come into view: open the auth area from the sidebar.
  await page.getByRole('link', { name: 'auth', exact: true }).click();
  await expect(page.getByText('/api/auth/login').first()).toBeAttached();
  // The sidebar's "API docs by" logo is drawn, from the page itself.
  await expect(page.getByRole('img', { name: 'redocly logo' })).toBeVisible();
  expect(foreign).toEqual([]);
  expect(consoleErrors).toEqual([]);
  const doc = await page.request.get('/api/openapi.json');
  expect((await doc.json()).openapi).toBe('3.1.0');
});
