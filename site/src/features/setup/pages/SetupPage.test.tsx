import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import SetupPage from './SetupPage';

beforeAll(async () => {
  await initTestI18n('uk');
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const OWNER = { id: 1, email: 'owner@example.org', name: 'Owner', role: 'admin' };
const dead = () => json({ status: 404, message: 'this setup link is no longer valid', data: {} }, 404);

function fill(values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    fireEvent.change(screen.getByLabelText(label), { target: { value } });
  }
}

const FORM = {
  "Ім'я": 'Owner',
  'Електронна пошта': 'owner@example.org',
  Пароль: 'correct horse battery',
  'Повторіть пароль': 'correct horse battery',
};

describe('SetupPage', () => {
  it('a live link shows the form; the owner is created with the token and signed in', async () => {
    const fetch = stubFetch({
      'POST /api/setup/check': ({ body }) => ((body as { token: string }).token === 'tok' ? new Response(null, { status: 204 }) : dead()),
      'POST /api/setup/owner': () => json({ user: OWNER, tokens: { accessToken: 'access' } }, 201),
    });
    renderWithShell(<SetupPage />, { route: '/setup?token=tok' });
    expect(screen.getByRole('heading', { level: 1, name: 'Створення облікового запису власника' })).toBeTruthy();
    const form = await screen.findByRole('form', { name: 'Створення облікового запису власника' });
    expect(form).toBeTruthy();
    fill(FORM);
    fireEvent.click(screen.getByRole('button', { name: 'Створити обліковий запис' }));
    expect(await screen.findByText(/Обліковий запис власника готовий/)).toBeTruthy();
    const call = fetch.mock.calls.find(([url]) => String(url).endsWith('/api/setup/owner'));
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      name: 'Owner',
      email: 'owner@example.org',
      password: 'correct horse battery',
      confirmPassword: 'correct horse battery',
      token: 'tok',
    });
    expect(localStorage.getItem('token')).toBe('access');
    expect(screen.getByRole('link', { name: 'Відкрити профіль' }).getAttribute('href')).toBe('/profile');
  });

  it('refuses different passwords and empty fields before sending anything', async () => {
    const fetch = stubFetch({ 'POST /api/setup/check': () => new Response(null, { status: 204 }) });
    renderWithShell(<SetupPage />, { route: '/setup?token=tok' });
    await screen.findByRole('form');
    fireEvent.click(screen.getByRole('button', { name: 'Створити обліковий запис' }));
    expect(screen.getByRole('alert').textContent).toBe('Заповніть усі поля');
    fill({ ...FORM, 'Повторіть пароль': 'other' });
    fireEvent.click(screen.getByRole('button', { name: 'Створити обліковий запис' }));
    expect(screen.getByRole('alert').textContent).toBe('Паролі не збігаються');
    expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/api/setup/owner'))).toBe(false);
  });

  it('shows the server refusal of a field', async () => {
    stubFetch({
      'POST /api/setup/check': () => new Response(null, { status: 204 }),
      'POST /api/setup/owner': () =>
        json({ status: 400, message: 'invalid input', data: { email: { code: 'invalid', message: 'email is not valid' } } }, 400),
    });
    renderWithShell(<SetupPage />, { route: '/setup?token=tok' });
    await screen.findByRole('form');
    fill(FORM);
    fireEvent.click(screen.getByRole('button', { name: 'Створити обліковий запис' }));
    expect((await screen.findByRole('alert')).textContent).toBe('email is not valid');
  });

  it.each([
    ['a dead link', '/setup?token=used'],
    ['no token', '/setup'],
  ])('%s says it is no longer valid and how to get an admin', async (_, route) => {
    stubFetch({ 'POST /api/setup/check': dead });
    renderWithShell(<SetupPage />, { route });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('більше не дійсне');
    expect(alert.textContent).toContain('devhub user create --admin');
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('a link spent meanwhile (404 on create) turns into the dead notice', async () => {
    stubFetch({ 'POST /api/setup/check': () => new Response(null, { status: 204 }), 'POST /api/setup/owner': dead });
    renderWithShell(<SetupPage />, { route: '/setup?token=tok' });
    await screen.findByRole('form');
    fill(FORM);
    fireEvent.click(screen.getByRole('button', { name: 'Створити обліковий запис' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(screen.getByRole('alert').textContent).toContain('більше не дійсне');
  });
});
