import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import ProfilePage from './ProfilePage';

beforeAll(async () => {
  await initTestI18n('uk');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const USER = { id: 2, email: 'dev@example.com', name: 'Dev', role: 'user' };
const ADMIN = { id: 1, email: 'boss@example.com', name: 'Boss', role: 'admin' };

function signedIn(user: typeof USER, extra: Parameters<typeof stubFetch>[0] = {}) {
  localStorage.setItem('token', 'tok');
  return stubFetch({ 'GET /api/auth/profile': () => json(user), ...extra });
}

const sectionMenu = () => screen.getByRole('navigation', { name: 'Розділи профілю' });
const location = () => screen.getByTestId('location').textContent;

describe('ProfilePage for guests', () => {
  it('shows the section description and the login form; the admin entry is hidden', () => {
    stubFetch();
    renderWithShell(<ProfilePage />, { route: '/profile' });
    expect(screen.getByRole('heading', { level: 1, name: 'Профіль' })).toBeTruthy();
    expect(screen.getByText('Особистий кабінет: ваш обліковий запис, статус і швидкі посилання.')).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Вхід' })).toBeTruthy();
    const items = within(sectionMenu()).getAllByRole('link').map((a) => a.textContent);
    expect(items).toEqual(['Огляд', 'Повідомлення', 'Друзі', 'Сповіщення', 'Посиденьки', 'Налаштування']);
  });

  it('?mode=register opens the registration form', () => {
    stubFetch();
    renderWithShell(<ProfilePage />, { route: '/profile?mode=register' });
    expect(screen.getByRole('form', { name: 'Реєстрація' })).toBeTruthy();
  });

  it('choosing a section shows its description above the form', () => {
    stubFetch();
    renderWithShell(<ProfilePage />, { route: '/profile' });
    fireEvent.click(within(sectionMenu()).getByRole('link', { name: 'Повідомлення' }));
    expect(location()).toBe('/profile?section=messages');
    expect(screen.getByText('Особисті повідомлення між користувачами.')).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Вхід' })).toBeTruthy();
  });
});

describe('ProfilePage for signed-in users', () => {
  it('overview: e-mail, online status, logout and quick links; no admin badge or entry', async () => {
    signedIn(USER);
    renderWithShell(<ProfilePage />, { route: '/profile' });
    expect(await screen.findByRole('heading', { level: 2, name: 'dev@example.com' })).toBeTruthy();
    expect(screen.getByText('Онлайн')).toBeTruthy();
    expect(screen.queryByText('Адміністратор')).toBeNull();
    expect(screen.getByRole('button', { name: 'Вийти' })).toBeTruthy();
    const links = within(screen.getByRole('navigation', { name: 'Швидкі посилання' })).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/chat', '/filecloud', '/blog', '/games', '/programs', '/alavar']);
    expect(within(sectionMenu()).queryByRole('link', { name: 'Адмін-панель' })).toBeNull();
  });

  it('admins get the badge and the admin entry', async () => {
    signedIn(ADMIN);
    renderWithShell(<ProfilePage />, { route: '/profile' });
    expect(await screen.findByText('Адміністратор')).toBeTruthy();
    expect(within(sectionMenu()).getByRole('link', { name: 'Адмін-панель' }).getAttribute('href')).toBe('/profile?section=admin');
  });

  it('the chat section is the chat page', async () => {
    signedIn(USER);
    renderWithShell(<ProfilePage />, { route: '/profile?section=chat' });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/chat'));
    expect(within(sectionMenu()).getByRole('link', { name: 'Посиденьки' }).getAttribute('href')).toBe('/chat');
  });

  it('the notifications section lists them and marks them read', async () => {
    let unread = 1;
    const notification = { id: 4, kind: 'mention', data: { where: 'chat', by: { id: 2, name: 'bob' }, text: 'hi @dev' }, createdAt: '2026-11-27T10:00:00Z' };
    signedIn(USER, {
      'GET /api/notifications': () => json({ items: [{ ...notification, read: unread === 0 }], unread }),
      'GET /api/notifications/settings': () =>
        json({ 'friend.request': true, 'friend.accepted': true, 'dm.message': true, mention: true, 'forum.reply': true, 'comment.reply': true, 'comment.new': false }),
      'POST /api/notifications/read': () => {
        unread = 0;
        return json({ unread: 0 });
      },
    });
    renderWithShell(<ProfilePage />, { route: '/profile?section=notifications' });
    const link = await screen.findByRole('link', { name: 'bob згадує вас' });
    expect(link.getAttribute('href')).toBe('/chat');
    expect(screen.getByText('hi @dev')).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: 'Нові коментарі' }) as HTMLInputElement).checked).toBe(false);
    expect((screen.getByRole('checkbox', { name: 'Згадки' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Позначити прочитаним: bob згадує вас' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: /Позначити прочитаним:/ })).toBeNull());
  });

  it.each([
    ['offered where mail is on (the server sends the setting)', true],
    ['not offered where mail is off', false],
  ])('the e-mail digest setting is %s', async (_, mailOn) => {
    const kinds = { 'friend.request': true, 'friend.accepted': true, 'dm.message': true, mention: true, 'forum.reply': true, 'comment.reply': true, 'comment.new': true };
    const fetch = signedIn(USER, {
      'GET /api/notifications': () => json({ items: [], unread: 0 }),
      'GET /api/notifications/settings': () => json(mailOn ? { ...kinds, 'email.digest': false } : kinds),
      'PATCH /api/notifications/settings': ({ body }) => json({ ...kinds, ...(body as object) }),
    });
    renderWithShell(<ProfilePage />, { route: '/profile?section=notifications' });
    await screen.findByRole('checkbox', { name: 'Згадки' });
    const digest = screen.queryByRole('checkbox', { name: /Також надсилати непрочитані сповіщення на пошту/ }) as HTMLInputElement | null;
    expect(!!digest).toBe(mailOn);
    if (!digest) return;
    expect(digest.checked).toBe(false);
    fireEvent.click(digest);
    await waitFor(() => expect(fetch.mock.calls.some(([u, i]) => String(u).endsWith('/api/notifications/settings') && i?.method === 'PATCH')).toBe(true));
    const call = fetch.mock.calls.find(([u, i]) => String(u).endsWith('/api/notifications/settings') && i?.method === 'PATCH');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ 'email.digest': true });
  });

  it("a non-admin opening the admin panel sees 'Доступ заборонено' and nothing is fetched", async () => {
    const fetch = signedIn(USER);
    renderWithShell(<ProfilePage />, { route: '/profile?section=admin' });
    expect(await screen.findByRole('heading', { name: 'Доступ заборонено' })).toBeTruthy();
    expect(screen.getByText('Ця сторінка доступна лише адміністраторам.')).toBeTruthy();
    expect(fetch.mock.calls.some(([url]) => String(url).includes('/admin/users'))).toBe(false);
  });

  it('an admin sees the user list', async () => {
    signedIn(ADMIN, { 'GET /api/auth/admin/users': () => json([ADMIN, USER]) });
    renderWithShell(<ProfilePage />, { route: '/profile?section=admin' });
    const table = await screen.findByRole('table');
    expect(within(table).getByText('dev@example.com')).toBeTruthy();
  });

  it('settings holds the change-password form', async () => {
    signedIn(USER);
    renderWithShell(<ProfilePage />, { route: '/profile?section=settings' });
    expect(await screen.findByRole('form', { name: 'Зміна пароля' })).toBeTruthy();
  });

  it('logout clears token and user even when the server call fails, and returns to the account page', async () => {
    signedIn(USER, { 'POST /api/auth/logout': () => new Response('down', { status: 503 }) });
    renderWithShell(<ProfilePage />, { route: '/profile?section=overview' });
    fireEvent.click(await screen.findByRole('button', { name: 'Вийти' }));
    await waitFor(() => expect(screen.getByRole('form', { name: 'Вхід' })).toBeTruthy());
    expect(localStorage.getItem('token')).toBeNull();
    expect(location()).toBe('/profile');
  });
});
