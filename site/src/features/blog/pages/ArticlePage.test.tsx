import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../../test/utils';
import ArticlePage from './ArticlePage';

beforeAll(async () => {
  await initTestI18n('uk');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const article = {
  id: 7,
  slug: 'x',
  name: 'Запуск devhub',
  excerpt: 'Коротко',
  content: '# Привіт',
  content_html: '<h1 id="привіт">Привіт</h1>\n<pre class="chroma"><code><span class="kd">func</span></code></pre>',
  category: 'Guides',
  image_url: '',
  createdAt: '2025-01-10T09:00:00Z',
  updatedAt: '2025-01-10T09:00:00Z',
};

describe('ArticlePage', () => {
  it('shows the rendered article with its date, category and a back link', async () => {
    const fetch = stubFetch({ '/api/blog/7': () => json(article) });
    const { container } = renderWithShell(<ArticlePage />, { route: '/blog/7', path: '/blog/:id' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Запуск devhub' })).toBeTruthy();
    expect(String(fetch.mock.calls[0][0])).toBe('/api/blog/7');
    expect(screen.getByRole('heading', { level: 1, name: 'Привіт' })).toBeTruthy();
    expect(container.querySelector('pre.chroma .kd')?.textContent).toBe('func');
    expect(container.querySelector('time')?.getAttribute('dateTime')).toBe('2025-01-10T09:00:00Z');
    expect(screen.getByText(/2025/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Guides' }).getAttribute('href')).toBe('/blog?category=Guides');
    expect(screen.getByRole('link', { name: /Усі статті/ }).getAttribute('href')).toBe('/blog');
    // The title is set by an effect that may run just after the content is on screen.
    await waitFor(() => expect(document.title).toContain('Запуск devhub'));
    expect(document.head.querySelector('link[rel="alternate"][type="application/atom+xml"]')?.getAttribute('href')).toBe('/feed.xml');
  });

  it('shows the not-found state for an unknown id', async () => {
    stubFetch({ '/api/blog/99': () => json({ status: 404, message: 'not found', data: {} }, 404) });
    renderWithShell(<ArticlePage />, { route: '/blog/99', path: '/blog/:id' });
    expect(await screen.findByRole('heading', { name: 'Статтю не знайдено' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Усі статті/ })).toBeTruthy();
  });

  it('does not ask the server about an id that is not a number', async () => {
    const fetch = stubFetch({});
    renderWithShell(<ArticlePage />, { route: '/blog/abc', path: '/blog/:id' });
    expect(await screen.findByRole('heading', { name: 'Статтю не знайдено' })).toBeTruthy();
    expect(fetch.mock.calls.filter(([u]) => String(u).startsWith('/api/blog'))).toHaveLength(0);
  });

  it('says so when the article cannot be loaded', async () => {
    stubFetch({ '/api/blog/7': () => json({ status: 500, message: 'boom', data: {} }, 500) });
    renderWithShell(<ArticlePage />, { route: '/blog/7', path: '/blog/:id' });
    expect((await screen.findByRole('alert')).textContent).toBe('Не вдалося завантажити статтю.');
  });
});
