import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../../lib/queryClient';
import { toast } from '../../../lib/toast';
import { AuthProvider } from '../../../lib/auth';
import { i18n } from '../../../lib/i18n';
import { initTestI18n, json, LocationProbe, renderWithShell, stubFetch } from '../../../test/utils';
import type { ArticleSummary } from '../api';
import ArticlePage from './ArticlePage';
import BlogPage from './BlogPage';

vi.mock('../../../lib/toast', () => ({
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn(), show: vi.fn(), dismiss: vi.fn() },
}));

function summary(id: number, extra: Partial<ArticleSummary> = {}): ArticleSummary {
  return {
    id,
    slug: `a-${id}`,
    name: `Статья ${id}`,
    excerpt: `Описание ${id}`,
    category: 'Go',
    image_url: '',
    createdAt: '2025-01-10T09:00:00Z',
    updatedAt: '2025-01-10T09:00:00Z',
    ...extra,
  };
}

const admin = { id: 1, email: 'admin@example.com', name: 'Admin', role: 'admin' };
const user = { id: 2, email: 'user@example.com', name: 'User', role: 'user' };

/** A fake blog API over an in-memory list of 23 articles. */
function fakeBlog(opts: { profile?: typeof admin } = {}) {
  let articles = Array.from({ length: 23 }, (_, i) => summary(23 - i));
  const fetch = stubFetch({
    '/api/auth/profile': () => (opts.profile ? json(opts.profile) : json({ status: 401, message: 'no', data: {} }, 401)),
    'GET /api/blog': ({ url }) => {
      const q = new URL(url, 'http://x').searchParams;
      const search = (q.get('search') ?? '').toLowerCase();
      const cat = q.get('category') ?? 'all';
      const hits = articles.filter(
        (a) => (cat === 'all' || a.category === cat) && (!search || a.name.toLowerCase().includes(search)),
      );
      const page = Number(q.get('page')), limit = Number(q.get('limit'));
      return json({ articles: hits.slice((page - 1) * limit, page * limit), totalCount: hits.length });
    },
    'GET /api/blog/categories': () => json([{ name: 'Go', count: articles.length }]),
    'POST /api/blog': ({ body }) => {
      const a = { ...summary(100), ...(body as object), id: 100 } as ArticleSummary;
      articles = [a, ...articles];
      return json({ ...a, content: 'x' }, 201);
    },
  });
  fetch.mockImplementation(
    ((orig) =>
      async (input: RequestInfo | URL, init: RequestInit = {}) => {
        const url = String(input);
        if ((init.method ?? 'GET') === 'DELETE' && url.startsWith('/api/blog/')) {
          const id = Number(url.split('/').pop());
          articles = articles.filter((a) => a.id !== id);
          return new Response(null, { status: 204 });
        }
        return orig(input, init);
      })(fetch.getMockImplementation()!),
  );
  return fetch;
}

function listCalls(fetch: ReturnType<typeof stubFetch>) {
  return fetch.mock.calls
    .map(([input, init]) => ({ url: String(input), method: (init as RequestInit | undefined)?.method ?? 'GET' }))
    .filter((c) => c.method === 'GET' && c.url.startsWith('/api/blog?'))
    .map((c) => new URL(c.url, 'http://x').searchParams);
}

/** Lets pending fetches and timers run (fake timers). */
async function flush(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

beforeAll(async () => {
  await initTestI18n('ru');
});
beforeEach(() => {
  vi.useFakeTimers();
  vi.clearAllMocks();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('BlogPage', () => {
  it('loads page 1 with the spec query and shows cards and the pager', async () => {
    const fetch = fakeBlog();
    renderWithShell(<BlogPage />, { route: '/blog' });
    await flush();
    const q = listCalls(fetch)[0];
    expect(Object.fromEntries(q)).toEqual({ limit: '5', page: '1', category: 'all', search: '', lang: 'ru' });
    expect(screen.getAllByRole('article')).toHaveLength(5);
    expect(screen.getByRole('link', { name: 'Статья 23' }).getAttribute('href')).toBe('/blog/23');
    // "Read more" names its article (descriptive link text; visibly it stays "Читать далее")
    const more = screen.getByRole('link', { name: 'Читать далее о «Статья 23»' });
    expect(more.getAttribute('href')).toBe('/blog/23');
    expect(more.firstChild?.textContent).toBe('Читать далее');
    const pager = screen.getByRole('navigation', { name: 'Страницы блога' });
    expect(within(pager).getAllByRole('button').map((b) => b.textContent)).toEqual(['‹', '1', '2', '5', '›']);
    fireEvent.click(within(pager).getByRole('button', { name: 'Страница 2' }));
    await flush();
    expect(listCalls(fetch).at(-1)?.get('page')).toBe('2');
    expect(screen.getByRole('link', { name: 'Статья 18' })).toBeTruthy();
    expect(within(pager).getByRole('button', { name: 'Страница 2' }).getAttribute('aria-current')).toBe('page');
  });

  it('searches once, 500 ms after the last keystroke, from page 1', async () => {
    const fetch = fakeBlog();
    renderWithShell(<BlogPage />, { route: '/blog' });
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Страница 2' }));
    await flush();
    const before = listCalls(fetch).length;
    const box = screen.getByLabelText('Поиск статей');
    fireEvent.change(box, { target: { value: 'с' } });
    await flush(200);
    fireEvent.change(box, { target: { value: 'статья 1' } });
    await flush(499);
    expect(listCalls(fetch)).toHaveLength(before);
    await flush(1);
    const calls = listCalls(fetch).slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0].get('search')).toBe('статья 1');
    expect(calls[0].get('page')).toBe('1');
    await flush();
    expect(screen.getByText('Статей: 11')).toBeTruthy();
  });

  it('filters by category from page 1', async () => {
    const fetch = fakeBlog();
    renderWithShell(<BlogPage />, { route: '/blog' });
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Страница 2' }));
    await flush();
    fireEvent.change(screen.getByLabelText('Категория'), { target: { value: 'Go' } });
    await flush();
    const q = listCalls(fetch).at(-1)!;
    expect(q.get('category')).toBe('Go');
    expect(q.get('page')).toBe('1');
    expect(screen.getByRole('option', { name: 'Go (23)' })).toBeTruthy();
  });

  it('shows no create or delete buttons to guests and plain users', async () => {
    for (const profile of [undefined, user]) {
      if (profile) localStorage.setItem('token', 't');
      fakeBlog({ profile });
      const { unmount } = renderWithShell(<BlogPage />, { route: '/blog' });
      await flush();
      expect(screen.getAllByRole('article')).toHaveLength(5);
      expect(screen.queryByRole('button', { name: 'Создать статью' })).toBeNull();
      expect(screen.queryByRole('button', { name: /Удалить/ })).toBeNull();
      unmount();
    }
  });

  it('lets an admin delete after confirming, and not after cancelling', async () => {
    localStorage.setItem('token', 'admin-token');
    const fetch = fakeBlog({ profile: admin });
    renderWithShell(<BlogPage />, { route: '/blog' });
    await flush();
    const deletes = () => fetch.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'DELETE');

    fireEvent.click(screen.getByRole('button', { name: 'Удалить статью «Статья 23»' }));
    let dialog = screen.getByRole('alertdialog', { name: 'Удалить статью?' });
    expect(within(dialog).getByRole('button', { name: 'Отмена' })).toBe(document.activeElement);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(deletes()).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Удалить статью «Статья 23»' }));
    dialog = screen.getByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    await flush();
    expect(String(deletes()[0][0])).toBe('/api/blog/23');
    expect(new Headers((deletes()[0][1] as RequestInit).headers).get('Authorization')).toBe('Bearer admin-token');
    expect(toast.success).toHaveBeenCalledWith('Статья успешно удалена');
    expect(screen.queryByRole('link', { name: 'Статья 23' })).toBeNull();
    expect(screen.getByText('Статей: 22')).toBeTruthy();
  });

  it('reports a failed delete with the spec text', async () => {
    localStorage.setItem('token', 'admin-token');
    const fetch = fakeBlog({ profile: admin });
    renderWithShell(<BlogPage />, { route: '/blog' });
    await flush();
    fetch.mockImplementationOnce(async () => json({ status: 403, message: 'administrator rights required', data: {} }, 403));
    fireEvent.click(screen.getByRole('button', { name: 'Удалить статью «Статья 23»' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Удалить' }));
    await flush();
    expect(toast.error).toHaveBeenCalledWith('Ошибка при удалении статьи');
  });

  it('creates an article through the modal, requiring name, excerpt, content and category', async () => {
    localStorage.setItem('token', 'admin-token');
    const fetch = fakeBlog({ profile: admin });
    renderWithShell(<BlogPage />, { route: '/blog' });
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Создать статью' }));
    const dialog = screen.getByRole('dialog', { name: 'Новая статья' });
    expect(within(dialog).getByLabelText('Название')).toBe(document.activeElement);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Создать' }));
    await flush();
    expect(within(dialog).getAllByText('Обязательное поле')).toHaveLength(4);
    const posts = () => fetch.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'POST');
    expect(posts()).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Название'), { target: { value: 'Новая' } });
    fireEvent.change(within(dialog).getByLabelText('Краткое описание'), { target: { value: 'Кратко' } });
    fireEvent.change(within(dialog).getByLabelText('Текст (Markdown)'), { target: { value: '# Заголовок' } });
    fireEvent.change(within(dialog).getByLabelText('Категория'), { target: { value: 'Go' } });
    fireEvent.change(within(dialog).getByLabelText('URL изображения (необязательно)'), { target: { value: '/img.png' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Создать' }));
    await flush();
    expect(JSON.parse(posts()[0][1]!.body as string)).toEqual({
      name: 'Новая',
      excerpt: 'Кратко',
      content: '# Заголовок',
      category: 'Go',
      image_url: '/img.png',
      lang: 'en',
      translationKey: '',
    });
    expect(toast.success).toHaveBeenCalledWith('Статья успешно создана');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('link', { name: 'Новая' })).toBeTruthy();
  });

  it('reports a refused create with the spec text and the field message', async () => {
    localStorage.setItem('token', 'admin-token');
    const fetch = fakeBlog({ profile: admin });
    renderWithShell(<BlogPage />, { route: '/blog' });
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Создать статью' }));
    const dialog = screen.getByRole('dialog');
    for (const [label, value] of [['Название', 'n'], ['Краткое описание', 'e'], ['Текст (Markdown)', 'c'], ['Категория', 'g'], ['URL изображения (необязательно)', 'javascript:x']]) {
      fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
    }
    fetch.mockImplementationOnce(async () =>
      json({ status: 400, message: 'validation failed', data: { image_url: { code: 'invalid', message: 'bad image' } } }, 400),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Создать' }));
    await flush();
    expect(toast.error).toHaveBeenCalledWith('Ошибка при создании статьи');
    // A known code is said in the reader's language; the field gets the focus.
    const image = within(dialog).getByLabelText('URL изображения (необязательно)');
    expect(within(dialog).getByText(/Нужен http\(s\)-адрес/)).toBeTruthy();
    expect(image.getAttribute('aria-invalid')).toBe('true');
    await flush(20);
    expect(document.activeElement).toBe(image);
    expect(screen.getByRole('dialog')).toBeTruthy();

    // An unknown code keeps the server's own message.
    fetch.mockImplementationOnce(async () =>
      json({ status: 400, message: 'validation failed', data: { name: { code: 'odd', message: 'server says no' } } }, 400),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Создать' }));
    await flush();
    expect(within(dialog).getByText('server says no')).toBeTruthy();
  });

  it('keeps typed text when the backdrop is clicked, and focuses the first missing field', async () => {
    localStorage.setItem('token', 'admin-token');
    fakeBlog({ profile: admin });
    renderWithShell(<BlogPage />, { route: '/blog' });
    await flush();
    fireEvent.click(screen.getByRole('button', { name: 'Создать статью' }));
    const backdrop = () => screen.getByRole('dialog').parentElement!;
    fireEvent.change(screen.getByLabelText('Название'), { target: { value: 'Черновик' } });
    fireEvent.mouseDown(backdrop());
    expect(screen.getByRole('dialog')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Создать' }));
    await flush(20);
    expect(document.activeElement).toBe(screen.getByLabelText('Краткое описание'));
    fireEvent.change(screen.getByLabelText('Название'), { target: { value: '' } });
    fireEvent.mouseDown(backdrop());
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps the search, category and page in the address', async () => {
    const fetch = fakeBlog();
    renderWithShell(<BlogPage />, { route: '/blog?search=%D1%81%D1%82%D0%B0%D1%82%D1%8C%D1%8F+1&page=2' });
    await flush();
    expect(Object.fromEntries(listCalls(fetch)[0])).toEqual({ limit: '5', page: '2', category: 'all', search: 'статья 1', lang: 'ru' });
    expect((screen.getByLabelText('Поиск статей') as HTMLInputElement).value).toBe('статья 1');
    const location = () => new URL(screen.getByTestId('location').textContent!, 'http://x');

    fireEvent.click(screen.getByRole('button', { name: 'Страница 3' }));
    await flush();
    expect(location().searchParams.get('page')).toBe('3');
    expect(listCalls(fetch).at(-1)?.get('page')).toBe('3');

    fireEvent.change(screen.getByLabelText('Категория'), { target: { value: 'Go' } });
    await flush();
    expect(location().searchParams.get('category')).toBe('Go');
    expect(location().searchParams.has('page')).toBe(false);

    fireEvent.change(screen.getByLabelText('Поиск статей'), { target: { value: '' } });
    await flush(500);
    expect(location().search).toBe('?category=Go');
    expect(Object.fromEntries(listCalls(fetch).at(-1)!)).toEqual({ limit: '5', page: '1', category: 'Go', search: '', lang: 'ru' });
  });

  it('brings the reader back to the same page of the list from an article', async () => {
    const fetch = fakeBlog();
    fetch.mockImplementation(
      ((orig) => async (input: RequestInfo | URL, init?: RequestInit) =>
        String(input) === '/api/blog/17'
          ? json({ ...summary(17), content: 'x', content_html: '<p>x</p>' })
          : orig(input, init))(fetch.getMockImplementation()!),
    );
    render(
      <QueryClientProvider client={createQueryClient()}>
        <I18nextProvider i18n={i18n}>
          <AuthProvider>
            <MemoryRouter initialEntries={['/blog?search=%D1%81%D1%82%D0%B0%D1%82%D1%8C%D1%8F&page=2']}>
              <Routes>
                <Route path="/blog" element={<BlogPage />} />
                <Route path="/blog/:id" element={<ArticlePage />} />
              </Routes>
              <LocationProbe />
            </MemoryRouter>
          </AuthProvider>
        </I18nextProvider>
      </QueryClientProvider>,
    );
    await flush();
    fireEvent.click(screen.getByRole('link', { name: 'Статья 17' }));
    await flush();
    expect(screen.getByTestId('location').textContent).toBe('/blog/17');
    fireEvent.click(screen.getByRole('link', { name: /Все статьи/ }));
    await flush();
    const back = new URL(screen.getByTestId('location').textContent!, 'http://x');
    expect(back.pathname).toBe('/blog');
    expect(back.searchParams.get('page')).toBe('2');
    expect((screen.getByLabelText('Поиск статей') as HTMLInputElement).value).toBe('статья');
    expect(listCalls(fetch).at(-1)?.get('page')).toBe('2');
    expect(screen.getByRole('button', { name: 'Страница 2' }).getAttribute('aria-current')).toBe('page');
  });

  it('links the Atom feed in the page and in the document head', async () => {
    fakeBlog();
    const { unmount } = renderWithShell(<BlogPage />, { route: '/blog' });
    await flush();
    expect(screen.getByRole('link', { name: 'Лента Atom' }).getAttribute('href')).toBe('/feed.xml');
    const head = () => document.head.querySelectorAll('link[rel="alternate"][type="application/atom+xml"]');
    expect(head()).toHaveLength(1);
    unmount();
    expect(head()).toHaveLength(0);
  });

  it('toasts the spec text when the list cannot be loaded', async () => {
    stubFetch({ 'GET /api/blog': () => json({ status: 500, message: 'boom', data: {} }, 500) });
    renderWithShell(<BlogPage />, { route: '/blog' });
    await flush();
    expect(toast.error).toHaveBeenCalledWith('Ошибка при загрузке данных');
  });

  it('shows the image by the display rule and the placeholder otherwise', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>';
    stubFetch({
      'GET /api/blog': () =>
        json({
          articles: [
            summary(1, { image_url: 'https://example.com/a.png' }),
            summary(2, { image_url: svg }),
            summary(3, { image_url: 'not-a-url' }),
            summary(4, { image_url: '' }),
          ],
          totalCount: 4,
        }),
    });
    const { container } = renderWithShell(<BlogPage />, { route: '/blog' });
    await flush();
    const imgs = [...container.querySelectorAll('img')];
    expect(imgs.map((i) => i.getAttribute('data-placeholder') === 'true')).toEqual([false, false, true, true]);
    expect(imgs[0].getAttribute('src')).toBe('https://example.com/a.png');
    expect(imgs[1].getAttribute('src')).toBe(`data:image/svg+xml,${encodeURIComponent(svg)}`);
    expect(container.querySelector('svg')).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Страницы блога' })).toBeNull();
  });
});
