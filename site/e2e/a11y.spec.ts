import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, TestInfo } from '@playwright/test';
import { baseURL, cli, cliJson, expect, test } from './fixtures';
import { pixels } from './gameScreen';

// Accessibility and layout sweep over every route, against the real binary:
// axe-core (serious and critical impact) in uk, ru and en at 375 and 1280 px, once more in the
// dark theme; at every size no sideways scrolling (down to 320 px) and no select or placeholder
// cut short, from the tablet size up no word broken inside a table, and no interactive element
// under 24×24 CSS px at the phone size (WCAG 2.5.8), with a screenshot of each route attached.
// One browser context per language × size; each route is visited once and checked for all.

test.describe.configure({ mode: 'parallel' });

const uid = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

interface Seed {
  articleId: number;
  fileId: number;
  shareToken: string;
  userToken: string;
  adminToken: string;
}

// An article with what readers meet in posts: a long code line, an inline link, lists, a task list.
const ARTICLE = [
  'An article of the accessibility sweep, with [an inline link](https://example.com/docs) in running text.',
  '',
  '```go',
  `func main() { fmt.Println("${'a long line that does not fit a phone screen '.repeat(4)}") }`,
  '```',
  '',
  '- one item with `inline code`',
  '- another item',
  '',
  '- [x] a done task',
  '- [ ] an open task',
].join('\n');

async function login(email: string, password: string): Promise<string> {
  const res = await fetch(`${baseURL}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login ${email}: ${res.status}`);
  return ((await res.json()) as { tokens: { accessToken: string } }).tokens.accessToken;
}

/** Seeds an article, a file, a user and an admin (once per worker) through the CLI. */
async function seed(): Promise<Seed> {
  const dir = mkdtempSync(join(tmpdir(), 'devhub-a11y-'));
  const tag = uid();
  const md = join(dir, 'article.md');
  writeFileSync(md, ARTICLE);
  const article = cliJson<{ id: number }>([
    'article', 'create', '--name', `Accessible article ${tag}`, '--excerpt', 'Checked by axe', '--category', 'A11y', '--file', md,
  ]);
  const png = join(dir, `a11y-${tag}.png`);
  writeFileSync(
    png,
    Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGP4z8DA8B+MgBgAHfAD/dPQfSYAAAAASUVORK5CYII=', 'base64'),
  );
  const [file] = cliJson<Array<{ id: number }>>(['file', 'add', png]);
  const share = cliJson<{ token: string }>(['file', 'share', String(file.id)]);
  const tokens: string[] = [];
  for (const role of ['user', 'admin'] as const) {
    const email = `a11y-${role}-${tag}@example.com`;
    const password = `pw-${tag}-long-enough`;
    const args = ['user', 'create', '--email', email, '--name', `A11y ${role}`, '--password-stdin'];
    if (role === 'admin') args.push('--admin');
    cli(args, { input: `${password}\n` });
    tokens.push(await login(email, password));
  }
  return { articleId: article.id, fileId: file.id, shareToken: share.token, userToken: tokens[0], adminToken: tokens[1] };
}

let seeded: Promise<Seed> | undefined;
const seedOnce = () => (seeded ??= seed());

type Who = 'guest' | 'user' | 'admin';
interface Visit {
  path: string;
  who: Who;
}

/** Every route, as the guest, then what only signed-in people see. */
function visits(s: Seed): Visit[] {
  const guest = [
    '/', '/skills', '/tools', '/tools/camera', '/tools/microphone', '/tools/ip', '/tools/tone_generator',
    '/chat', '/games', '/blog', `/blog/${s.articleId}`, '/filecloud', `/filecloud/${s.fileId}`, '/profile',
    `/s/${s.shareToken}`, '/profile?mode=register', '/privacy', '/terms', '/no-such-page',
  ];
  // (two visits in a row to one page — /profile, /profile?section=… — would keep its heading: the
  // wait for the next page's heading needs another page between them)
  return [
    ...guest.map((path) => ({ path, who: 'guest' as const })),
    { path: '/profile', who: 'user' },
    { path: '/filecloud', who: 'user' },
    { path: '/games', who: 'user' },
    { path: '/profile?section=settings', who: 'user' },
    { path: '/profile', who: 'admin' },
    { path: '/blog', who: 'admin' },
    { path: '/profile?section=admin', who: 'admin' },
    { path: `/blog/${s.articleId}`, who: 'admin' },
    { path: '/filecloud', who: 'admin' },
    { path: `/filecloud/${s.fileId}`, who: 'admin' },
    { path: '/games', who: 'admin' },
  ];
}

/**
 * Opens a route the way a visitor's click does (the app's router, no reload: the shell and axe
 * stay loaded), then waits until its page has arrived: the loader gone, its own heading, nothing busy.
 */
async function open(page: Page, path: string, reload: boolean) {
  if (reload) {
    await page.goto(path);
  } else {
    await page.evaluate((p) => {
      document.querySelector('main h1')?.setAttribute('data-a11y-left', '');
      history.pushState(null, '', p);
      dispatchEvent(new PopStateEvent('popstate', { state: null }));
    }, path);
  }
  await expect(page.getByTestId('app-loader')).toHaveCount(0);
  await expect(page.locator('main h1:not([data-a11y-left])').first()).toBeVisible();
  await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe's serious and critical violations on the page as it is now (axe injected once per document). */
async function axeProblems(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    const res = await axe.run(document, {
      resultTypes: ['violations'],
      // the visible text of a control is part of its accessible name (WCAG 2.5.3): an axe rule
      // still marked experimental, so it is switched on by name
      rules: { 'label-content-name-mismatch': { enabled: true } },
    });
    return res.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `axe ${v.id} (${v.impact}): ${v.nodes
          .slice(0, 5)
          .map((n) => `${n.target}${n.summary ? ` — ${n.summary.split('\n').slice(1).join(' ').trim()}` : ''}`)
          .join(' | ')}`,
    );
}

/** Sideways scrolling, selects and placeholders too narrow for their text, and (at phone size) interactive elements under 24×24 CSS px. */
function layoutProblems(page: Page, phone: boolean): Promise<string[]> {
  return page.evaluate((checkTargets) => {
    const out: string[] = [];
    const root = document.scrollingElement!;
    if (root.scrollWidth > window.innerWidth) {
      // name the widest element that sticks out, to find it quickly
      let widest = '';
      let max = window.innerWidth;
      for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
        const r = el.getBoundingClientRect();
        if (r.right > max + 0.5) {
          max = r.right;
          widest = `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
        }
      }
      out.push(`scrolls sideways: ${root.scrollWidth} > ${window.innerWidth} (${widest} ends at ${Math.round(max)})`);
    }
    // a select whose chosen option does not fit shows it cut ("Логарифмич"): the text, the side
    // paddings and the arrow (about 20 px) must fit its box
    const ctx = document.createElement('canvas').getContext('2d')!;
    for (const sel of document.querySelectorAll('select')) {
      const st = getComputedStyle(sel);
      if (st.display === 'none' || st.visibility === 'hidden' || sel.closest('[hidden], [inert]') || sel.clientWidth === 0) continue;
      ctx.font = `${st.fontStyle} ${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
      // whichever option is chosen: the longest must fit
      const text = [...sel.options].map((o) => o.textContent ?? '').sort((a, b) => ctx.measureText(b).width - ctx.measureText(a).width)[0] ?? '';
      // the browser's own arrow takes about 20 px beside the text; the site's select draws its arrow
      // inside its right padding (appearance: none)
      const arrow = st.appearance === 'none' ? 0 : 20;
      const need = ctx.measureText(text).width + parseFloat(st.paddingLeft) + parseFloat(st.paddingRight) + arrow;
      if (need > sel.clientWidth + 1) out.push(`select cuts its text: "${text}" needs ${Math.round(need)} px, has ${sel.clientWidth}`);
    }
    // a field's placeholder (its hint) shown whole, from the phone size up (below it, at 320 px, only
    // reflow is asked for: a label names every field)
    for (const input of window.innerWidth < 375 ? [] : document.querySelectorAll<HTMLInputElement>('input[placeholder]')) {
      const st = getComputedStyle(input);
      if (st.display === 'none' || st.visibility === 'hidden' || input.closest('[hidden], [inert]') || input.clientWidth <= 1) continue;
      ctx.font = `${st.fontStyle} ${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
      const need = ctx.measureText(input.placeholder).width + parseFloat(st.paddingLeft) + parseFloat(st.paddingRight);
      if (need > input.clientWidth + 1) out.push(`placeholder cut: "${input.placeholder}" needs ${Math.round(need)} px, has ${input.clientWidth}`);
    }
    // from the tablet size up, a table keeps its words whole (a column too narrow breaks "mis|match")
    if (window.innerWidth >= 720) {
      for (const cell of document.querySelectorAll('main th, main td')) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        const range = document.createRange();
        while (walker.nextNode()) {
          const node = walker.currentNode as Text;
          // the words between spaces and hyphens, where a line may break (an e-mail address or a
          // token is one long string that may break anywhere: letters only are words here)
          for (const m of node.data.matchAll(/[^\s\-‐/]+/g)) {
            if (!/^\p{L}+$/u.test(m[0])) continue;
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
            if (lines.size > 1) out.push(`word broken in a table: "${m[0]}"`);
          }
        }
      }
    }
    if (!checkTargets) return out;
    const describe = (el: Element) => {
      const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30);
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      return `${el.tagName.toLowerCase()}${cls}${text ? ` "${text}"` : ''}`;
    };
    /** An inline link inside running text (a sentence around it): exempt by WCAG 2.5.8. */
    const inRunningText = (el: Element) => {
      if (getComputedStyle(el).display !== 'inline') return false;
      let block = el.parentElement;
      while (block && getComputedStyle(block).display === 'inline') block = block.parentElement;
      const own = (el.textContent ?? '').trim().length;
      return !!block && (block.textContent ?? '').trim().length > own + 10;
    };
    for (const el of document.querySelectorAll(
      'a[href], button, input:not([type="hidden"]), select, [role="button"], summary',
    )) {
      if (el.closest('[inert], [hidden], details:not([open]) > :not(summary)')) continue;
      // a disabled control takes no pointer input: not a target
      if (el.matches(':disabled')) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      let r = el.getBoundingClientRect();
      // visually hidden (1 px) or parked off screen until focused, like the skip link
      if (r.width <= 1 || r.height <= 1 || r.bottom <= 0 || r.right <= 0) continue;
      // a checkbox or radio is also hit through its label
      const input = el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio') ? el : null;
      const label = input?.labels?.[0];
      if (label) {
        const l = label.getBoundingClientRect();
        const left = Math.min(r.left, l.left);
        const top = Math.min(r.top, l.top);
        r = new DOMRect(left, top, Math.max(r.right, l.right) - left, Math.max(r.bottom, l.bottom) - top);
      }
      // a "stretched" link: its absolutely placed ::after covers its card, and that is its target
      const after = getComputedStyle(el, '::after');
      if (after.content !== 'none' && after.position === 'absolute') {
        const box = (style.position === 'static' ? (el as HTMLElement).offsetParent : el) ?? el;
        const b = box.getBoundingClientRect();
        if (b.width > r.width && b.height > r.height) r = b;
      }
      if (r.width >= 23.5 && r.height >= 23.5) continue;
      if (inRunningText(el)) continue;
      out.push(`target ${Math.round(r.width)}×${Math.round(r.height)}: ${describe(el)}`);
    }
    return out;
  }, phone);
}

async function signInAs(page: Page, who: Who, s: Seed) {
  await page.evaluate(
    (t) => (t ? localStorage.setItem('token', t) : localStorage.removeItem('token')),
    who === 'user' ? s.userToken : who === 'admin' ? s.adminToken : null,
  );
}

interface Sweep {
  lang: 'uk' | 'ru' | 'en';
  width: number;
  height: number;
  axe: boolean;
  colorScheme?: 'light' | 'dark';
  screenshots: boolean;
}

async function sweep(browser: Browser, cfg: Sweep, testInfo: TestInfo) {
  const s = await seedOnce();
  const context = await browser.newContext({
    baseURL,
    locale: 'en-US',
    timezoneId: 'UTC',
    viewport: { width: cfg.width, height: cfg.height },
    colorScheme: cfg.colorScheme ?? 'light',
  });
  await context.addInitScript((l) => localStorage.setItem('preferredLanguage', l), cfg.lang);
  const page = await context.newPage();
  const problems: string[] = [];
  let who: Who = 'guest';
  try {
    for (const v of visits(s)) {
      // the token is read when the app starts: a new person means a fresh start
      const fresh = v.who !== who || page.url() === 'about:blank';
      if (v.who !== who) {
        if (page.url() === 'about:blank') await page.goto('/');
        await signInAs(page, v.who, s);
        who = v.who;
      }
      await open(page, v.path, fresh);
      const where = `${v.path} as ${v.who}`;
      if (cfg.axe) for (const p of await axeProblems(page)) problems.push(`${where}: ${p}`);
      for (const p of await layoutProblems(page, cfg.width < 500)) problems.push(`${where}: ${p}`);
      if (cfg.screenshots) {
        await testInfo.attach(`${cfg.width}x${cfg.height} ${v.who} ${v.path}`, {
          body: await page.screenshot({ fullPage: true }),
          contentType: 'image/png',
        });
      }
    }
  } finally {
    await context.close();
  }
  expect(problems).toEqual([]);
}

for (const lang of ['uk', 'ru', 'en'] as const) {
  for (const [width, height] of [
    [375, 812],
    [1280, 800],
  ] as const) {
    test(`every route in ${lang} at ${width}×${height}: no serious axe violation, no sideways scroll, nothing cut, targets ≥ 24 px`, async ({
      browser,
    }, testInfo) => {
      test.setTimeout(180_000);
      await sweep(browser, { lang, width, height, axe: true, screenshots: lang === 'en' }, testInfo);
    });
  }
}

// The dark theme passes the same checks: at the desktop size, and at the phone size (its own
// layout: the header's buttons, stacked cards) in another language.
for (const [lang, width, height] of [
  ['en', 1280, 800],
  ['uk', 375, 812],
] as const) {
  test(`every route in the dark theme (${lang}, ${width}×${height}): no serious axe violation`, async ({ browser }, testInfo) => {
    test.setTimeout(180_000);
    await sweep(browser, { lang, width, height, axe: true, colorScheme: 'dark', screenshots: false }, testInfo);
  });
}

// WCAG 1.4.10 (reflow): down to 320 CSS px wide nothing scrolls sideways, in the language of the
// longest words.
test('every route at 320×640 (ru): no sideways scroll, no select cut, targets ≥ 24 px', async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  await sweep(browser, { lang: 'ru', width: 320, height: 640, axe: false, screenshots: false }, testInfo);
});

test('every route at 768×1024 (en): no sideways scroll, screenshots', async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  await sweep(browser, { lang: 'en', width: 768, height: 1024, axe: false, screenshots: true }, testInfo);
});

/** WCAG contrast ratio of two computed CSS colours (rgb()/rgba() strings, opaque). */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const s = Number(v) / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test('article readability at 375 px in both themes: code stands out, scrolls by keyboard, copies; links underlined at ≥ 4.5:1', async ({
  browser,
}) => {
  const s = await seedOnce();
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ baseURL, viewport: { width: 375, height: 812 }, colorScheme });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
    await context.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
    const page = await context.newPage();
    try {
      await page.goto(`/blog/${s.articleId}`);
      const code = page.getByRole('region', { name: /^Code/ });
      await expect(code).toHaveCount(1);
      const look = await code.evaluate((el) => {
        const block = getComputedStyle(el.closest('.code-block')!);
        return {
          bg: block.backgroundColor,
          page: getComputedStyle(document.body).backgroundColor,
          border: parseFloat(block.borderTopWidth),
          overflowX: getComputedStyle(el).overflowX,
          scrollWidth: el.scrollWidth,
          clientWidth: el.clientWidth,
          text: el.textContent ?? '',
        };
      });
      expect(look.bg, colorScheme).not.toBe(look.page);
      expect(look.border, colorScheme).toBeGreaterThan(0);
      expect(look.overflowX).toBe('auto');
      // the long line is kept whole and reached by scrolling, not wrapped or cut
      expect(look.scrollWidth).toBeGreaterThan(look.clientWidth);
      expect(look.text).toContain('a long line that does not fit a phone screen '.repeat(4));
      await code.focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => code.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);

      await page.getByRole('button', { name: 'Copy' }).click();
      await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
      await expect(page.locator('.code-block [role="status"]')).toHaveText('Code copied to the clipboard');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(look.text.replace(/\n$/, ''));

      const link = page.locator('.blog-article__content a', { hasText: 'an inline link' });
      const style = await link.evaluate((el) => ({
        color: getComputedStyle(el).color,
        decoration: getComputedStyle(el).textDecorationLine,
        page: getComputedStyle(document.body).backgroundColor,
      }));
      expect(style.decoration).toContain('underline');
      expect(contrast(style.color, style.page), colorScheme).toBeGreaterThanOrEqual(4.5);
    } finally {
      await context.close();
    }
  }
});

test('logos on the portfolio pages stand out from the page in both themes (≥ 3:1)', async ({ browser }) => {
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 }, colorScheme });
    await context.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
    const page = await context.newPage();
    try {
      for (const [path, sel] of [
        ['/skills', 'img.profile-icon[data-icon="go"]'],
        ['/tools', 'img.profile-icon[data-icon="git"]'],
        ['/', '.owner__links img.profile-icon'],
      ] as const) {
        await page.goto(path);
        const icon = page.locator(sel).first();
        await expect(icon).toBeVisible();
        await expect.poll(() => icon.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
        const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        const shot = await pixels(page, await icon.screenshot());
        // the logo's strongest pixel against the page: a shape drawn in the page's colour has none
        let best = 1;
        for (let y = 0; y < shot.height; y++) {
          for (let x = 0; x < shot.width; x++) best = Math.max(best, contrast(`rgb(${shot.at(x, y).join(',')})`, bg));
        }
        expect(best, `${colorScheme} ${path} ${sel}`).toBeGreaterThanOrEqual(3);
      }
    } finally {
      await context.close();
    }
  }
});

// What the route sweep cannot see: the parts that open over a page. Each is opened as a visitor
// opens it and axe runs with it open, in both themes.
test('opened overlays — the drawer, the Tools and language menus, the new-article dialog — have no serious axe violation, in both themes', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const s = await seedOnce();
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const lang of ['uk', 'en'] as const) {
      const context = await browser.newContext({ baseURL, viewport: { width: 375, height: 812 }, colorScheme });
      await context.addInitScript(
        ([l, t]) => {
          localStorage.setItem('preferredLanguage', l);
          localStorage.setItem('token', t);
        },
        [lang, s.adminToken] as const,
      );
      const page = await context.newPage();
      const problems: string[] = [];
      const check = async (what: string) => {
        // measured once the opening animation has ended (half-faded text has no contrast to speak of)
        await page.evaluate(() => Promise.all(document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity).map((a) => a.finished)));
        for (const p of await axeProblems(page)) problems.push(`${colorScheme} ${lang} ${what}: ${p}`);
      };
      try {
        await page.goto('/blog');
        await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
        await expect(page.getByRole('article').first()).toBeVisible();

        await page.locator('header .menu-button').click();
        await expect(page.locator('.sidebar')).toBeVisible();
        await check('drawer');
        await page.keyboard.press('Escape');
        await expect(page.locator('.sidebar')).toBeHidden();

        await page.locator('header .lang__toggle').click();
        await expect(page.getByRole('menu')).toBeVisible();
        await check('language menu');
        await page.keyboard.press('Escape');
        await expect(page.getByRole('menu')).toHaveCount(0);

        await page.setViewportSize({ width: 1280, height: 800 });
        await page.locator('header .dropdown__toggle').click();
        await expect(page.getByRole('menu')).toBeVisible();
        await check('Tools menu');
        await page.keyboard.press('Escape');

        await page.locator('main .blog__create').click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await check('new-article dialog');
      } finally {
        await context.close();
      }
      expect(problems).toEqual([]);
    }
  }
});
