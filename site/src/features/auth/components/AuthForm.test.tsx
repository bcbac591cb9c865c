import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useAuth } from '../../../lib/auth';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import { AuthForm } from './AuthForm';

beforeAll(async () => {
  await initTestI18n('uk');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function WhoAmI() {
  const { user } = useAuth();
  return <output data-testid="who">{user ? user.email : 'guest'}</output>;
}

const USER = { id: 7, email: 'olena@example.com', name: 'Олена', role: 'user' };
const AUTH_OK = { user: USER, tokens: { accessToken: 'access-1', refreshToken: 'r', expiresIn: 900 } };

function fill(label: RegExp | string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function fillRegister(password = 'password1', confirm = password) {
  fill("Ім'я", 'Олена');
  fill('Електронна пошта', 'olena@example.com');
  fill('Пароль', password);
  fill('Підтвердіть пароль', confirm);
}

/** The requests the form sent, without the reads the form makes on its own (the registration
 *  policy, whether "forgot password" is offered). */
function formCalls(fetch: ReturnType<typeof stubFetch>) {
  return fetch.mock.calls.filter(
    ([url, init]) =>
      !String(url).includes('/api/auth/registration') &&
      !(String(url).includes('/api/auth/password/forgot') && (init?.method ?? 'GET') === 'GET'),
  );
}

const submitRegister = () => fireEvent.click(screen.getByRole('button', { name: 'Зареєструватися' }));
const submitLogin = () => fireEvent.click(screen.getByRole('button', { name: 'Увійти' }));

describe('AuthForm — registration', () => {
  it("mismatched passwords show 'Паролі не співпадають' and send no request", async () => {
    const fetch = stubFetch({ 'POST /api/auth/register': () => json(AUTH_OK, 201) });
    renderWithShell(<AuthForm initialMode="register" />);
    fillRegister('password1', 'password2');
    submitRegister();
    expect((await screen.findByRole('alert')).textContent).toBe('Паролі не співпадають');
    expect(formCalls(fetch)).toHaveLength(0);
  });

  it('requires every field and sends nothing while one is empty', async () => {
    const fetch = stubFetch({ 'POST /api/auth/register': () => json(AUTH_OK, 201) });
    renderWithShell(<AuthForm initialMode="register" />);
    fill('Електронна пошта', 'olena@example.com');
    fill('Пароль', 'password1');
    fill('Підтвердіть пароль', 'password1');
    submitRegister();
    expect((await screen.findByRole('alert')).textContent).toBe('Заповніть усі поля');
    expect(formCalls(fetch)).toHaveLength(0);
  });

  it('registers, stores the token under "token" and signs the user in', async () => {
    const fetch = stubFetch({ 'POST /api/auth/register': () => json(AUTH_OK, 201) });
    renderWithShell(<AuthForm initialMode="register" />, { extra: <WhoAmI /> });
    fillRegister();
    submitRegister();
    await waitFor(() => expect(screen.getByTestId('who').textContent).toBe('olena@example.com'));
    expect(localStorage.getItem('token')).toBe('access-1');
    const [, init] = formCalls(fetch)[0] as [string, RequestInit];
    expect(JSON.parse(init.body as string)).toEqual({
      name: 'Олена',
      email: 'olena@example.com',
      password: 'password1',
      confirmPassword: 'password1',
      // The account's letters (a verification link) are written in the interface language.
      lang: 'uk',
    });
    expect(new Headers(init.headers).has('Authorization')).toBe(false);
  });

  it.each([
    ['no message from the server', () => new Response('boom', { status: 500 }), 'Помилка реєстрації'],
    ['a server message', () => json({ status: 400, message: 'Registration is closed', data: {} }, 400), 'Registration is closed'],
    ['a taken e-mail', () => json({ status: 409, message: 'an account with e-mail x already exists', data: {} }, 409), 'Обліковий запис з такою електронною поштою вже існує'],
    [
      'the registration limit',
      () =>
        json({ status: 429, message: 'too many registrations from this network; try again in 541 s', data: {} }, 429),
      'Забагато реєстрацій з вашої мережі. Спробуйте через 10 хв.',
    ],
    [
      'a field error',
      () => json({ status: 400, message: 'validation failed', data: { password: { code: 'too_short', message: 'short' } } }, 400),
      'Пароль має містити щонайменше 8 символів',
    ],
  ])('a failure with %s shows its text', async (_name, answer, text) => {
    stubFetch({ 'POST /api/auth/register': answer });
    renderWithShell(<AuthForm initialMode="register" />, { extra: <WhoAmI /> });
    fillRegister();
    submitRegister();
    expect((await screen.findByRole('alert')).textContent).toBe(text);
    expect(screen.getByTestId('who').textContent).toBe('guest');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('toggles between login and registration', () => {
    renderWithShell(<AuthForm />);
    expect(screen.getByRole('heading', { name: 'Вхід' })).toBeTruthy();
    expect(screen.queryByLabelText("Ім'я")).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Немає облікового запису? Зареєструватися' }));
    expect(screen.getByRole('heading', { name: 'Реєстрація' })).toBeTruthy();
    expect(screen.getByLabelText('Підтвердіть пароль')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Вже маєте обліковий запис? Увійти' }));
    expect(screen.getByRole('heading', { name: 'Вхід' })).toBeTruthy();
  });
});

describe('AuthForm — login', () => {
  it('signs in', async () => {
    const fetch = stubFetch({ 'POST /api/auth/login': () => json(AUTH_OK) });
    renderWithShell(<AuthForm />, { extra: <WhoAmI /> });
    fill('Електронна пошта', 'olena@example.com');
    fill('Пароль', 'password1');
    submitLogin();
    await waitFor(() => expect(screen.getByTestId('who').textContent).toBe('olena@example.com'));
    expect(localStorage.getItem('token')).toBe('access-1');
    expect(JSON.parse((formCalls(fetch)[0][1] as RequestInit).body as string)).toEqual({
      email: 'olena@example.com',
      password: 'password1',
    });
  });

  it("a wrong password shows 'Помилка входу'", async () => {
    stubFetch({ 'POST /api/auth/login': () => json({ status: 401, message: 'invalid e-mail or password', data: {} }, 401) });
    renderWithShell(<AuthForm />, { extra: <WhoAmI /> });
    fill('Електронна пошта', 'olena@example.com');
    fill('Пароль', 'wrong-one');
    submitLogin();
    expect((await screen.findByRole('alert')).textContent).toBe('Помилка входу');
    expect(screen.getByTestId('who').textContent).toBe('guest');
  });

  it('throttling says how long to wait', async () => {
    stubFetch({
      'POST /api/auth/login': () =>
        json({ status: 429, message: 'too many failed login attempts; try again in 42 s', data: {} }, 429),
    });
    renderWithShell(<AuthForm />);
    fill('Електронна пошта', 'olena@example.com');
    fill('Пароль', 'wrong-one');
    submitLogin();
    expect((await screen.findByRole('alert')).textContent).toBe('Забагато спроб входу. Спробуйте через 42 с.');
  });

  it('requires e-mail and password', async () => {
    const fetch = stubFetch();
    renderWithShell(<AuthForm />);
    fill('Електронна пошта', 'olena@example.com');
    submitLogin();
    expect((await screen.findByRole('alert')).textContent).toBe('Заповніть усі поля');
    expect(formCalls(fetch)).toHaveLength(0);
  });
});

describe('AuthForm — the cache after signing in', () => {
  it("drops the previous account's cached lists and puts the new user in the profile query", async () => {
    stubFetch({ 'POST /api/auth/login': () => json(AUTH_OK) });
    const { client } = renderWithShell(<AuthForm />, { extra: <WhoAmI /> });
    const before = [
      ['shares', 'mine'],
      ['games', 'shelf', true],
      ['games', 'states', 3],
      ['games', 'controls', true, 'nes'],
      ['files', 'quota', 5],
      ['account', 'sessions'],
      ['admin', 'users', '', 1],
    ];
    for (const key of before) client.setQueryData(key, ['of the account before']);
    client.setQueryData(['blog', 'categories'], ['everyone sees these']);
    fill('Електронна пошта', 'olena@example.com');
    fill('Пароль', 'password1');
    submitLogin();
    await waitFor(() => expect(screen.getByTestId('who').textContent).toBe('olena@example.com'));
    for (const key of before) expect(client.getQueryData(key), key.join('/')).toBeUndefined();
    expect(client.getQueryData(['blog', 'categories'])).toEqual(['everyone sees these']);
    expect(client.getQueryData(['auth', 'profile'])).toEqual(USER);
  });
});
