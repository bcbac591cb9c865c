import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import '../i18n';
import type { Conversation, DirectMessage, MessagePage } from '../api';
import { badgeCount, MessagesSection } from './MessagesSection';

beforeAll(async () => {
  await initTestI18n('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const ME = { id: 2, email: 'ann@example.com', name: 'Ann', role: 'user' };
const bob = { id: 3, name: 'Bob', avatar: null };
const msg = (id: number, authorId: number, text: string): DirectMessage => ({
  id,
  authorId,
  recipientId: authorId === 2 ? 3 : 2,
  text,
  createdAt: '2026-11-27T10:00:00Z',
});

function signedIn(routes: Parameters<typeof stubFetch>[0]) {
  localStorage.setItem('token', 'tok');
  return stubFetch({ 'GET /api/auth/profile': () => json(ME), ...routes });
}

describe('MessagesSection: the list', () => {
  it('shows each conversation with its last message and an unread badge', async () => {
    const list: Conversation[] = [
      { kind: 'direct', user: bob, lastMessage: msg(9, 3, 'see you'), unread: 2, readUpTo: 5, otherReadUpTo: 9 },
      { kind: 'direct', user: { id: 4, name: '', avatar: null, deleted: true }, lastMessage: msg(4, 2, 'bye'), unread: 0, readUpTo: 4, otherReadUpTo: 0 },
    ];
    signedIn({ 'GET /api/conversations': () => json(list) });
    renderWithShell(<MessagesSection />, { route: '/profile?section=messages' });
    const link = await screen.findByRole('link', { name: 'Conversation with Bob, unread: 2' });
    expect(link.getAttribute('href')).toBe('/profile?section=messages&with=3');
    expect(within(link).getByText('see you')).toBeTruthy();
    expect(screen.getAllByTestId('unread-badge').map((b) => b.textContent)).toEqual(['2']);
    expect(screen.getByRole('link', { name: 'Conversation with Deleted account' })).toBeTruthy();
  });

  it('says when there is none', async () => {
    signedIn({ 'GET /api/conversations': () => json([]) });
    renderWithShell(<MessagesSection />, { route: '/profile?section=messages' });
    expect(await screen.findByText('No conversations yet.')).toBeTruthy();
  });

  it('writes large counts as 99+', () => {
    expect(badgeCount(5)).toBe('5');
    expect(badgeCount(100)).toBe('99+');
  });
});

describe('MessagesSection: a conversation', () => {
  const page = (over: Partial<MessagePage> = {}): MessagePage => ({
    user: bob,
    kind: 'direct',
    messages: [msg(5, 2, 'hi bob'), msg(6, 3, '<b>hi</b> ann')],
    hasMore: false,
    readUpTo: 5,
    otherReadUpTo: 5,
    canSend: true,
    ...over,
  });

  it('shows the messages as text, marks what the other read, and marks the new ones read', async () => {
    let readBody: unknown = null;
    signedIn({
      'GET /api/conversations/3/messages': () => json(page()),
      'POST /api/conversations/3/read': ({ body }) => ((readBody = body), json({ readUpTo: 6 })),
    });
    renderWithShell(<MessagesSection />, { route: '/profile?section=messages&with=3' });
    const log = await screen.findByRole('list', { name: 'Messages with Bob' });
    const items = within(log).getAllByTestId('dm');
    expect(items).toHaveLength(2);
    expect(within(items[1]).getByText('<b>hi</b> ann')).toBeTruthy(); // text, not markup
    expect(items[1].querySelector('b')).toBeNull();
    expect(within(items[0]).getByText('Read')).toBeTruthy();
    expect(within(items[0]).getByRole('button', { name: 'Delete message' })).toBeTruthy();
    expect(within(items[1]).queryByRole('button', { name: 'Delete message' })).toBeNull();
    await waitFor(() => expect(readBody).toEqual({ upTo: 6 }));
  });

  it('sends with the button and with Enter, and clears the field', async () => {
    const sent: unknown[] = [];
    signedIn({
      'GET /api/conversations/3/messages': () => json(page({ readUpTo: 6 })),
      'POST /api/conversations/3/messages': ({ body }) => (sent.push(body), json(msg(7 + sent.length, 2, (body as { text: string }).text), 201)),
      'GET /api/conversations': () => json([]),
    });
    renderWithShell(<MessagesSection />, { route: '/profile?section=messages&with=3' });
    const box = await screen.findByRole('textbox', { name: 'Message' });
    const send = screen.getByRole('button', { name: 'Send' });
    expect((send as HTMLButtonElement).disabled).toBe(true); // nothing to send yet
    fireEvent.change(box, { target: { value: '  ' } });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(box, { target: { value: 'one' } });
    fireEvent.click(send);
    await waitFor(() => expect((box as HTMLTextAreaElement).value).toBe(''));
    fireEvent.change(box, { target: { value: 'two' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(sent).toEqual([{ text: 'one' }, { text: 'two' }]));
    expect(await screen.findByText('two')).toBeTruthy();
  });

  it('explains why the caller cannot write, and loads older pages', async () => {
    signedIn({
      'GET /api/conversations/3/messages': ({ url }) =>
        json(
          new URL(url, 'http://x').searchParams.get('before') === '5'
            ? page({ messages: [msg(1, 3, 'the very first')], hasMore: false, canSend: false, reason: 'friends' })
            : page({ hasMore: true, canSend: false, reason: 'friends', readUpTo: 6 }),
        ),
    });
    renderWithShell(<MessagesSection />, { route: '/profile?section=messages&with=3' });
    expect(await screen.findByText(/Only friends can write to each other/)).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show older messages' }));
    expect(await screen.findByText('the very first')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Messages with Bob' })).getAllByTestId('dm')[0].textContent).toContain('the very first');
  });

  it('deletes an own message', async () => {
    let deleted = false;
    signedIn({
      'GET /api/conversations/3/messages': () => json(page({ readUpTo: 6 })),
      'DELETE /api/conversations/3/messages/5': () => ((deleted = true), new Response(null, { status: 204 })),
      'GET /api/conversations': () => json([]),
    });
    renderWithShell(<MessagesSection />, { route: '/profile?section=messages&with=3' });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete message' }));
    await waitFor(() => expect(deleted).toBe(true));
    await waitFor(() => expect(screen.queryByText('hi bob')).toBeNull());
  });
});
