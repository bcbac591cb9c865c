// Lighthouse on a page seen signed in, for `make bench`: the SPA keeps its access token in
// localStorage, which Lighthouse's command line cannot set and clears before it measures. So a
// Chromium profile is prepared first (Playwright writes the token into the site's localStorage
// and closes), then Chromium is started on that profile with a debugging port and Lighthouse
// attaches to it (--port) without resetting storage. Playwright is not attached while
// Lighthouse measures: it pauses every new tab it sees, and the page would never paint.
// Usage: node lighthouse-signed-in.mjs URL OUT.json TOKEN [lighthouse flags...]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [url, out, token, ...flags] = process.argv.slice(2);
const site = join(process.cwd(), 'site');
const { chromium } = createRequire(join(site, 'package.json'))('playwright-core');
const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const args = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'];

const profile = mkdtempSync(join(tmpdir(), 'devhub-lh-profile-'));
const ctx = await chromium.launchPersistentContext(profile, { executablePath: chrome, headless: true, args });
const page = ctx.pages()[0] ?? (await ctx.newPage());
await page.goto(new URL('/healthz', url).href);
await page.evaluate((t) => localStorage.setItem('token', t), token);
await ctx.close();

const port = 9000 + Math.floor(Math.random() * 1000);
const browser = spawn(chrome, ['--headless=new', `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, ...args, 'about:blank'], {
  stdio: 'ignore',
});
let status = 1;
try {
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/json/version`).then((r) => r.ok, () => false);
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const lh = spawnSync(
    join(site, 'node_modules', '.bin', 'lighthouse'),
    [url, '--quiet', '--output=json', `--output-path=${out}`, `--port=${port}`, '--disable-storage-reset', ...flags],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  status = lh.status ?? 1;
} finally {
  browser.kill();
  await new Promise((r) => browser.once('exit', r));
  rmSync(profile, { recursive: true, force: true });
}
process.exit(status);
