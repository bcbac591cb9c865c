import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import '../i18n';
import type { Friends } from '../api';
import { FriendsSection } from './FriendsSection';

beforeAll(async () => {
  await initTestI18n('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const ME = { id: 2, email: 'ann@example.com', name: 'Ann', role: 'user' };
const person = (id: number, name: string) => ({ id, name, avatar: null });
const AT = '2026-11-27T10:00:00Z';

function lists(over: Partial<Friends> = {}): Friends {
  return {
    friends: [{ user: person(3, 'Bob'), since: AT }],
    incoming: [{ id: 11, user: person(4, 'Cat'), createdAt: AT }],
    outgoing: [{ id: 12, user: person(5, 'Dan'), createdAt: AT }],
    blocked: [{ user: person(6, 'Eve'), since: AT }],
    ...over,
  };
}

function signedIn(routes: Parameters<typeof stubFetch>[0]) {
  localStorage.setItem('token', 'tok');
  return stubFetch({ 'GET /api/auth/profile': () => json(ME), ...routes });
}

describe('FriendsSection', () => {
  it('lists friends, requests both ways and blocked accounts with their actions', async () => {
    signedIn({ 'GET /api/friends': () => json(lists()) });
    renderWithShell(<FriendsSection />);
    const friends = await screen.findByRole('list', { name: 'Your friends' });
    expect(within(friends).getByText('Bob')).toBeTruthy();
    expect(within(friends).getByRole('link', { name: 'Write to Bob' }).getAttribute('href')).toBe('/profile?section=messages&with=3');
    expect(within(friends).getByRole('button', { name: 'Remove Bob from friends' })).toBeTruthy();
    expect(within(friends).getByRole('button', { name: 'Block Bob' })).toBeTruthy();
    const incoming = screen.getByRole('list', { name: 'Friend requests (1)' });
    expect(within(incoming).getByRole('button', { name: "Accept Cat's friend request" })).toBeTruthy();
    expect(within(incoming).getByRole('button', { name: "Decline Cat's friend request" })).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Requests you sent' })).getByRole('button', { name: 'Cancel the friend request to Dan' })).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Blocked' })).getByRole('button', { name: 'Unblock Eve' })).toBeTruthy();
  });

  it('accepts, declines and cancels requests through their routes, then reloads the lists', async () => {
    const calls: string[] = [];
    const fetch = signedIn({
      'GET /api/friends': () => json(lists()),
      'POST /api/friends/requests/11/accept': ({ method, url }) => (calls.push(`${method} ${url}`), new Response(null, { status: 204 })),
      'POST /api/friends/requests/11/decline': ({ method, url }) => (calls.push(`${method} ${url}`), new Response(null, { status: 204 })),
      'DELETE /api/friends/requests/12': ({ method, url }) => (calls.push(`${method} ${url}`), new Response(null, { status: 204 })),
    });
    renderWithShell(<FriendsSection />);
    fireEvent.click(await screen.findByRole('button', { name: "Accept Cat's friend request" }));
    fireEvent.click(screen.getByRole('button', { name: "Decline Cat's friend request" }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel the friend request to Dan' }));
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(calls.map((c) => c.split(' ')[0])).toEqual(['POST', 'POST', 'DELETE']);
    await waitFor(() => expect(fetch.mock.calls.filter(([u]) => String(u).endsWith('/api/friends')).length).toBeGreaterThan(1));
  });

  it('blocking asks first and says what it does', async () => {
    let blocked = false;
    signedIn({
      'GET /api/friends': () => json(lists()),
      'POST /api/blocks/3': () => ((blocked = true), new Response(null, { status: 204 })),
    });
    renderWithShell(<FriendsSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Block Bob' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Block Bob?' });
    expect(within(dialog).getByText(/will not be able to send you requests, messages or mentions/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Block' }));
    await waitFor(() => expect(blocked).toBe(true));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('finds people by name and sends a request; people already known say so instead', async () => {
    let sent: unknown = null;
    signedIn({
      'GET /api/friends': () => json(lists()),
      'GET /api/users': ({ url }) => json(new URL(url, 'http://x').searchParams.get('search') === 'o' ? [person(3, 'Bob'), person(7, 'Olga')] : []),
      'POST /api/friends/requests': ({ body }) => ((sent = body), json({ id: 20, user: person(7, 'Olga'), createdAt: AT }, 201)),
    });
    renderWithShell(<FriendsSection />);
    fireEvent.change(await screen.findByRole('searchbox', { name: 'Find people' }), { target: { value: 'o' } });
    const results = await screen.findByRole('list', { name: 'People found' });
    expect(within(results).getByText('Friends')).toBeTruthy(); // Bob
    fireEvent.click(within(results).getByRole('button', { name: 'Send Olga a friend request' }));
    await waitFor(() => expect(sent).toEqual({ userId: 7 }));
  });

  it('shows the empty state and a load failure', async () => {
    signedIn({ 'GET /api/friends': () => json(lists({ friends: [], incoming: [], outgoing: [], blocked: [] })) });
    const { unmount } = renderWithShell(<FriendsSection />);
    expect(await screen.findByText(/No friends yet/)).toBeTruthy();
    unmount();
    signedIn({ 'GET /api/friends': () => json({ status: 500, message: 'x', data: {} }, 500) });
    renderWithShell(<FriendsSection />);
    expect(await screen.findByRole('alert')).toBeTruthy();
  });
});
