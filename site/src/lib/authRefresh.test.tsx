// The AuthProvider follows the token: a failed refresh logs the user out.
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../test/utils';
import { api } from './api';
import { useAuth } from './auth';

beforeAll(async () => {
  await initTestI18n('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function Who() {
  const { user, token } = useAuth();
  return <output data-testid="who">{`${user?.email ?? 'guest'}|${token ?? 'none'}`}</output>;
}

describe('AuthProvider and token refresh', () => {
  it('an expired access token is refreshed while the profile loads', async () => {
    localStorage.setItem('token', 'expired');
    stubFetch({
      'GET /api/auth/profile': ({ headers }) =>
        headers.get('Authorization') === 'Bearer fresh' ? json({ id: 1, email: 'a@example.com', name: 'A', role: 'user' }) : json({}, 401),
      'POST /api/auth/refresh': () => json({ token: 'fresh', accessToken: 'fresh' }),
    });
    renderWithShell(<Who />);
    await waitFor(() => expect(screen.getByTestId('who').textContent).toBe('a@example.com|fresh'));
  });

  it('logs the user out when a later refresh fails', async () => {
    localStorage.setItem('token', 't1');
    stubFetch({
      'GET /api/auth/profile': () => json({ id: 1, email: 'a@example.com', name: 'A', role: 'user' }),
      '/api/private': () => json({}, 401),
      'POST /api/auth/refresh': () => json({ status: 401, message: 'refresh token reuse detected' }, 401),
    });
    renderWithShell(<Who />);
    await waitFor(() => expect(screen.getByTestId('who').textContent).toBe('a@example.com|t1'));
    await expect(api.get('/api/private')).rejects.toMatchObject({ status: 401 });
    await waitFor(() => expect(screen.getByTestId('who').textContent).toBe('guest|none'));
    expect(localStorage.getItem('token')).toBeNull();
  });
});
