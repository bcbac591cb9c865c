import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_KEY } from '../../../lib/api';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import ChatPage from './ChatPage';

const ann = { id: 1, email: 'ann@example.com', name: 'ann', role: 'user' };
const admin = { id: 9, email: 'root@example.com', name: 'root', role: 'admin' };

/** The event stream the page opens, written by the test. */
function fakeStream() {
  let ctrl: ReadableStreamDefaultController<Uint8Array> | null = null;
  const enc = new TextEncoder();
  return {
    answer: () =>
      new Response(new ReadableStream<Uint8Array>({ start: (c) => void (ctrl = c) }), {
        headers: { 'Content-Type': 'text/event-stream' },
      }),
    send: (type: string, data: unknown, id = 1) => ctrl?.enqueue(enc.encode(`id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`)),
    opened: () => ctrl !== null,
  };
}

const msg = (id: number, author: { id: number; name: string }, text: string) => ({
  id,
  author: { id: author.id, name: author.name },
  text,
  createdAt: '2026-11-27T10:00:00Z',
});

function setup(user = ann, extra: Parameters<typeof stubFetch>[0] = {}) {
  localStorage.setItem(TOKEN_KEY, 'tok');
  const stream = fakeStream();
  const fetchMock = stubFetch({
    '/api/auth/profile': () => json(user),
    'GET /api/chat/messages': () => json({ messages: [msg(1, { id: 2, name: 'bob' }, 'hi, see https://example.com <b>x</b>')] }),
    '/api/chat/online': () => json({ users: [{ id: 2, name: 'bob' }] }),
    '/api/events': () => stream.answer(),
    ...extra,
  });
  renderWithShell(<ChatPage />);
  return { stream, fetchMock };
}

beforeEach(async () => {
  await initTestI18n('en');
});
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

const log = () => screen.getByRole('log', { name: 'Messages' });

describe('the real room', () => {
  it('shows the history as text with links, who is online, and takes messages live', async () => {
    const { stream } = setup();
    const first = await screen.findByText(/hi, see/);
    expect(within(first).getByRole('link', { name: 'https://example.com' }).getAttribute('rel')).toContain('noopener');
    expect(first.textContent).toContain('<b>x</b>');
    expect(first.querySelector('b')).toBeNull();
    expect(screen.getByRole('complementary', { name: 'Online: 1' }).textContent).toContain('bob');
    await waitFor(() => expect(stream.opened()).toBe(true));
    act(() => void stream.send('chat.message', msg(2, { id: 3, name: 'cat' }, 'live one')));
    expect(await within(log()).findByText('live one')).toBeTruthy();
    act(() => void stream.send('presence', { user: { id: 3, name: 'cat' }, online: true }, 2));
    expect(await screen.findByRole('complementary', { name: 'Online: 2' })).toBeTruthy();
    act(() => void stream.send('chat.deleted', { id: 1 }, 3));
    await waitFor(() => expect(within(log()).queryByText(/hi, see/)).toBeNull());
    expect(screen.queryByRole('button', { name: /Delete the message/ })).toBeNull();
  });

  it('posts, clears the field, and says why a message was refused', async () => {
    let posts = 0;
    setup(ann, {
      'POST /api/chat/messages': ({ body }) => {
        posts++;
        if (posts === 2) return json({ status: 429, message: 'slow down', data: {} }, 429);
        return json(msg(10 + posts, ann, (body as { text: string }).text), 201);
      },
    });
    const input = await screen.findByRole('textbox', { name: 'Message' });
    await within(log()).findByText(/hi, see/);
    fireEvent.change(input, { target: { value: '  mine  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await within(log()).findByText('mine')).toBeTruthy();
    expect((input as HTMLInputElement).value).toBe('');
    fireEvent.change(input, { target: { value: 'again' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/too fast/);
    expect((input as HTMLInputElement).value).toBe('again');
    fireEvent.change(input, { target: { value: '   ' } });
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('lets an admin delete a message', async () => {
    const { fetchMock } = setup(admin, { 'DELETE /api/chat/messages/1': () => new Response(null, { status: 204 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete the message from bob' }));
    await waitFor(() => expect(within(log()).queryByText(/hi, see/)).toBeNull());
    expect(fetchMock.mock.calls.some(([url, init]) => String(url).endsWith('/api/chat/messages/1') && init?.method === 'DELETE')).toBe(true);
  });
});
