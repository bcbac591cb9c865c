import { screen, within } from '@testing-library/react';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import { AuditLog } from './AuditLog';
import { InvitesPanel } from './InvitesPanel';

// The admin lists speak the reader's language: the invitation validity with its plural forms,
// the audit log's details (recorded by the server as English key/value pairs) translated.

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});
afterAll(async () => {
  await initTestI18n('en');
});

describe('InvitesPanel validity choices', () => {
  it.each([
    ['en', ['1 day', '7 days', '30 days']],
    ['uk', ['1 день', '7 днів', '30 днів']],
    ['ru', ['1 день', '7 дней', '30 дней']],
  ] as const)('%s: %j', async (lang, want) => {
    await initTestI18n(lang);
    localStorage.setItem('token', 't');
    stubFetch({ '/api/auth/admin/invites': () => json([]), '/api/auth/registration': () => json({ policy: 'invite' }) });
    renderWithShell(<InvitesPanel />);
    const select = screen.getByRole('combobox');
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(want);
  });
});

const EVENTS = [
  {
    id: 3,
    at: '2026-01-02T10:00:00Z',
    type: 'signin',
    actor: 'olena@example.com',
    target: 'olena@example.com',
    ip: '10.0.0.1',
    details: { method: 'password + one-time code' },
  },
  {
    id: 2,
    at: '2026-01-02T09:00:00Z',
    type: 'share.created',
    actor: 'olena@example.com',
    target: 'file 12',
    ip: '10.0.0.1',
    details: { link: 'AbCdEf…', password: 'true', maxDownloads: '15000' },
  },
  {
    id: 1,
    at: '2026-01-02T08:00:00Z',
    type: 'user.deleted',
    actor: 'boss@example.com',
    target: 'dev@example.com',
    ip: '10.0.0.2',
    details: { files: 'keep', filesDeleted: '0', sessions: 'all others', from: 'admin', to: 'user' },
  },
];

describe('AuditLog details', () => {
  it('are in Ukrainian in Ukrainian: keys, the values the server picks from a set, numbers', async () => {
    await initTestI18n('uk');
    localStorage.setItem('token', 't');
    stubFetch({ '/api/audit': () => json({ events: EVENTS, next: null }) });
    renderWithShell(<AuditLog />);
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    const cells = (i: number) => within(rows[i]).getAllByRole('cell').map((c) => c.textContent?.replace(/\s/g, ' '));
    expect(cells(0)[5]).toBe('спосіб: пароль + одноразовий код');
    expect(cells(1)[3]).toBe('файл 12');
    expect(cells(1)[5]).toBe('посилання: AbCdEf…, пароль: так, ліміт завантажень: 15 000');
    expect(cells(2)[5]).toBe('файли: залишено, видалено файлів: 0, сеанси: усі інші, було: адміністратор, стало: користувач');
  });

  it('in Russian too, and an unknown key or value shows as recorded', async () => {
    await initTestI18n('ru');
    localStorage.setItem('token', 't');
    stubFetch({
      '/api/audit': () =>
        json({ events: [{ ...EVENTS[0], details: { method: 'passkey', novel: 'thing', reason: 'something new' } }], next: null }),
    });
    renderWithShell(<AuditLog />);
    const table = await screen.findByRole('table');
    const row = within(table).getAllByRole('row')[1];
    expect(within(row).getAllByRole('cell')[5].textContent).toBe('способ: ключ доступа, novel: thing, причина: something new');
  });
});
