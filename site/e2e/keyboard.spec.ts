import type { Locator, Page } from '@playwright/test';
import { expect, signInNewAccount, test, uid } from './fixtures';

// The main flows by keyboard only ("Keyboard and screen readers"): no mouse click in
// this file — Tab, arrows, Enter, Space and Escape. Where the OS file picker would open,
// setInputFiles stands in for it.

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    // Init scripts run in every frame; a PDF preview's viewer frame has no localStorage.
    if (window.top === window && !localStorage.getItem('preferredLanguage')) localStorage.setItem('preferredLanguage', 'en');
  });
});

/** Signs the page in as a new account (not a flow under test). */
const signIn = (page: Page, role: 'user' | 'admin') =>
  signInNewAccount(page, { prefix: `keys-${role}`, name: `Keys ${role}`, admin: role === 'admin' });

/** Presses Tab until the focused element matches, at most `max` times (a keyboard user's path). */
async function tabTo(page: Page, matches: (el: Element) => boolean, max = 60, back = false) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const hit = await page.evaluateHandle(() => document.activeElement);
    if (await hit.evaluate(matches)) return;
  }
  throw new Error('the element was not reached by Tab');
}

/** Presses Tab until `target` has the focus, at most `max` times. */
async function tabToLocator(page: Page, target: Locator, max = 80) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error('the element was not reached by Tab');
}

const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim();
  });

test('the Tools menu: open by keyboard, move with arrows, Escape returns the focus', async ({ page }) => {
  await page.goto('/');
  const tools = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'Tools' });
  await expect(tools).toBeVisible();
  await tabTo(page, (el) => el.textContent?.trim() === 'Tools' && el.tagName === 'BUTTON');
  await expect(tools).toBeFocused();

  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name: 'Tools menu' });
  await expect(menu).toBeVisible();
  await expect(tools).toHaveAttribute('aria-expanded', 'true');
  await expect(menu.getByRole('menuitem', { name: 'Development tools' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Camera' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(menu.getByRole('menuitem', { name: 'Skills' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Development tools' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(tools).toBeFocused();

  // Arrow Up opens on the last item; Enter follows it
  await page.keyboard.press('ArrowUp');
  await expect(menu.getByRole('menuitem', { name: 'Skills' })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(menu.getByRole('menuitem', { name: 'Tone generator' })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(menu.getByRole('menuitem', { name: 'Your IP' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/tools\/ip$/);
  await expect(menu).toBeHidden();

  // Tab leaves the open menu and closes it
  await tools.focus();
  await page.keyboard.press('ArrowDown');
  await expect(menu).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(menu).toBeHidden();
  await expect(tools).not.toBeFocused();
});

test('the language is switched by keyboard', async ({ page }) => {
  await page.goto('/');
  const lang = page.getByRole('button', { name: /Choose language/ });
  await tabTo(page, (el) => (el.getAttribute('aria-label') ?? '').includes('Choose language'));
  await page.keyboard.press('Space');
  const menu = page.getByRole('menu', { name: 'Choose language' });
  await expect(menu.getByRole('menuitemradio', { name: 'Українська' })).toBeFocused();
  await expect(menu.getByRole('menuitemradio', { name: 'English' })).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Escape');
  await expect(lang).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitemradio', { name: 'Русский' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(page.getByRole('button', { name: /Выберите язык/ })).toBeFocused();
  await expect(page.getByRole('navigation', { name: 'Главная навигация' }).getByRole('link', { name: 'Блог' })).toBeVisible();
});

test('at 375 px the drawer takes the focus, traps it, leaves the page inert and gives the focus back', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/');
  const menuButton = page.getByRole('button', { name: 'Open menu' });
  await expect(menuButton).toBeVisible();
  await tabTo(page, (el) => el.getAttribute('aria-label') === 'Open menu');
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('navigation', { name: 'Menu' });
  await expect(drawer).toBeVisible();
  const close = drawer.getByRole('button', { name: 'Close menu' });
  await expect(close).toBeFocused();

  // the page behind is inert
  const inert = (sel: string) => page.locator(sel).evaluate((el) => el.closest('[inert]') !== null);
  expect(await inert('header.site-header')).toBe(true);
  expect(await inert('.sidebar')).toBe(false);
  // Everything in the page's content that could take the focus is inside an inert subtree (a
  // live region there, such as a loading status, stays readable, so #main itself may not be).
  const reachableInMain = await page
    .locator('#main')
    .evaluate((main) => [...main.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')].filter((el) => !el.closest('[inert]')).length);
  expect(reachableInMain).toBe(0);

  // Tab goes round inside: the focus never leaves the drawer, forwards or backwards
  const count = await drawer.locator('a[href], button').count();
  for (let i = 0; i < count + 2; i++) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('.sidebar'))).toBe(true);
  }
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('.sidebar'))).toBe(true);
  }

  // Escape closes it, the page is live again, the focus is back on the menu button
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(menuButton).toBeFocused();
  await expect(page.locator('[inert]')).toHaveCount(0);

  // the close button does the same
  await page.keyboard.press('Enter');
  await expect(close).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(drawer).toBeHidden();
  await expect(menuButton).toBeFocused();

  // and a link in it is reached and followed by keyboard
  await page.keyboard.press('Enter');
  await tabTo(page, (el) => el.textContent?.trim() === 'Blog' && el.tagName === 'A', 10);
  expect(await focusedName(page)).toBe('Blog');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/blog$/);
  await expect(drawer).toBeHidden();
});

test('an admin creates and deletes a blog article by keyboard; the form fits an 800 px window', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, 'admin');
  const name = `Keyboard article ${uid()}`;
  await page.goto('/blog');
  await expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible();
  await tabTo(page, (el) => el.textContent?.trim() === 'New article');
  await page.keyboard.press('Enter');

  const form = page.getByRole('dialog', { name: 'New article' });
  await expect(form).toBeVisible();
  // the whole dialog and its buttons are in the window; the fields scroll inside it
  const box = (await form.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(800);
  await expect(form.getByRole('button', { name: 'Create' })).toBeInViewport();
  await expect(form.getByRole('button', { name: 'Cancel' })).toBeInViewport();

  await expect(form.getByLabel('Title')).toBeFocused();
  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  await expect(form.getByLabel('Summary')).toBeFocused();
  await page.keyboard.type('Written without a mouse');
  await page.keyboard.press('Tab');
  await page.keyboard.type('# Keys\n\nTab, Enter, Escape.');
  await page.keyboard.press('Tab');
  await expect(form.getByLabel('Category')).toBeFocused();
  await page.keyboard.type('A11y');
  // the article's language: the select by keyboard (English → Українська)
  await tabTo(page, (el) => el.id === 'blog-form-lang', 3);
  await page.keyboard.press('ArrowDown');
  await expect(form.getByLabel('Language')).toHaveValue('uk');
  // the focus stays in the dialog: Tab past the last button comes back to the first control
  await tabTo(page, (el) => el.textContent?.trim() === 'Create', 6);
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
  await tabTo(page, (el) => el.textContent?.trim() === 'Create', 12);
  await page.keyboard.press('Enter');
  // the toast is said by screen readers: it is inside a polite live region
  await expect(page.locator('[aria-live="polite"]').getByText('Article created successfully')).toBeVisible();
  await expect(form).toBeHidden();

  // the new article is Ukrainian: in the English interface it comes after the English ones (maybe
  // on a later page), so find it with the search box, by keyboard, marked with its language
  await tabToLocator(page, page.getByLabel('Search articles'));
  await page.keyboard.type(name);
  const card = page.getByRole('article').filter({ has: page.getByRole('link', { name }) });
  await expect(card).toBeVisible();
  await expect(card.getByText('In Ukrainian')).toBeVisible();

  // delete it: Tab to its delete button, Enter; the confirmation opens on Cancel
  const del = page.getByRole('button', { name: `Delete article “${name}”` });
  await tabToLocator(page, del);
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('alertdialog', { name: /Delete this article/ });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(del).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(confirm.getByRole('button', { name: 'Delete' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Article deleted successfully')).toBeVisible();
  await expect(page.getByRole('link', { name })).toHaveCount(0);
});

test('a file is uploaded and its preview opened and closed by keyboard', async ({ page }) => {
  await signIn(page, 'user');
  const name = `keys-${uid()}.png`;
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGP4z8DA8B+MgBgAHfAD/dPQfSYAAAAASUVORK5CYII=',
    'base64',
  );
  await page.goto('/filecloud');
  await expect(page.getByRole('heading', { level: 1, name: 'File cloud' })).toBeVisible();
  // the OS file picker is the one thing a test cannot drive: setInputFiles stands in for it
  await page.getByLabel('Choose files').setInputFiles({ name, mimeType: 'image/png', buffer: png });
  await tabTo(page, (el) => el.tagName === 'BUTTON' && el.textContent?.trim() === 'Upload');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Files uploaded successfully!')).toBeVisible();

  const row = page.getByRole('listitem').filter({ has: page.getByRole('link', { name, exact: true }) });
  await expect(row).toBeVisible();
  const preview = row.getByRole('button', { name: 'Preview', exact: true });
  await page.getByRole('link', { name, exact: true }).focus();
  await tabTo(page, (el) => el.textContent?.trim() === 'Preview', 8);
  await expect(preview).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Preview: ${name}` });
  await expect(dialog.getByRole('img', { name })).toBeVisible();
  expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(preview).toBeFocused();
});

test('a game is chosen and started by keyboard', async ({ page }) => {
  await page.goto('/games');
  const consoles = page.getByRole('navigation', { name: 'Consoles' });
  const snes = consoles.getByRole('button', { name: /SNES/ });
  await expect(snes).toBeVisible();
  await tabTo(page, (el) => el.tagName === 'BUTTON' && /SNES/.test(el.textContent ?? ''), 80);
  await page.keyboard.press('Enter');
  await expect(snes).toHaveAttribute('aria-pressed', 'true');
  const game = page.getByRole('button', { name: 'Play Colour Test SNES' });
  await expect(game).toBeVisible();
  await tabTo(page, (el) => el.getAttribute('aria-label') === 'Play Colour Test SNES' || el.textContent?.trim() === 'Play Colour Test SNES', 80);
  await expect(game).toBeFocused();
  await page.keyboard.press('Enter');
  const frame = page.locator('iframe[title="Game: Colour Test SNES"]');
  await expect(frame).toBeVisible();
  await expect(frame).toHaveAttribute('src', /core=snes9x/);
});

test('the tone generator plays and changes frequency by keyboard', async ({ page }) => {
  await page.goto('/tools/tone_generator');
  await expect(page.getByRole('heading', { level: 1, name: 'Tone generator' })).toBeVisible();
  const play = page.locator('button.tone-play');
  await tabTo(page, (el) => el.classList.contains('tone-play'), 80);
  await page.keyboard.press('Enter');
  await expect(play).toHaveAttribute('aria-pressed', 'true');

  const exact = page.getByRole('button', { name: /Exact frequency/ });
  await tabTo(page, (el) => el.getAttribute('aria-controls') === 'tone-exact', 80);
  await expect(exact).toBeFocused();
  await page.keyboard.press('Space');
  await expect(exact).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Tab');
  const field = page.getByRole('spinbutton', { name: 'Frequency, Hz' });
  await expect(field).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('1000');
  await page.keyboard.press('Enter');
  await expect(play).toContainText('1.0 kHz');

  await play.focus();
  await page.keyboard.press('Space');
  await expect(play).toHaveAttribute('aria-pressed', 'false');
});

test('the shipped article pair: the English one is listed first in English, its switch leads to the Ukrainian one', async ({ page }) => {
  await page.goto('/blog');
  // both versions show the same code: the search finds the pair, English first, the Ukrainian one marked
  await tabToLocator(page, page.getByLabel('Search articles'));
  await page.keyboard.type('RenderMarkdown');
  const cards = page.getByRole('article');
  await expect(cards).toHaveCount(2);
  const en = cards.nth(0);
  await expect(en.getByRole('heading')).toHaveText(/^The devhub blog/);
  await expect(en.locator('.blog-card__lang')).toHaveCount(0);
  await expect(cards.nth(1).getByRole('heading')).toHaveText(/^Блог devhub/);
  await expect(cards.nth(1).locator('.blog-card__lang')).toHaveText('In Ukrainian');

  await tabToLocator(page, en.getByRole('link', { name: /^The devhub blog/ }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: /^The devhub blog/ })).toHaveAttribute('lang', 'en');
  const uk = page.getByRole('navigation', { name: 'Also in' }).getByRole('link', { name: 'Українська' });
  await expect(uk).toHaveAttribute('hreflang', 'uk');
  await tabToLocator(page, uk);
  await page.keyboard.press('Enter');
  const h1 = page.getByRole('heading', { level: 1, name: /^Блог devhub/ });
  await expect(h1).toHaveAttribute('lang', 'uk');
  await expect(page.locator('.blog-article__content')).toHaveAttribute('lang', 'uk');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('navigation', { name: 'Also in' }).getByRole('link', { name: 'English' })).toBeVisible();
});
