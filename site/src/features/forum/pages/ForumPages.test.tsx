import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import type { Category, Post, Thread } from '../api';
import CategoryPage from './CategoryPage';
import ForumPage from './ForumPage';
import ThreadPage from './ThreadPage';

beforeAll(async () => {
  await initTestI18n('uk');
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const at = '2026-11-01T10:00:00Z';
const category: Category = {
  id: 1,
  name: 'General',
  names: { uk: 'Загальне' },
  description: 'Anything',
  descriptions: {},
  position: 1,
  threads: 2,
  lastActivity: at,
};
const thread = (t: Partial<Thread>): Thread => ({
  id: 3,
  categoryId: 1,
  title: 'Привіт',
  author: { id: 2, name: 'Олена' },
  status: 'published',
  pinned: false,
  locked: false,
  createdAt: at,
  lastPostAt: at,
  replies: 1,
  firstPostId: 10,
  ...t,
});
const post = (p: Partial<Post>): Post => ({
  id: 10,
  threadId: 3,
  author: { id: 2, name: 'Олена' },
  content: 'x',
  html: '<p>Тіло теми</p>',
  status: 'published',
  createdAt: at,
  ...p,
});
const profile = (id: number, role = 'user') => () => json({ id, email: `u${id}@example.com`, name: `U${id}`, role });

describe('ForumPage', () => {
  it('lists the categories by their name in the reader’s language, read-only for a guest', async () => {
    stubFetch({ '/api/forum/categories': () => json([category]) });
    renderWithShell(<ForumPage />);
    const link = await screen.findByRole('link', { name: 'Загальне' });
    expect(link.getAttribute('href')).toBe('/forum/c/1');
    expect(screen.getByText('2 теми')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Додати розділ' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Черга модерації' })).toBeNull();
  });

  it('lets an admin add a category', async () => {
    localStorage.setItem('token', 'admin-token');
    const added: unknown[] = [];
    stubFetch({
      '/api/auth/profile': profile(1, 'admin'),
      'GET /api/forum/categories': () => json([]),
      'POST /api/forum/categories': ({ body }) => (added.push(body), json(category, 201)),
    });
    renderWithShell(<ForumPage />);
    const form = await screen.findByRole('form', { name: 'Додати розділ' });
    fireEvent.change(within(form).getByLabelText('Назва'), { target: { value: 'Питання' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Додати' }));
    await waitFor(() => expect(added).toEqual([{ name: 'Питання', description: '', names: { uk: 'Питання' } }]));
  });
});

describe('CategoryPage', () => {
  it('shows the threads with their flags and invites a guest to sign in', async () => {
    stubFetch({
      '/api/forum/categories/1/threads': () =>
        json({ category, total: 2, threads: [thread({ id: 4, title: 'Правила', pinned: true, locked: true }), thread({})] }),
    });
    renderWithShell(<CategoryPage />, { route: '/forum/c/1', path: '/forum/c/:id' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Загальне' })).toBeTruthy();
    const rules = screen.getByRole('link', { name: 'Правила' }).closest('li')!;
    expect(within(rules).getByText('Закріплено')).toBeTruthy();
    expect(within(rules).getByText('Закрито')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Увійдіть, щоб брати участь' })).toBeTruthy();
    expect(screen.queryByLabelText('Текст (Markdown)')).toBeNull();
  });
});

describe('ThreadPage', () => {
  it('posts a reply and says when it waits for approval', async () => {
    localStorage.setItem('token', 'user-token');
    const replies: unknown[] = [];
    stubFetch({
      '/api/auth/profile': profile(5),
      'GET /api/forum/threads/3': () => json({ thread: thread({}), category, posts: [post({})], total: 1, following: false }),
      'POST /api/forum/threads/3/posts': ({ body }) => (replies.push(body), json(post({ id: 11, status: 'pending' }), 201)),
    });
    renderWithShell(<ThreadPage />, { route: '/forum/t/3', path: '/forum/t/:id' });
    expect(await screen.findByText('Тіло теми')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Стежити' }).getAttribute('aria-pressed')).toBe('false');
    fireEvent.change(screen.getByLabelText('Ваша відповідь (Markdown)'), { target: { value: 'Згоден' } });
    fireEvent.click(screen.getByRole('button', { name: 'Відповісти' }));
    expect(await screen.findByText(/щойно модератор його схвалить/)).toBeTruthy();
    expect(replies).toEqual([{ content: 'Згоден' }]);
  });

  it('an admin may still reply to a locked thread, and unlocks it', async () => {
    localStorage.setItem('token', 'admin-token');
    const flags: unknown[] = [];
    stubFetch({
      '/api/auth/profile': profile(1, 'admin'),
      'GET /api/forum/threads/3': () => json({ thread: thread({ locked: true }), category, posts: [post({})], total: 1, following: true }),
      'PATCH /api/forum/threads/3': ({ body }) => (flags.push(body), json(thread({}))),
    });
    renderWithShell(<ThreadPage />, { route: '/forum/t/3', path: '/forum/t/:id' });
    fireEvent.click(await screen.findByRole('button', { name: 'Відкрити' }));
    await waitFor(() => expect(flags).toEqual([{ locked: false }]));
    expect(screen.getByLabelText('Ваша відповідь (Markdown)')).toBeTruthy();
  });

  it('a thread that does not exist is said so', async () => {
    stubFetch({});
    renderWithShell(<ThreadPage />, { route: '/forum/t/9', path: '/forum/t/:id' });
    expect(await screen.findByRole('heading', { name: 'Такої теми немає' })).toBeTruthy();
  });
});
