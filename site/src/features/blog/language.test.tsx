// Article languages in the blog: the list asks for the interface language first and marks the
// other articles with their language; an article page carries its own lang and links its
// translations.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../lib/i18n';
import { initTestI18n, json, renderWithShell, stubFetch } from '../../test/utils';
import type { ArticleSummary } from './api';
import { CreateArticleModal } from './components/CreateArticleModal';
import ArticlePage from './pages/ArticlePage';
import BlogPage from './pages/BlogPage';

vi.mock('../../lib/toast', () => ({
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), warning: vi.fn(), show: vi.fn(), dismiss: vi.fn() },
}));

function summary(id: number, name: string, lang: string | undefined, extra: Partial<ArticleSummary> = {}): ArticleSummary {
  return {
    id,
    slug: `a-${id}`,
    name,
    excerpt: `About ${name}`,
    category: 'Go',
    image_url: '',
    ...(lang === undefined ? {} : { lang }),
    translationKey: '',
    createdAt: '2025-01-10T09:00:00Z',
    updatedAt: '2025-01-10T09:00:00Z',
    ...extra,
  };
}

/** A server that orders by the asked language first, as the real one does. */
function fakeList(all: ArticleSummary[]) {
  return stubFetch({
    '/api/auth/profile': () => json({ status: 401, message: 'no', data: {} }, 401),
    'GET /api/blog': ({ url }) => {
      const lang = new URL(url, 'http://x').searchParams.get('lang') ?? '';
      const mine = all.filter((a) => (a.lang ?? 'en') === lang);
      const rest = all.filter((a) => (a.lang ?? 'en') !== lang);
      return json({ articles: [...mine, ...rest], totalCount: all.length });
    },
    'GET /api/blog/categories': () => json([]),
  });
}

const ARTICLES = [
  summary(4, 'Новини', 'uk'),
  summary(3, 'Running devhub', 'en'),
  summary(2, 'Запуск', 'uk'),
  summary(1, 'Old one', undefined), // from before articles had a language: English
];

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

describe.each([
  {
    ui: 'uk',
    order: ['Новини', 'Запуск', 'Running devhub', 'Old one'],
    badges: { 'Running devhub': 'Мова: англійська', 'Old one': 'Мова: англійська' } as Record<string, string>,
  },
  {
    ui: 'en',
    order: ['Running devhub', 'Old one', 'Новини', 'Запуск'],
    badges: { Новини: 'In Ukrainian', Запуск: 'In Ukrainian' } as Record<string, string>,
  },
  {
    ui: 'ru',
    order: ['Новини', 'Running devhub', 'Запуск', 'Old one'],
    badges: { Новини: 'Язык: украинский', 'Running devhub': 'Язык: английский', Запуск: 'Язык: украинский', 'Old one': 'Язык: английский' } as Record<string, string>,
  },
])('the blog list in $ui', ({ ui, order, badges }) => {
  beforeEach(async () => {
    await initTestI18n(ui as 'uk' | 'en' | 'ru');
  });

  it('asks for its language first and marks only the articles in another language', async () => {
    const fetch = fakeList(ARTICLES);
    renderWithShell(<BlogPage />, { route: '/blog' });
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(4));
    const listUrl = fetch.mock.calls.map(([u]) => String(u)).find((u) => u.startsWith('/api/blog?'))!;
    expect(new URL(listUrl, 'http://x').searchParams.get('lang')).toBe(ui);
    const cards = screen.getAllByRole('article');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual(order);
    for (const card of cards) {
      const name = within(card).getByRole('heading').textContent!;
      const badge = card.querySelector('.blog-card__lang');
      expect(badge?.textContent ?? null, name).toBe(badges[name] ?? null);
      // title and excerpt carry the article's own language
      const lang = ARTICLES.find((a) => a.name === name)!.lang ?? 'en';
      expect(within(card).getByRole('heading').getAttribute('lang')).toBe(lang);
      // so does its name in the "Read more" link, the words around it in the interface's
      const more = card.querySelector('.blog-card__more')!;
      expect(within(more as HTMLElement).getByText(name).getAttribute('lang')).toBe(lang);
    }
  });
});

describe('an article page', () => {
  beforeEach(async () => {
    await initTestI18n('en');
  });

  const article = {
    ...summary(7, 'Запуск devhub', 'uk', { translationKey: 'run' }),
    content: '# Привіт',
    content_html: '<h1 id="привіт">Привіт</h1>',
    translations: [
      { id: 3, slug: 'running-devhub', name: 'Running devhub', lang: 'en' },
      { id: 9, slug: 'zapusk', name: 'Запуск ru', lang: 'ru' },
    ],
  };

  it('carries its language on its text and links its translations by their own names', async () => {
    stubFetch({
      '/api/blog/7': () => json(article),
      '/api/blog/3': () => json({ ...summary(3, 'Running devhub', 'en', { translationKey: 'run' }), content: 'Hi', content_html: '<p>Hi</p>',
        translations: [{ id: 7, slug: 'a-7', name: 'Запуск devhub', lang: 'uk' }] }),
    });
    const { container } = renderWithShell(<ArticlePage />, { route: '/blog/7', path: '/blog/:id' });
    const h1 = await screen.findByRole('heading', { level: 1, name: 'Запуск devhub' });
    expect(h1.getAttribute('lang')).toBe('uk');
    expect(container.querySelector('.blog-article__content')?.getAttribute('lang')).toBe('uk');
    // the page around it stays in the interface language
    expect(screen.getByRole('link', { name: /All articles/ }).closest('[lang]')).toBeNull();

    const nav = screen.getByRole('navigation', { name: 'Also in' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href'), l.getAttribute('lang'), l.getAttribute('hreflang')])).toEqual([
      ['English', '/blog/3', 'en', 'en'],
      ['Русский', '/blog/9', 'ru', 'ru'],
    ]);

    // following the switch shows the translation, which links back
    fireEvent.click(links[0]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Running devhub' })).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/blog/3');
    expect(within(screen.getByRole('navigation', { name: 'Also in' })).getByRole('link', { name: 'Українська' }).getAttribute('href')).toBe('/blog/7');
  });

  it('without translations shows no switch', async () => {
    stubFetch({ '/api/blog/7': () => json({ ...article, translations: [] }) });
    renderWithShell(<ArticlePage />, { route: '/blog/7', path: '/blog/:id' });
    await screen.findByRole('heading', { level: 1, name: 'Запуск devhub' });
    expect(screen.queryByRole('navigation', { name: 'Also in' })).toBeNull();
  });
});

describe('the create form', () => {
  beforeEach(async () => {
    await initTestI18n('en');
  });

  it('sends the chosen language and translation key; the language defaults to the site default', async () => {
    const fetch = stubFetch({
      'POST /api/blog': ({ body }) => json({ ...summary(50, 'x', 'uk'), ...(body as object), content: 'x' }, 201),
    });
    const onCreated = vi.fn();
    renderWithShell(<CreateArticleModal onClose={() => {}} onCreated={onCreated} />);
    const lang = screen.getByLabelText('Language') as HTMLSelectElement;
    expect(lang.value).toBe('en');
    expect([...lang.options].map((o) => o.textContent)).toEqual(['English', 'Українська', 'Русский']);
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Новини' } });
    fireEvent.change(screen.getByLabelText('Summary'), { target: { value: 'e' } });
    fireEvent.change(screen.getByLabelText('Text (Markdown)'), { target: { value: 'x' } });
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'c' } });
    fireEvent.change(lang, { target: { value: 'uk' } });
    fireEvent.change(screen.getByLabelText('Translation key (optional)'), { target: { value: ' news ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalled());
    const post = fetch.mock.calls.find(([, init]) => (init as RequestInit | undefined)?.method === 'POST')!;
    expect(JSON.parse(String((post[1] as RequestInit).body))).toMatchObject({ lang: 'uk', translationKey: 'news' });
  });

  it('shows the server refusing a translation key at its field', async () => {
    stubFetch({
      'POST /api/blog': () =>
        json({ status: 400, message: 'bad', data: { translationKey: { code: 'invalid', message: 'translationKey may hold only lower-case letters' } } }, 400),
    });
    renderWithShell(<CreateArticleModal onClose={() => {}} onCreated={() => {}} />);
    for (const [label, value] of [['Title', 'n'], ['Summary', 'e'], ['Text (Markdown)', 'x'], ['Category', 'c'], ['Translation key (optional)', 'A B']]) {
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
    }
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    const key = screen.getByLabelText('Translation key (optional)');
    await waitFor(() => expect(key.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText(/translationKey may hold only/)).toBeTruthy();
  });
});
