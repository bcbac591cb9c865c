import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

// The main flows by keyboard only (issue 16, "Keyboard and screen readers"): no mouse click in
// this file — Tab, arrows, Enter, Space and Escape. Where the OS file picker would open,
// setInputFiles stands in for it.

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    if (!localStorage.getItem('preferredLanguage')) localStorage.setItem('preferredLanguage', 'en');
  });
});

/** Presses Tab until the focused element matches, at most `max` times (a keyboard user's path). */
async function tabTo(page: Page, matches: (el: Element) => boolean, max = 40, back = false) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const hit = await page.evaluateHandle(() => document.activeElement);
    if (await hit.evaluate(matches)) return;
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
  await expect(menu.getByRole('menuitem', { name: 'Camera' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Microphone' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(menu.getByRole('menuitem', { name: 'Tone generator' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Camera' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(tools).toBeFocused();

  // Arrow Up opens on the last item; Enter follows it
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
  expect(await inert('#main')).toBe(true);
  expect(await inert('.sidebar')).toBe(false);

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
