import { render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import { AdminPanel, emailWithBreaks } from './AdminPanel';

beforeAll(async () => {
  await initTestI18n('uk');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('AdminPanel', () => {
  it('lists users with e-mail and role', async () => {
    localStorage.setItem('token', 'admin-token');
    const fetch = stubFetch({
      '/api/auth/admin/users': () =>
        json([
          { id: 1, email: 'boss@example.com', name: 'Boss', role: 'admin', createdAt: '2025-01-01T00:00:00Z' },
          { id: 2, email: 'dev@example.com', name: 'Dev', role: 'user', createdAt: '2025-01-02T00:00:00Z' },
        ]),
    });
    renderWithShell(<AdminPanel />);
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]).getByText('boss@example.com')).toBeTruthy();
    expect(within(rows[1]).getByText('адміністратор')).toBeTruthy();
    expect(within(rows[2]).getByText('dev@example.com')).toBeTruthy();
    expect(within(rows[2]).getByText('користувач')).toBeTruthy();
    expect(new Headers((fetch.mock.calls[0][1] as RequestInit).headers).get('Authorization')).toBe('Bearer admin-token');
  });

  it.each([
    ['an error answer', () => json({ status: 403, message: 'administrator rights required', data: {} }, 403), 'Помилка отримання списку користувачів'],
    ['a non-array answer', () => json({ users: [] }), 'Не вдалося завантажити список користувачів: неправильний формат даних.'],
    ['a server error', () => new Response('boom', { status: 500 }), 'Помилка отримання списку користувачів'],
    ['a non-JSON answer', () => new Response('<html>', { status: 200, headers: { 'Content-Type': 'text/html' } }), 'Не вдалося завантажити список користувачів.'],
  ])('shows the spec text for %s', async (_n, answer, text) => {
    stubFetch({ '/api/auth/admin/users': answer });
    renderWithShell(<AdminPanel />);
    expect((await screen.findByRole('alert')).textContent).toBe(text);
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('a network failure gets the generic text', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    renderWithShell(<AdminPanel />);
    expect((await screen.findByRole('alert')).textContent).toBe('Не вдалося завантажити список користувачів.');
  });
});

describe('emailWithBreaks', () => {
  it('offers a line break after the "@" and before each dot, nowhere else', () => {
    const { container } = render(<p>{emailWithBreaks('olena.kovalenko@mail.example.com')}</p>);
    expect(container.innerHTML).toBe('<p>olena<wbr>.kovalenko@<wbr>mail<wbr>.example<wbr>.com</p>');
    expect(container.textContent).toBe('olena.kovalenko@mail.example.com');
  });
});
