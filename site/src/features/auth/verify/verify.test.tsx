import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import { AuthForm } from '../components/AuthForm';
import { ResendVerification } from './ResendVerification';
import VerifyEmailPage from './VerifyEmailPage';

beforeAll(async () => {
  await initTestI18n('uk');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const writes = (fetch: ReturnType<typeof stubFetch>) => fetch.mock.calls.filter(([, init]) => (init?.method ?? 'GET') !== 'GET');
const bodyOf = (fetch: ReturnType<typeof stubFetch>, i: number) => JSON.parse(String(writes(fetch)[i][1]?.body));
const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label, { selector: 'input' }), { target: { value } });

describe('VerifyEmailPage', () => {
  it.each([
    ['verify', 'Вашу адресу new@example.com підтверджено.'],
    ['email_change', 'Тепер пошта вашого облікового запису — new@example.com.'],
  ])('spends the link once and says what it did (%s)', async (purpose, text) => {
    const fetch = stubFetch({ 'POST /api/auth/verify-email': () => json({ purpose, email: 'new@example.com' }) });
    renderWithShell(<VerifyEmailPage />, { route: '/verify-email?token=abc123' });
    expect(await screen.findByText(text)).toBeTruthy();
    expect(writes(fetch)).toHaveLength(1);
    expect(bodyOf(fetch, 0)).toEqual({ token: 'abc123' });
    expect(screen.getByRole('link', { name: 'До профілю' }).getAttribute('href')).toBe('/profile');
  });

  it.each([
    ['a spent or expired link offers a new one', { token: { code: 'invalid_token', message: 'x' } }, 'недійсне', true],
    ['an address taken meanwhile', { email: { code: 'taken', message: 'x' } }, 'інший обліковий запис', false],
  ])('%s', async (_, data, text, offersResend) => {
    stubFetch({ 'POST /api/auth/verify-email': () => json({ status: 400, message: 'validation failed', data }, 400) });
    renderWithShell(<VerifyEmailPage />, { route: '/verify-email?token=abc123' });
    expect((await screen.findByRole('alert')).textContent).toContain(text);
    expect(!!screen.queryByRole('button', { name: 'Надіслати посилання ще раз' })).toBe(offersResend);
  });

  it('without a token sends nothing', async () => {
    const fetch = stubFetch({});
    renderWithShell(<VerifyEmailPage />, { route: '/verify-email' });
    expect(await screen.findByText(/відкривається за посиланням/)).toBeTruthy();
    expect(writes(fetch)).toHaveLength(0);
  });
});

describe('ResendVerification', () => {
  it('asks for a new link in the interface language and says the same whatever the address', async () => {
    const fetch = stubFetch({ 'POST /api/auth/verify-email/resend': () => json({ message: 'ok' }, 202) });
    renderWithShell(<ResendVerification email="new@example.com" />);
    fireEvent.click(screen.getByRole('button', { name: 'Надіслати посилання ще раз' }));
    expect(await screen.findByText(/нове посилання вже в дорозі/)).toBeTruthy();
    expect(bodyOf(fetch, 0)).toEqual({ email: 'new@example.com', lang: 'uk' });
  });

  it('explains throttling', async () => {
    stubFetch({ 'POST /api/auth/verify-email/resend': () => json({ status: 429, message: 'too many', data: {} }, 429) });
    renderWithShell(<ResendVerification />);
    fill('Пошта', 'new@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Надіслати посилання ще раз' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Забагато запитів. Спробуйте пізніше.');
  });
});

describe('the sign-in form under required verification', () => {
  it('a sign-in of an unconfirmed account says so and offers a new link for the typed address', async () => {
    const fetch = stubFetch({
      'POST /api/auth/login': () =>
        json({ status: 403, message: 'not verified', data: { email: { code: 'unverified', message: 'not verified' } } }, 403),
      'POST /api/auth/verify-email/resend': () => json({ message: 'ok' }, 202),
    });
    renderWithShell(<AuthForm />);
    fill('Електронна пошта', 'new@example.com');
    fill('Пароль', 'password 123');
    fireEvent.click(screen.getByRole('button', { name: 'Увійти' }));
    expect((await screen.findByRole('alert')).textContent).toContain('ще не підтверджено');
    fireEvent.click(screen.getByRole('button', { name: 'Надіслати посилання ще раз' }));
    await waitFor(() => expect(writes(fetch)).toHaveLength(2));
    expect(bodyOf(fetch, 1)).toEqual({ email: 'new@example.com', lang: 'uk' });
  });
});

describe('the sign-up form under required verification', () => {
  it('a registration that waits for its link signs nobody in and says where the link went', async () => {
    stubFetch({
      'GET /api/auth/registration': () => json({ policy: 'open', verifyEmail: 'required' }),
      'POST /api/auth/register': () =>
        json({ user: { id: 7, email: 'new@example.com', name: 'N', role: 'user', createdAt: '2025-01-01T00:00:00Z', emailVerified: false }, verificationRequired: true }, 202),
    });
    renderWithShell(<AuthForm initialMode="register" />);
    await screen.findByLabelText("Ім'я", { selector: 'input' });
    fill("Ім'я", 'N');
    fill('Електронна пошта', 'new@example.com');
    fill('Пароль', 'password 123');
    fill('Підтвердіть пароль', 'password 123');
    fireEvent.click(screen.getByRole('button', { name: 'Зареєструватися' }));
    expect(await screen.findByText(/Ми надіслали посилання на new@example.com/)).toBeTruthy();
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.getByRole('button', { name: 'Надіслати посилання ще раз' })).toBeTruthy();
  });
});
