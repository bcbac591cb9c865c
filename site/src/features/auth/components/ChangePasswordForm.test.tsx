import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import { ChangePasswordForm } from './ChangePasswordForm';

beforeAll(async () => {
  await initTestI18n('uk');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** Calls to the change-password endpoint (the AuthProvider also loads the profile). */
function changeCalls(fetch: ReturnType<typeof stubFetch>) {
  return fetch.mock.calls.filter(([url]) => String(url).includes('/api/auth/change-password')) as Array<[string, RequestInit]>;
}

const oldField = () => screen.getByLabelText('Поточний пароль') as HTMLInputElement;
const newField = () => screen.getByLabelText('Новий пароль') as HTMLInputElement;

function fillAndSubmit(oldPw = 'password1', newPw = 'password2') {
  fireEvent.change(oldField(), { target: { value: oldPw } });
  fireEvent.change(newField(), { target: { value: newPw } });
  fireEvent.click(screen.getByRole('button', { name: 'Змінити пароль' }));
}

describe('ChangePasswordForm', () => {
  it('requires both fields', async () => {
    localStorage.setItem('token', 't0');
    const fetch = stubFetch();
    renderWithShell(<ChangePasswordForm />);
    fillAndSubmit('password1', '');
    expect((await screen.findByRole('alert')).textContent).toBe('Заповніть усі поля');
    expect(changeCalls(fetch)).toHaveLength(0);
  });

  it("without a token says 'Не авторизовано' and sends nothing", async () => {
    const fetch = stubFetch();
    renderWithShell(<ChangePasswordForm />);
    fillAndSubmit();
    expect((await screen.findByRole('alert')).textContent).toBe('Не авторизовано');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('on success says so, clears the form and keeps the new token', async () => {
    localStorage.setItem('token', 't0');
    const fetch = stubFetch({
      'POST /api/auth/change-password': () => json({ message: 'Password changed successfully', token: 't1' }),
    });
    const { client } = renderWithShell(<ChangePasswordForm />);
    client.setQueryData(['account', 'sessions'], [{ id: 'other' }]);
    fillAndSubmit();
    expect((await screen.findByText('Пароль успішно змінено')).textContent).toBe('Пароль успішно змінено');
    // Every other session ended: the list is asked again when shown.
    expect(client.getQueryState(['account', 'sessions'])?.isInvalidated).toBe(true);
    expect(oldField().value).toBe('');
    expect(newField().value).toBe('');
    expect(localStorage.getItem('token')).toBe('t1');
    const [, init] = changeCalls(fetch)[0];
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer t0');
    expect(JSON.parse(init.body as string)).toEqual({ oldPassword: 'password1', newPassword: 'password2' });
  });

  it.each([
    [
      'a wrong current password',
      () => json({ status: 400, message: 'validation failed', data: { oldPassword: { code: 'wrong_password', message: 'x' } } }, 400),
      'Неправильний поточний пароль',
    ],
    ['a server message', () => json({ status: 400, message: 'Not today', data: {} }, 400), 'Not today'],
    ['no server message', () => new Response(null, { status: 500 }), 'Помилка зміни пароля'],
  ])('on failure with %s shows it and keeps the fields', async (_n, answer, text) => {
    localStorage.setItem('token', 't0');
    stubFetch({ 'POST /api/auth/change-password': answer });
    renderWithShell(<ChangePasswordForm />);
    fillAndSubmit();
    expect((await screen.findByRole('alert')).textContent).toBe(text);
    await waitFor(() => expect(oldField().value).toBe('password1'));
    expect(localStorage.getItem('token')).toBe('t0');
  });
});
