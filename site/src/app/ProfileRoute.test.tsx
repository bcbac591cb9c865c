import { screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../test/utils';
import ProfileRoute from './ProfileRoute';

beforeAll(async () => {
  await initTestI18n('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('ProfileRoute', () => {
  it("puts the file cloud's quota under the account and the user's share links after it", async () => {
    localStorage.setItem('token', 'tok');
    stubFetch({
      'GET /api/auth/profile': () => json({ id: 1, email: 'a@example.com', name: 'A', role: 'admin' }),
      'GET /api/auth/quota': () => json({ used: { bytes: 1536, files: 3 }, limit: { bytes: null, files: null } }),
      'GET /api/shares': () => json([]),
    });
    renderWithShell(<ProfileRoute />, { route: '/profile' });
    const account = (await screen.findByRole('heading', { level: 2, name: 'a@example.com' })).closest('section')!;
    expect((await within(account).findByTestId('quota-usage')).textContent).toBe('Storage: 1.50 KB used (unlimited), 3 files (unlimited)');
    expect(await screen.findByRole('heading', { name: /share links/i })).toBeTruthy();
  });

  it.each([
    ['messages', 'Messages'],
    ['friends', 'Friends'],
  ])('%s opens its real section from the social feature', async (section, title) => {
    localStorage.setItem('token', 'tok');
    stubFetch({
      'GET /api/auth/profile': () => json({ id: 2, email: 'dev@example.com', name: 'Dev', role: 'user' }),
      'GET /api/conversations': () => json([]),
      'GET /api/friends': () => json({ friends: [], incoming: [], outgoing: [], blocked: [] }),
    });
    renderWithShell(<ProfileRoute />, { route: `/profile?section=${section}` });
    expect(await screen.findByRole('heading', { level: 2, name: title })).toBeTruthy();
    expect(screen.queryByText(/in development/i)).toBeNull();
  });
});
