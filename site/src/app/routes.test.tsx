import { describe, expect, it, vi } from 'vitest';

// Which chunk the start-up preload asks for; the pages themselves are not under test.
vi.mock('../features/portfolio/pages/HomePage', () => ({ default: function HomePage() { return null; } }));
vi.mock('../features/blog/pages/BlogPage', () => ({ default: function BlogPage() { return null; } }));
vi.mock('../features/blog/pages/ArticlePage', () => ({ default: function ArticlePage() { return null; } }));
vi.mock('../features/tools/ip/IpPage', () => ({ default: function IpPage() { return null; } }));
vi.mock('./NotFoundPage', () => ({ default: function NotFoundPage() { return null; } }));

const { pageFor } = await import('./routes');

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
