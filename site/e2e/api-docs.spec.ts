import { expect, test } from './fixtures';

// The contract's reader (issue 11): Redoc, bundled into the binary, renders api/openapi.yaml under
// the site's CSP without fetching anything from another host.
test('GET /api/docs renders the OpenAPI document with the bundled reader', async ({ page, consoleErrors }) => {
  // Requests that reached another host: finished ones, or failed ones the CSP did not stop.
  const foreign: string[] = [];
  const offSite = (url: string) => /^https?:/.test(url) && !url.includes('127.0.0.1');
  page.on('requestfinished', (r) => {
    if (offSite(r.url())) foreign.push(r.url());
  });
  page.on('requestfailed', (r) => {
    if (offSite(r.url()) && !/ERR_BLOCKED_BY_CSP|csp/i.test(r.failure()?.errorText ?? '')) foreign.push(`${r.url()} (${r.failure()?.errorText})`);
  });
  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { level: 1, name: /devhub API/ })).toBeVisible({ timeout: 15_000 });
  // Redoc renders the areas as they come into view: open the auth area from the sidebar.
  await page.getByRole('link', { name: 'auth', exact: true }).click();
  await expect(page.getByText('/api/auth/login').first()).toBeAttached();
  expect(foreign).toEqual([]);
  // The one console error is the CSP refusing Redoc's logo from its CDN: nothing leaves the site.
  expect(consoleErrors.filter((e) => !e.includes('cdn.redoc.ly'))).toEqual([]);
  const doc = await page.request.get('/api/openapi.json');
  expect((await doc.json()).openapi).toBe('3.1.0');
});
