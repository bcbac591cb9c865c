import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_KEY } from '../../lib/api';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../test/utils';
import { NotificationBell } from './NotificationBell';

beforeEach(async () => {
  await initTestI18n('en');
});
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('NotificationBell', () => {
  it('is absent for guests', () => {
    stubFetch();
    renderWithShell(<NotificationBell />);
    expect(screen.queryByRole('link', { name: /Notifications/ })).toBeNull();
  });

  it('shows the unread count and follows it live', async () => {
    localStorage.setItem(TOKEN_KEY, 'tok');
    let ctrl: ReadableStreamDefaultController<Uint8Array> | null = null;
    stubFetch({
      '/api/auth/profile': () => json({ id: 1, email: 'a@example.com', name: 'a', role: 'user' }),
      'GET /api/notifications': () => json({ items: [], unread: 2 }),
      '/api/events': () =>
        new Response(new ReadableStream<Uint8Array>({ start: (c) => void (ctrl = c) }), {
          headers: { 'Content-Type': 'text/event-stream' },
        }),
    });
    renderWithShell(<NotificationBell />);
    const bell = await screen.findByRole('link', { name: 'Notifications: 2 unread' });
    expect(bell.getAttribute('href')).toBe('/profile?section=notifications');
    await waitFor(() => expect(ctrl).not.toBeNull());
    const send = (type: string, data: unknown) =>
      act(() => void ctrl!.enqueue(new TextEncoder().encode(`id: 1\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`)));
    send('notification', { notification: { id: 3, kind: 'mention', data: {}, createdAt: '2026-11-27T10:00:00Z', read: false }, unread: 3 });
    expect(await screen.findByRole('link', { name: 'Notifications: 3 unread' })).toBeTruthy();
    expect(screen.getByTestId('notify-count').textContent).toBe('3');
    send('notification.read', { unread: 0 });
    expect(await screen.findByRole('link', { name: 'Notifications' })).toBeTruthy();
    expect(screen.queryByTestId('notify-count')).toBeNull();
  });
});
