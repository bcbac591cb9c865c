import type { Page } from '@playwright/test';
import { cli, cliJson, expect, networkQuiet, test } from './fixtures';

// Accounts end to end: the real binary, the real browser, the CLI over the owner socket.
// The interface is switched to Ukrainian, the spec's language, so the spec's texts are checked.

const unique = (name: string) => `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'uk'));
});

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Головна навігація' });
const sectionMenu = (page: Page) => page.getByRole('navigation', { name: 'Розділи профілю' });
const loginForm = (page: Page) => page.getByRole('form', { name: 'Вхід' });
const token = (page: Page) => page.evaluate(() => localStorage.getItem('token'));

async function login(page: Page, email: string, password: string) {
  const form = loginForm(page);
  await form.getByLabel('Електронна пошта').fill(email);
  await form.getByLabel('Пароль', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Увійти', exact: true }).click();
}

async function logout(page: Page) {
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Вийти' }).first().click();
  await expect(loginForm(page)).toBeVisible();
}

test('register → overview → logout → login → change password → the old password fails', async ({ page, consoleErrors }) => {
  const email = unique('olena');
  await page.goto('/profile?mode=register');
  const form = page.getByRole('form', { name: 'Реєстрація' });
  await expect(form).toBeVisible();

  // Mismatched passwords: the spec's text, and nothing reaches the server.
  let registerCalls = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/auth/register')) registerCalls++;
  });
  await form.getByLabel("Ім'я").fill('Олена');
  await form.getByLabel('Електронна пошта').fill(email);
  await form.getByLabel('Пароль', { exact: true }).fill('first-password');
  await form.getByLabel('Підтвердіть пароль').fill('other-password');
  await form.getByRole('button', { name: 'Зареєструватися' }).click();
  await expect(form.getByRole('alert')).toHaveText('Паролі не співпадають');
  expect(registerCalls).toBe(0);

  await form.getByLabel('Підтвердіть пароль').fill('first-password');
  await form.getByRole('button', { name: 'Зареєструватися' }).click();
  await expect(page.getByRole('heading', { level: 2, name: email })).toBeVisible();
  await expect(page.getByText('Онлайн')).toBeVisible();
  expect(registerCalls).toBe(1);
  expect(await token(page)).toBeTruthy();

  // The refresh token is an httpOnly, SameSite=Strict cookie scoped to /api/auth.
  const cookie = (await page.context().cookies()).find((c) => c.name === 'refresh_token');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });

  // A reload keeps the session; a plain user has no admin entry anywhere.
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: email })).toBeVisible();
  await expect(mainNav(page).getByRole('link', { name: 'Адмін-панель' })).toHaveCount(0);
  await expect(sectionMenu(page).getByRole('link', { name: 'Адмін-панель' })).toHaveCount(0);

  await logout(page);
  expect(await token(page)).toBeNull();
  await expect(page).toHaveURL(/\/profile$/);

  await login(page, email, 'first-password');
  await expect(page.getByRole('heading', { level: 2, name: email })).toBeVisible();

  await sectionMenu(page).getByRole('link', { name: 'Налаштування' }).click();
  const change = page.getByRole('form', { name: 'Зміна пароля' });
  await change.getByLabel('Поточний пароль').fill('first-password');
  await change.getByLabel('Новий пароль').fill('second-password');
  await change.getByRole('button', { name: 'Змінити пароль' }).click();
  await expect(change.getByText('Пароль успішно змінено')).toBeVisible();
  await expect(change.getByLabel('Поточний пароль')).toHaveValue('');
  // Still signed in with the fresh token the change handed back.
  await sectionMenu(page).getByRole('link', { name: 'Огляд' }).click();
  await expect(page.getByRole('heading', { level: 2, name: email })).toBeVisible();

  await logout(page);
  await login(page, email, 'first-password');
  await expect(loginForm(page).getByRole('alert')).toHaveText('Помилка входу');
  await login(page, email, 'second-password');
  await expect(page.getByRole('heading', { level: 2, name: email })).toBeVisible();

  await networkQuiet(page);
  expect(consoleErrors.filter((e) => !/status of 401/.test(e))).toEqual([]);
});

test('an admin created with `devhub user create --admin` sees the user list', async ({ page }) => {
  const admin = unique('admin');
  const plain = unique('plain');
  // Through the owner socket of the running server (the store is locked by it).
  cli(['user', 'create', '--email', admin, '--name', 'Admin', '--admin', '--password-stdin'], { input: 'admin-password\n' });
  cli(['user', 'create', '--email', plain, '--name', 'Plain', '--password-stdin'], { input: 'plain-password\n' });
  const users = cliJson<Array<{ email: string; role: string }>>(['user', 'list']);
  expect(users.find((u) => u.email === admin)?.role).toBe('admin');
  // Seeding again is harmless with --if-not-exists, an error without it.
  cli(['user', 'create', '--email', admin, '--name', 'Admin', '--admin', '--password-stdin', '--if-not-exists'], { input: 'x\n' });
  expect(() => cli(['user', 'create', '--email', admin, '--name', 'Admin', '--password-stdin'], { input: 'admin-password\n' })).toThrow(
    new RegExp(admin.replace(/[.+]/g, '\\$&')),
  );

  await page.goto('/profile');
  await login(page, admin, 'admin-password');
  await expect(page.getByText('Адміністратор', { exact: true })).toBeVisible();
  await mainNav(page).getByRole('link', { name: 'Адмін-панель' }).click();
  await expect(page).toHaveURL(/section=admin/);
  const table = page.getByRole('table', { name: 'Користувачі' });
  await expect(table.getByRole('row').filter({ hasText: admin })).toContainText('адміністратор');
  await expect(table.getByRole('row').filter({ hasText: plain })).toContainText('користувач');

  // On a phone the rows are laid out as cards and are still a table's rows and cells.
  await page.setViewportSize({ width: 390, height: 844 });
  const card = table.getByRole('row').filter({ hasText: admin });
  await expect(card.getByRole('cell', { name: admin })).toBeVisible();
  await expect(card.getByRole('cell', { name: 'адміністратор' })).toBeVisible();
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(390);
});

test("a plain user sees 'Доступ заборонено' on the admin panel", async ({ page }) => {
  const email = unique('user');
  cli(['user', 'create', '--email', email, '--name', 'User', '--password-stdin'], { input: 'user-password\n' });
  await page.goto('/profile?section=admin');
  // A guest gets the section's description and the login form.
  await expect(page.getByText('Керування користувачами сайту. Лише для адміністраторів.')).toBeVisible();
  await login(page, email, 'user-password');
  await expect(page.getByRole('heading', { name: 'Доступ заборонено' })).toBeVisible();
  await expect(page.getByText('Ця сторінка доступна лише адміністраторам.')).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
});

test('an expired access token is refreshed by the cookie; `user sessions revoke` signs the browser out', async ({ page }) => {
  const email = unique('refresh');
  cli(['user', 'create', '--email', email, '--name', 'R', '--password-stdin'], { input: 'refresh-password\n' });
  await page.goto('/profile');
  await login(page, email, 'refresh-password');
  await expect(page.getByRole('heading', { level: 2, name: email })).toBeVisible();
  const first = await token(page);

  // An access token the server no longer accepts: the client refreshes once and carries on.
  await page.evaluate(() => localStorage.setItem('token', 'expired.or.forged'));
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: email })).toBeVisible();
  const second = await token(page);
  expect(second).toBeTruthy();
  expect(second).not.toBe('expired.or.forged');
  expect(second).not.toBe(first);

  // The owner logs the account out everywhere: the next load cannot refresh and signs out.
  expect(cli(['user', 'sessions', 'revoke', email])).toContain('ended');
  await page.reload();
  await expect(loginForm(page)).toBeVisible();
  expect(await token(page)).toBeNull();
});
