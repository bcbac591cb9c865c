import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { cliJson, expect, networkQuiet, signInNewAccount, test, uid } from './fixtures';

// Layout stability (cumulative layout shift ≤ 0.02 on every public route). Each route
// is opened afresh at a phone and a desktop size with every request held back a little (as on a
// slow network), so the loading states — the lazy page, skeletons, the shell — are on screen
// before the data replaces them. The browser's own layout-shift entries are summed from the
// first paint until the page has settled; the sources of any shift are named in the failure.

const SIZES = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

/** The shipped content's article (content/blog-markdown-search.md), by its slug. */
function articlePath(): string {
  const articles = cliJson<Array<{ id: number; slug: string }>>(['article', 'list', '--json']);
  const a = articles.find((x) => x.slug === 'blog-markdown-search') ?? articles[0];
  return `/blog/${a.id}`;
}

// The routes `make bench` measures with Lighthouse, then the other public pages (the camera and
// microphone pages list the devices the browser reports, whose number is not known in advance).
const ROUTES = [
  '/', '/blog', 'article', '/filecloud', '/games', '/tools/ip', '/tools/tone_generator',
  '/skills', '/tools', '/chat', '/profile', '/privacy', '/terms', '/no-such-page',
];

interface Shift {
  value: number;
  sources: string[];
}

/** Records every layout-shift entry of the document from its start (buffered observer). */
async function recordShifts(page: Page) {
  await page.addInitScript(() => {
    const shifts: Array<{ value: number; sources: string[] }> = [];
    (window as unknown as { __shifts: typeof shifts }).__shifts = shifts;
    const name = (n: Node | null | undefined) => {
      if (!n) return '?';
      if (!(n instanceof Element)) return `${n.nodeName} "${(n.textContent ?? '').slice(0, 30)}"`;
      const cls = typeof n.className === 'string' && n.className ? `.${n.className.trim().split(/\s+/).join('.')}` : '';
      return `${n.tagName.toLowerCase()}${n.id ? `#${n.id}` : ''}${cls}`;
    };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as Array<{
        value: number;
        sources?: Array<{ node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }>;
      }>) {
        shifts.push({
          value: e.value,
          sources: (e.sources ?? []).map(
            (s) => `${name(s.node)} y ${Math.round(s.previousRect.y)}→${Math.round(s.currentRect.y)} h ${Math.round(s.currentRect.height)}`,
          ),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** Opens path with every request (chunks, API, pictures) answering 150 ms late, so the loading states get painted. */
async function openSlowly(page: Page, path: string) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: -1, uploadThroughput: -1 });
  await page.goto(path);
}

/** Waits until the page has settled, then expects its layout shifts to add up to at most 0.02. */
async function expectStable(page: Page, path: string) {
  await expect(page.getByTestId('app-loader')).toHaveCount(0);
  await expect(page.locator('main h1').first()).toBeVisible();
  // skeletons and busy lists gone, nothing left to fetch, and two frames painted after that
  await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
  await page.waitForLoadState('load');
  await networkQuiet(page);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

  const shifts = await page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts);
  const total = shifts.reduce((sum, s) => sum + s.value, 0);
  const detail = shifts.map((s) => `${s.value.toFixed(4)}: ${s.sources.join(', ')}`).join('\n');
  expect(total, `layout shifts on ${path}:\n${detail}`).toBeLessThanOrEqual(0.02);
}

for (const size of SIZES) {
  test.describe(`layout shift at ${size.name} size`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    for (const route of ROUTES) {
      test(`${route} does not move after it starts to paint`, async ({ page }) => {
        const path = route === 'article' ? articlePath() : route;
        await recordShifts(page);
        await openSlowly(page, path);
        await expectStable(page, path);
      });
    }

    test('a file page does not move after it starts to paint', async ({ page }) => {
      const png = join(mkdtempSync(join(tmpdir(), 'devhub-cls-')), `cls-${uid()}.png`);
      writeFileSync(png, Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGP4z8DA8B+MgBgAHfAD/dPQfSYAAAAASUVORK5CYII=', 'base64'));
      const [file] = cliJson<Array<{ id: number }>>(['file', 'add', png]);
      await recordShifts(page);
      await openSlowly(page, `/filecloud/${file.id}`);
      await expectStable(page, `/filecloud/${file.id}`);
    });

    // Signed in, the uploader and the profile show the storage quota, which arrives after them.
    for (const path of ['/filecloud', '/profile']) {
      test(`${path} signed in does not move after it starts to paint`, async ({ page }) => {
        await signInNewAccount(page, { prefix: 'cls', name: 'Layout' });
        await recordShifts(page);
        await openSlowly(page, path);
        await expectStable(page, path);
      });
    }
  });
}
