import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import { AuthForm } from '../components/AuthForm';
import ForgotPasswordPage from './ForgotPasswordPage';
import ResetPasswordPage from './ResetPasswordPage';

beforeAll(async () => {
  await initTestI18n('uk');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label, { selector: 'input' }), { target: { value } });
const writes = (fetch: ReturnType<typeof stubFetch>) => fetch.mock.calls.filter(([, init]) => (init?.method ?? 'GET') !== 'GET');

describe('the sign-in form', () => {
  it.each([
    [true, 1],
    [false, 0],
  ])('links to "forgot password" only when the site offers it (available: %s)', async (available, links) => {
    stubFetch({ 'GET /api/auth/password/forgot': () => json({ available }) });
    renderWithShell(<AuthForm />);
    if (links) expect((await screen.findByRole('link', { name: 'Забули пароль?' })).getAttribute('href')).toBe('/forgot-password');
    else {
      await waitFor(() => expect(screen.getByRole('button', { name: 'Увійти' })).toBeTruthy());
      expect(screen.queryByRole('link', { name: 'Забули пароль?' })).toBeNull();
    }
  });
});

describe('ForgotPasswordPage', () => {
  it('asks for a link in the interface language and says the same whatever the address', async () => {
    const fetch = stubFetch({ 'POST /api/auth/password/forgot': () => json({ message: 'ok' }, 202) });
    renderWithShell(<ForgotPasswordPage />);
    fill('Електронна пошта', ' olena@example.com ');
    fireEvent.click(screen.getByRole('button', { name: 'Надіслати посилання' }));
    expect(await screen.findByText(/посилання для нового пароля вже в дорозі/)).toBeTruthy();
    expect(writes(fetch)).toHaveLength(1);
    expect(JSON.parse(String(writes(fetch)[0][1]?.body))).toEqual({ email: 'olena@example.com', lang: 'uk' });
  });

  it.each([
    [429, { status: 429, message: 'too many', data: {} }, 'Забагато запитів'],
    [404, { status: 404, message: 'off', data: {} }, 'недоступне'],
  ])('a %s answer is explained', async (status, body, text) => {
    stubFetch({ 'POST /api/auth/password/forgot': () => json(body, status) });
    renderWithShell(<ForgotPasswordPage />);
    fill('Електронна пошта', 'olena@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Надіслати посилання' }));
    expect((await screen.findByRole('alert')).textContent).toContain(text);
  });

  it('sends nothing without an address', async () => {
    const fetch = stubFetch({});
    renderWithShell(<ForgotPasswordPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Надіслати посилання' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Заповніть обидва поля.');
    expect(writes(fetch)).toHaveLength(0);
  });
});

describe('ResetPasswordPage', () => {
  const route = '/reset-password?token=abc123';

  it('sets the new password with the token of the link', async () => {
    const fetch = stubFetch({ 'POST /api/auth/password/reset': () => json({ message: 'ok' }) });
    renderWithShell(<ResetPasswordPage />, { route });
    fill('Новий пароль', 'new password 2');
    fill('Повторіть новий пароль', 'new password 2');
    fireEvent.click(screen.getByRole('button', { name: 'Зберегти пароль' }));
    expect(await screen.findByText(/Пароль змінено/)).toBeTruthy();
    expect(JSON.parse(String(writes(fetch)[0][1]?.body))).toEqual({ token: 'abc123', newPassword: 'new password 2' });
    expect(screen.getByRole('link', { name: 'Увійти' }).getAttribute('href')).toBe('/profile');
  });

  it('refuses different passwords without a request', async () => {
    const fetch = stubFetch({});
    renderWithShell(<ResetPasswordPage />, { route });
    fill('Новий пароль', 'new password 2');
    fill('Повторіть новий пароль', 'new password 3');
    fireEvent.click(screen.getByRole('button', { name: 'Зберегти пароль' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Паролі не збігаються.');
    expect(writes(fetch)).toHaveLength(0);
  });

  it('a used or expired link offers a new one', async () => {
    stubFetch({
      'POST /api/auth/password/reset': () =>
        json({ status: 400, message: 'validation failed', data: { token: { code: 'invalid_token', message: 'used' } } }, 400),
    });
    renderWithShell(<ResetPasswordPage />, { route });
    fill('Новий пароль', 'new password 2');
    fill('Повторіть новий пароль', 'new password 2');
    fireEvent.click(screen.getByRole('button', { name: 'Зберегти пароль' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Посилання недійсне');
    expect(screen.getByRole('link', { name: 'Попросити нове посилання' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('a too short password shows the server\'s reason', async () => {
    stubFetch({
      'POST /api/auth/password/reset': () =>
        json({ status: 400, message: 'validation failed', data: { newPassword: { code: 'too_short', message: 'short' } } }, 400),
    });
    renderWithShell(<ResetPasswordPage />, { route });
    fill('Новий пароль', 'short');
    fill('Повторіть новий пароль', 'short');
    fireEvent.click(screen.getByRole('button', { name: 'Зберегти пароль' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).not.toContain('Посилання недійсне');
    expect(alert.textContent).not.toBe('');
  });

  it('without a token it points to the request page', () => {
    stubFetch({});
    renderWithShell(<ResetPasswordPage />, { route: '/reset-password' });
    expect(screen.getByText('Ця сторінка відкривається з посилання в листі про скидання пароля.')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
