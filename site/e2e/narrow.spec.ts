import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { cli, cliJson, createAccount, expect, signInNewAccount, test, uid } from './fixtures';

// What a visitor's walk at 375 px found: each page keeps its content on screen and readable on a
// phone — share links as cards with their buttons in reach, e-mails broken where a reader breaks
// them, an article without a picture without a block of grey, the settings' cards apart.

const WIDTH = 375;
test.use({ viewport: { width: WIDTH, height: 812 } });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    if (window.top === window && !localStorage.getItem('preferredLanguage')) localStorage.setItem('preferredLanguage', 'en');
  });
});

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGP4z8DA8B+MgBgAHfAD/dPQfSYAAAAASUVORK5CYII=';

/** Signs in with a session the API accepts from the page. */
async function signInAs(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/');
  const token = await page.evaluate(
    async ([e, p]) => {
      const res = await fetch('/api/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: e, password: p }) });
      if (!res.ok) throw new Error(`login: ${res.status}`);
      return ((await res.json()) as { tokens: { accessToken: string } }).tokens.accessToken;
    },
    [email, password],
  );
  await page.evaluate((t) => localStorage.setItem('token', t), token);
}

test('share links at 375 px: one card per link, the link on one line, its buttons on screen', async ({ page, consoleErrors }) => {
  const { token } = await signInNewAccount(page, { prefix: 'narrow-share', name: 'Narrow' });
  const name = `narrow-${uid()}.png`;
  const id = await page.evaluate(
    async ([t, n, b64]) => {
      const form = new FormData();
      form.append('files', new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], { type: 'image/png' }), n);
      const up = await fetch('/api/files/upload', { method: 'POST', headers: { Authorization: `Bearer ${t}` }, body: form });
      const fileId = ((await up.json()) as { files: { id: number }[] }).files[0].id;
      const share = await fetch(`/api/files/${fileId}/shares`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${t}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ password: 'open sesame' }),
      });
      if (share.status !== 201) throw new Error(`share: ${share.status}`);
      return fileId;
    },
    [token, name, PNG] as const,
  );
  await page.goto(`/filecloud/${id}`);
  const row = page.locator('.share-list tbody tr').first();
  await expect(row).toBeVisible();

  const link = row.locator('.share-list__url code');
  const url = (await link.textContent()) ?? '';
  expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{22,}$/);
  await expect(link).toHaveAttribute('title', url);
  // one line: no taller than its line height, however long the link
  const lines = await link.evaluate((el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight || '20'));
  expect(lines).toBeLessThan(1.5);

  for (const button of [row.getByRole('button', { name: 'Copy' }), row.getByRole('button', { name: /^Revoke the link/ })]) {
    await expect(button).toBeVisible();
    const box = (await button.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(WIDTH);
  }
  // the page itself does not scroll sideways
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH);
  expect(consoleErrors).toEqual([]);
});

test('the admin list at 375 px breaks an e-mail after its "@" or before a dot, never inside a word', async ({ page }) => {
  const admin = createAccount({ prefix: 'narrow-admin', name: 'Admin', admin: true });
  const email = `olena.kovalenko.developer.${uid()}@mail.examplecompany.com`;
  cli(['user', 'create', '--email', email, '--name', 'Long', '--password-stdin'], { input: `pw-${uid()}-long-enough\n` });
  await signInAs(page, admin.email, admin.password);
  await page.goto(`/profile?section=admin`);
  await page.getByLabel('Search users').fill(email);
  const cell = page.locator('.admin-users__email', { hasText: email.split('@')[0] });
  await expect(cell).toHaveText(email);
  // Where the lines start: the text's characters, each with the top of its box.
  const breaks = await cell.evaluate((td) => {
    const text = td.textContent ?? '';
    const tops: number[] = [];
    const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (let i = 0; i < (n.textContent ?? '').length; i++) {
        const r = document.createRange();
        r.setStart(n, i);
        r.setEnd(n, i + 1);
        tops.push(Math.round(r.getBoundingClientRect().top));
      }
    }
    const at: string[] = [];
    for (let i = 1; i < tops.length; i++) if (tops[i] > tops[i - 1]) at.push(`${text[i - 1]}|${text[i]}`);
    return at;
  });
  expect(breaks.length).toBeGreaterThan(0); // the address is longer than the line
  // after the "@", before a dot, or after a hyphen (where any text may break)
  for (const b of breaks) expect(b.startsWith('@|') || b.endsWith('|.') || b.startsWith('-|'), `a break inside a word: ${b}`).toBe(true);
});

test('an article without a picture has no grey block at 375 px', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'devhub-narrow-'));
  const md = join(dir, 'a.md');
  writeFileSync(md, 'Just words.\n');
  const word = `imageless${uid()}`;
  const created = cliJson<{ id: number }>(['article', 'create', '--name', `No picture ${word}`, '--excerpt', 'An article without an image', '--category', 'Narrow', '--file', md]);
  try {
    await page.goto(`/blog?search=${word}`);
    const card = page.getByRole('article').filter({ hasText: word });
    await expect(card).toBeVisible();
    await expect(card.locator('.blog-card__media')).toBeHidden();
    // the card is its text: no 176 px box above it
    const [cardBox, bodyBox] = [(await card.boundingBox())!, (await card.locator('.blog-card__body').boundingBox())!];
    expect(cardBox.height - bodyBox.height).toBeLessThan(4);
  } finally {
    // The blog's first page is what other specs read: the article goes again.
    cli(['article', 'rm', String(created.id)]);
  }
});

test('the settings cards stand apart: the password form does not touch two-factor sign-in', async ({ page }) => {
  await signInNewAccount(page, { prefix: 'narrow-settings', name: 'Settings' });
  for (const width of [WIDTH, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/profile?section=settings');
    const form = page.getByRole('form', { name: /Change password/i });
    const twoFactor = page.locator('.twofactor');
    await expect(twoFactor).toBeVisible();
    const a = (await form.boundingBox())!;
    const b = (await twoFactor.boundingBox())!;
    expect(b.y - (a.y + a.height), `gap at ${width} px`).toBeGreaterThanOrEqual(16);
  }
});
