import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import type { Comment, CommentPage } from './api';
import { CommentThread } from './CommentThread';

beforeAll(async () => {
  await initTestI18n('uk');
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const now = new Date().toISOString();
const old = new Date(Date.now() - 60 * 60 * 1000).toISOString();
const comment = (c: Partial<Comment>): Comment => ({
  id: 1,
  articleId: 7,
  parentId: null,
  author: { id: 2, name: 'Олена' },
  content: 'x',
  html: '<p>x</p>',
  status: 'published',
  createdAt: old,
  ...c,
});

/** A page of comments as the server answers it: the newest, with nothing older unless said. */
const page = (p: Partial<CommentPage>): CommentPage => {
  const comments = p.comments ?? [];
  return { closed: false, next: null, older: 0, published: comments.filter((c) => c.status === 'published').length, ...p, comments };
};

const profile = (id: number, role = 'user') => () => json({ id, email: `u${id}@example.com`, name: `U${id}`, role });

describe('CommentThread', () => {
  it('shows a guest the published comments with their replies nested, and an invitation to sign in', async () => {
    stubFetch({
      '/api/blog/7/comments': () =>
        json(page({
          closed: false,
          comments: [
            comment({ id: 1, html: '<p>Перший <strong>коментар</strong></p>' }),
            comment({ id: 2, parentId: 1, author: { id: 3, name: 'Петро' }, html: '<p>Відповідь</p>' }),
          ],
        })),
    });
    renderWithShell(<CommentThread articleId={7} />);
    const first = await screen.findByRole('article', { name: 'Олена' });
    expect(within(first).getByText('коментар').tagName).toBe('STRONG');
    const reply = screen.getByRole('article', { name: 'Петро' });
    expect(reply.closest('ol')!.className).toBe('comments__replies');
    expect(screen.getByRole('heading', { level: 2 }).textContent).toContain('2 коментарі');
    expect(screen.getByRole('link', { name: 'Увійдіть, щоб коментувати' }).getAttribute('href')).toBe('/profile');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Відповісти' })).toBeNull();
  });

  it('holds its title alone until the first page arrives, so the comments push nothing on the screen down', async () => {
    let answer: ((r: Response) => void) | null = null;
    stubFetch({ '/api/blog/7/comments': () => new Promise<Response>((r) => (answer = r)) });
    renderWithShell(<CommentThread articleId={7} />);
    const title = await screen.findByRole('heading', { level: 2 });
    expect(title.textContent).toBe('Коментарі');
    expect(screen.queryByRole('link', { name: 'Увійдіть, щоб коментувати' })).toBeNull();
    await waitFor(() => expect(answer).not.toBeNull());
    answer!(json(page({ comments: [comment({ id: 1 })] })));
    expect(await screen.findByRole('link', { name: 'Увійдіть, щоб коментувати' })).toBeTruthy();
    expect(title.textContent).toContain('1 коментар');
  });

  it('shows the newest threads first and reads the older ones above them on request, replies with their parent', async () => {
    const asked: string[] = [];
    stubFetch({
      '/api/blog/7/comments': ({ url }) => {
        const q = new URL(url, 'http://x').searchParams;
        asked.push(q.toString());
        return q.get('before') === '21'
          ? json(
              page({
                comments: [
                  comment({ id: 1, author: { id: 3, name: 'Найдавніший' } }),
                  comment({ id: 30, parentId: 1, author: { id: 4, name: 'Пізня відповідь' } }),
                ],
                published: 5,
              }),
            )
          : json(
              page({
                comments: [
                  comment({ id: 21, author: { id: 5, name: 'Новіший' } }),
                  comment({ id: 22, author: { id: 6, name: 'Найновіший' } }),
                  comment({ id: 31, parentId: 22, author: { id: 7, name: 'Відповідь новому' } }),
                ],
                next: 21,
                older: 1,
                published: 5,
              }),
            );
      },
    });
    renderWithShell(<CommentThread articleId={7} />);
    const newest = await screen.findByRole('article', { name: 'Найновіший' });
    expect(screen.queryByRole('article', { name: 'Найдавніший' })).toBeNull();
    // The count is the article's, every page included.
    expect(screen.getByRole('heading', { level: 2 }).textContent).toContain('5 коментарів');
    expect(within(newest.closest('li')!).getByRole('article', { name: 'Відповідь новому' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Попередні коментарі (1)' }));
    const oldest = await screen.findByRole('article', { name: 'Найдавніший' });
    const reply = screen.getByRole('article', { name: 'Пізня відповідь' });
    expect(reply.closest('ol')!.className).toBe('comments__replies');
    expect(oldest.closest('li')!.contains(reply)).toBe(true);
    const order = screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'));
    expect(order).toEqual(['Найдавніший', 'Пізня відповідь', 'Новіший', 'Найновіший', 'Відповідь новому']);
    await waitFor(() => expect(screen.queryByRole('button', { name: /Попередні коментарі/ })).toBeNull());
    expect(asked).toEqual(['limit=20', 'limit=20&before=21']);
  });

  it('posts a signed-in reader’s comment and says when it waits for approval', async () => {
    localStorage.setItem('token', 'user-token');
    const posted: unknown[] = [];
    stubFetch({
      '/api/auth/profile': profile(5),
      'GET /api/blog/7/comments': () => json(page({ closed: false, comments: [] })),
      'POST /api/blog/7/comments': ({ body }) => {
        posted.push(body);
        return json(comment({ id: 9, author: { id: 5, name: 'U5' }, status: 'pending', createdAt: now }), 201);
      },
    });
    renderWithShell(<CommentThread articleId={7} />);
    const box = await screen.findByLabelText('Ваш коментар (Markdown)');
    fireEvent.change(box, { target: { value: 'Привіт **світ**' } });
    fireEvent.click(screen.getByRole('button', { name: 'Коментувати' }));
    expect(await screen.findByText(/щойно модератор його схвалить/)).toBeTruthy();
    expect(posted).toEqual([{ content: 'Привіт **світ**' }]);
  });

  it('offers its author an edit only within 15 minutes, and replies only on top-level comments', async () => {
    localStorage.setItem('token', 'user-token');
    stubFetch({
      '/api/auth/profile': profile(5),
      '/api/blog/7/comments': () =>
        json(page({
          closed: false,
          comments: [
            comment({ id: 1, author: { id: 5, name: 'Свіжий' }, createdAt: now }),
            comment({ id: 2, author: { id: 5, name: 'Старий' }, createdAt: old }),
            comment({ id: 3, parentId: 1, author: { id: 6, name: 'Відповідач' } }),
          ],
        })),
    });
    renderWithShell(<CommentThread articleId={7} />);
    const fresh = await screen.findByRole('article', { name: 'Свіжий' });
    await waitFor(() => expect(within(fresh).queryByRole('button', { name: 'Редагувати' })).not.toBeNull());
    expect(within(screen.getByRole('article', { name: 'Старий' })).queryByRole('button', { name: 'Редагувати' })).toBeNull();
    expect(within(fresh).getByRole('button', { name: 'Відповісти' })).toBeTruthy();
    expect(within(screen.getByRole('article', { name: 'Відповідач' })).queryByRole('button', { name: 'Відповісти' })).toBeNull();
  });

  it('lets an admin approve a held comment and close the comments', async () => {
    localStorage.setItem('token', 'admin-token');
    const calls: string[] = [];
    stubFetch({
      '/api/auth/profile': profile(1, 'admin'),
      'GET /api/blog/7/comments': () => json(page({ closed: false, comments: [comment({ id: 4, status: 'pending' })] })),
      'POST /api/comments/4/approve': () => (calls.push('approve'), json(comment({ id: 4 }))),
      'PUT /api/blog/7/comments/closed': () => (calls.push('close'), new Response(null, { status: 204 })),
    });
    renderWithShell(<CommentThread articleId={7} />);
    const held = await screen.findByRole('article', { name: 'Олена' });
    expect(within(held).getByText('Очікує схвалення')).toBeTruthy();
    fireEvent.click(await within(held).findByRole('button', { name: 'Схвалити' }));
    fireEvent.click(screen.getByRole('button', { name: 'Закрити коментарі' }));
    await waitFor(() => expect(calls.sort()).toEqual(['approve', 'close']));
  });

  it('says when the comments are closed and offers no form', async () => {
    localStorage.setItem('token', 'user-token');
    stubFetch({ '/api/auth/profile': profile(5), '/api/blog/7/comments': () => json(page({ closed: true, comments: [] })) });
    renderWithShell(<CommentThread articleId={7} />);
    expect(await screen.findByText('Коментарі до цієї статті закрито')).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});
