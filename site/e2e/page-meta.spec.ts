import type { Page } from '@playwright/test';
import { baseURL, cliJson, expect, test } from './fixtures';

// A title and a meta description per route and language ("Layout, speed and SEO"): the
// server's HTML carries the route's English ones (and an article's own), and the running SPA keeps
// both in the interface's language as the visitor moves between pages and switches languages.

const description = (page: Page) => page.locator('meta[name="description"]');

test('the server sends each route’s title and description in its HTML', async () => {
  for (const [path, title, desc] of [
    ['/games', 'Retro games — DevHub', 'Play homebrew retro games in the browser.'],
    ['/blog', 'Blog — DevHub', 'Notes on development.'],
    ['/no-such-page', 'Not found — DevHub', 'This page does not exist.'],
  ]) {
    const html = await (await fetch(baseURL + path)).text();
    expect(html, path).toContain(`<title>${title}</title>`);
    expect(html, path).toContain(`<meta name="description" content="${desc}" />`);
  }
});

test('the title and the description follow the route and the interface language', async ({ page }) => {
  await page.addInitScript(() => {
    if (!localStorage.getItem('preferredLanguage')) localStorage.setItem('preferredLanguage', 'uk');
  });
  await page.goto('/games');
  await expect(page).toHaveTitle('Ігри · DevHub');
  await expect(description(page)).toHaveAttribute('content', 'Грайте в браузері в homebrew-ретроігри.');

  const nav = page.getByRole('navigation', { name: 'Головна навігація' });
  await nav.getByRole('link', { name: 'Блог' }).click();
  await expect(page).toHaveTitle('Блог · DevHub');
  await expect(description(page)).toHaveAttribute('content', 'Нотатки про розробку.');

  // an article: its own name and summary, in its own language
  const article = cliJson<Array<{ id: number; slug: string; name: string; excerpt: string }>>(['article', 'list', '--json']).find(
    (a) => a.slug === 'blog-markdown-search-en',
  )!;
  await page.getByRole('link', { name: article.name }).first().click();
  await expect(page).toHaveTitle(`${article.name} · DevHub`);
  await expect(description(page)).toHaveAttribute('content', article.excerpt);

  // another language: the article keeps its summary; the list's description changes with it
  await page.getByRole('button', { name: /Оберіть мову/ }).click();
  await page.getByRole('menuitemradio', { name: 'Русский' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(description(page)).toHaveAttribute('content', article.excerpt);
  await page.goBack();
  await expect(page).toHaveTitle('Блог · DevHub');
  await expect(description(page)).toHaveAttribute('content', 'Заметки о разработке.');

  await page.goto('/no-such-page');
  await expect(page).toHaveTitle('Страница не найдена · DevHub');
  await expect(description(page)).toHaveAttribute('content', 'Такой страницы не существует.');
});

test('an article’s HTML from the server carries its Open Graph tags, language, canonical URL and translations', async () => {
  const list = cliJson<Array<{ id: number; slug: string; name: string; excerpt: string }>>(['article', 'list', '--json']);
  const uk = list.find((a) => a.slug === 'blog-markdown-search')!;
  const en = list.find((a) => a.slug === 'blog-markdown-search-en')!;
  const html = await (await fetch(`${baseURL}/blog/${uk.id}`)).text();
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&#34;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  for (const want of [
    '<html lang="uk">',
    `<title>${esc(uk.name)} — DevHub</title>`,
    `<meta property="og:title" content="${esc(uk.name)} — DevHub" />`,
    `<meta property="og:description" content="${esc(uk.excerpt)}" />`,
    '<meta property="og:type" content="article" />',
    `<link rel="canonical" href="${baseURL}/blog/${uk.id}" />`,
    '<meta property="og:locale" content="uk_UA" />',
    '<meta property="og:locale:alternate" content="en_US" />',
    `<link rel="alternate" hreflang="en" href="${baseURL}/blog/${en.id}" />`,
  ]) {
    expect(html).toContain(want);
  }
});
