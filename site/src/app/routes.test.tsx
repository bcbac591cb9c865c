import { afterEach, describe, expect, it, vi } from 'vitest';
import { appQueryClient } from '../lib/queryClient';
import { json, stubFetch } from '../test/utils';

// Which chunk and data the start-up preload asks for; the pages themselves are not under test.
vi.mock('../features/portfolio/pages/HomePage', () => ({ default: function HomePage() { return null; } }));
vi.mock('../features/blog/pages/BlogPage', () => ({ default: function BlogPage() { return null; } }));
vi.mock('../features/blog/pages/ArticlePage', () => ({ default: function ArticlePage() { return null; } }));
vi.mock('../features/tools/ip/IpPage', () => ({ default: function IpPage() { return null; } }));
vi.mock('../features/downloads/pages/DownloadsPage', () => ({ default: function DownloadsPage() { return null; } }));
vi.mock('./NotFoundPage', () => ({ default: function NotFoundPage() { return null; } }));

const { pageFor, preloadRoute } = await import('./routes');

afterEach(() => {
  appQueryClient.clear();
  vi.unstubAllGlobals();
});

describe('pageFor (the chunk preloaded at start-up)', () => {
  it.each([
    ['/', 'HomePage'],
    ['/blog', 'BlogPage'],
    ['/blog/42', 'ArticlePage'],
    ['/blog/some-slug/', 'ArticlePage'],
    ['/tools/ip', 'IpPage'],
    ['/no/such/page', 'NotFoundPage'],
  ])('%s loads %s', async (path, name) => {
    const page = pageFor(path);
    expect(page).not.toBeNull();
    expect((await page!.preload()).default.name).toBe(name);
  });
});

describe('preloadRoute (the data asked for with the chunk)', () => {
  const requested = (fetch: ReturnType<typeof stubFetch>) => fetch.mock.calls.map((c) => String(c[0]));

  it('the home page asks for the profile into the query the page reads', async () => {
    const fetch = stubFetch({ '/api/profile': () => json({ name: 'Owner' }) });
    preloadRoute('/');
    await vi.waitFor(() => expect(appQueryClient.getQueryData(['profile'])).toEqual({ name: 'Owner' }));
    expect(requested(fetch)).toEqual(['/api/profile']);
  });

  it('an article page asks for its article by id and the first page of its comments', async () => {
    const comments = { closed: false, next: null, older: 0, published: 0, comments: [] };
    const fetch = stubFetch({ '/api/blog/42': () => json({ id: 42, name: 'Hello' }), '/api/blog/42/comments': () => json(comments) });
    preloadRoute('/blog/42');
    await vi.waitFor(() => expect(appQueryClient.getQueryData(['blog', 'article', '42'])).toEqual({ id: 42, name: 'Hello' }));
    await vi.waitFor(() => expect(appQueryClient.getQueryData(['comments', 'list', 42])).toEqual({ pages: [comments], pageParams: [undefined] }));
    expect(requested(fetch).sort()).toEqual(['/api/blog/42', '/api/blog/42/comments?limit=20']);
  });

  it.each(['programs', 'alavar'])('the %s list asks for the first page its page shows', async (section) => {
    const list = { entries: [], totalCount: 0 };
    const fetch = stubFetch({ '/api/downloads': () => json(list) });
    preloadRoute(`/${section}`);
    const key = ['downloads', 'list', { section, search: '', system: '', sort: 'name', page: 1 }];
    await vi.waitFor(() => expect(appQueryClient.getQueryData(key)).toEqual(list));
    expect(requested(fetch)).toEqual([`/api/downloads?section=${section}&sort=name&page=1&limit=20`]);
  });

  it('asks for nothing for an id that cannot exist, or a page without prefetched data', async () => {
    const fetch = stubFetch({});
    preloadRoute('/blog/not-an-id');
    preloadRoute('/tools/ip');
    await pageFor('/blog/not-an-id')!.preload();
    await new Promise((r) => setTimeout(r, 20));
    expect(requested(fetch)).toEqual([]);
  });
});

describe('the shell menus', () => {
  it('lead to pages, never to the not-found page', async () => {
    const { MAIN_ITEMS, SIDE_MENU_ITEMS, TOOL_ITEMS } = await import('./shell/navItems');
    const paths = [...TOOL_ITEMS, ...MAIN_ITEMS, ...SIDE_MENU_ITEMS].map((i) => i.to.split('?')[0]);
    expect(paths).toEqual(expect.arrayContaining(['/tools', '/skills']));
    for (const path of paths) {
      const page = pageFor(path);
      expect(page, path).not.toBeNull();
      expect((await page!.preload()).default.name, path).not.toBe('NotFoundPage');
    }
  });
});
