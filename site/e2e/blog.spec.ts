import type { Page } from '@playwright/test';
import { baseURL, cli, cliJson, expect, signInNewAccount, test, uid } from './fixtures';

// Blog end to end: the real binary with content/ imported on its first start, an admin
// seeded through the CLI (owner socket), the real browser. The interface is switched to Russian,
// the language in which the spec states the blog's toasts.


test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'ru'));
});

/** Creates an admin with the CLI and signs the page in as them through the API. */
async function signInAsAdmin(page: Page) {
  await signInNewAccount(page, { prefix: 'blog-admin', name: 'Blog Admin', admin: true });
}

const searchBox = (page: Page) => page.getByLabel('Поиск статей');

test('an admin creates an article, finds it, reads it rendered and deletes it', async ({ page, consoleErrors }) => {
  await signInAsAdmin(page);
  const word = `зебра${uid()}`;
  const name = `Проверка блога ${word}`;

  await page.goto('/blog');
  await expect(page.getByRole('heading', { level: 1, name: 'Блог' })).toBeVisible();
  await page.getByRole('button', { name: 'Создать статью' }).click();
  const form = page.getByRole('dialog', { name: 'Новая статья' });
  await form.getByLabel('Название').fill(name);
  await form.getByLabel('Краткое описание').fill('Статья из браузерного теста');
  await form
    .getByLabel('Текст (Markdown)')
    .fill(
      [
        '## Раздел с кодом',
        '',
        `Слово ${word.toUpperCase()} и **жирный** текст.`,
        '',
        '```go',
        'func main() { println("hi") }',
        '```',
        '',
        '[опасная ссылка](javascript:window.__xss=1)',
        '',
        '<script>window.__xss = 2</script>',
        '',
        '| a | b |',
        '|---|---|',
        '| 1 | 2 |',
      ].join('\n'),
    );
  await form.getByLabel('Категория').fill('E2E');
  await form.getByRole('button', { name: 'Создать' }).click();
  await expect(page.getByText('Статья успешно создана')).toBeVisible();
  await expect(form).toBeHidden();

  // The search (debounced) finds it by a word of its text, typed in another letter case.
  await searchBox(page).fill(word.toUpperCase());
  const card = page.getByRole('article').filter({ has: page.getByRole('link', { name }) });
  await expect(card).toHaveCount(1);
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(page.getByText('Статей: 1')).toBeVisible();

  // Open it: the Markdown is rendered on the server, highlighted with classes, and sanitised.
  // the title (exactly: the card's "Read more" link names the article too)
  await card.getByRole('link', { name, exact: true }).click();
  await expect(page).toHaveURL(/\/blog\/\d+$/);
  const id = page.url().split('/').pop()!;
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const content = page.locator('.blog-article__content');
  await expect(content.getByRole('heading', { level: 2, name: 'Раздел с кодом' })).toBeVisible();
  await expect(content.locator('strong')).toHaveText('жирный');
  await expect(content.locator('pre.chroma .kd')).toHaveText('func');
  await expect(content.getByRole('table')).toBeVisible();
  await expect(content.getByText('опасная ссылка')).toBeVisible();
  await expect(content.locator('a[href^="javascript" i]')).toHaveCount(0);
  await expect(content.locator('script')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'E2E' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

  // Back to the list as it was (the search is in the address), delete it after confirming.
  await page.getByRole('link', { name: /Все статьи/ }).click();
  await expect(page).toHaveURL(/\/blog\?search=/);
  await expect(searchBox(page)).toHaveValue(word.toUpperCase());
  await expect(page.getByRole('article')).toHaveCount(1);
  await searchBox(page).fill(word);
  await expect(page.getByRole('link', { name, exact: true })).toBeVisible();
  await page.getByRole('button', { name: `Удалить статью «${name}»` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Удалить статью?' });
  await confirm.getByRole('button', { name: 'Отмена' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('link', { name, exact: true })).toBeVisible();
  await page.getByRole('button', { name: `Удалить статью «${name}»` }).click();
  await confirm.getByRole('button', { name: 'Удалить' }).click();
  await expect(page.getByText('Статья успешно удалена')).toBeVisible();
  await expect(page.getByRole('link', { name })).toHaveCount(0);
  await expect(page.getByText('Статьи не найдены')).toBeVisible();

  // Gone everywhere: the CLI (through the owner socket) and the article page.
  expect(cliJson<unknown[]>(['article', 'list', '--search', word])).toEqual([]);
  await page.goto(`/blog/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Статья не найдена' })).toBeVisible();
  expect(consoleErrors.filter((e) => !e.includes('404'))).toEqual([]);
});

test('a guest reads the imported articles but sees no create or delete buttons', async ({ page, consoleErrors }) => {
  await page.goto('/blog');
  await expect(page.getByRole('article').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Создать статью' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Удалить/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Лента Atom' })).toHaveAttribute('href', '/feed.xml');
  await searchBox(page).fill('one BINARY');
  await expect(page.getByRole('link', { name: 'Running devhub — one binary, one data directory', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Удалить/ })).toHaveCount(0);
  // The card's "Read more" link says which article it opens (link text for search engines too).
  await expect(page.getByRole('link', { name: 'Читать далее о «Running devhub — one binary, one data directory»' })).toHaveAttribute(
    'href',
    /^\/blog\/\d+$/,
  );

  // Cyrillic search regardless of case finds the Ukrainian article; its SVG cover is an <img>.
  await searchBox(page).fill('ПОШУК');
  const card = page.getByRole('article').filter({ has: page.getByRole('link', { name: /Блог devhub/ }) });
  await expect(card).toHaveCount(1);
  const src = await card.locator('img').getAttribute('src');
  expect(src?.startsWith('data:image/svg+xml,')).toBe(true);
  await expect(card.locator('svg')).toHaveCount(0);

  // The category filter.
  await searchBox(page).fill('');
  await page.getByLabel('Категория').selectOption({ label: 'Emulator (1)' });
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(page.getByRole('link', { name: /^Retro games without a CDN/ })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test('hostile Markdown, titles and SVG images render inert on the list and the article page', async ({ page, consoleErrors }) => {
  await signInAsAdmin(page);
  const word = `xss${uid()}`;
  const name = `"><script>window.__xss=1</script><img src=x onerror="window.__xss=2"> ${word}`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" onload="window.__xss=3" viewBox="0 0 4 4"><rect width="4" height="4" fill="#c00"/></svg>`;
  const content = [
    '<script>window.__xss = 4</script>',
    '',
    '<img src=x onerror="window.__xss=5">',
    '',
    '[plain](javascript:window.__xss=6) [mixed](JaVaScRiPt:window.__xss=7) [spaced]( javascript:window.__xss=8)',
    '',
    '[vb](vbscript:msgbox) [html](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) <javascript:window.__xss=9>',
    '',
    '![svgdata](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
    '',
    '<svg onload="window.__xss=10"></svg><iframe src="javascript:window.__xss=11"></iframe>',
    '',
    `Visible ${word} text.`,
  ].join('\n');
  const created = await page.evaluate(
    async (body) => {
      const res = await fetch('/api/api/blog', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${localStorage.getItem('token')}` },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { id: number; image_url: string } };
    },
    { name, excerpt: '<b>bold?</b> & more', category: 'XSS', content, image_url: svg },
  );
  expect(created.status).toBe(201);
  expect(created.body.image_url).toBe(svg); // stored as given

  const inert = async (root: ReturnType<Page['locator']>) => {
    await expect(root.locator('script, iframe, object, embed, svg')).toHaveCount(0);
    await expect(root.locator('[onload], [onerror], [onclick], [onmouseover]')).toHaveCount(0);
    await expect(root.locator('a[href^="javascript" i], a[href^="vbscript" i], a[href^="data:" i], a[href^=" " i]')).toHaveCount(0);
  };

  // The list: the title is text, the SVG is a data: URL in an <img>.
  await page.goto('/blog');
  await searchBox(page).fill(word);
  const card = page.getByRole('article').filter({ hasText: word });
  await expect(card).toHaveCount(1);
  await expect(card.getByRole('heading', { level: 2 })).toHaveText(name);
  await expect(card.getByText('<b>bold?</b> & more')).toBeVisible();
  const src = await card.locator('img').getAttribute('src');
  expect(src).toBe(`data:image/svg+xml,${encodeURIComponent(svg)}`);
  await inert(page.locator('main'));

  // The article page: every hostile construct is gone, the text around it stays.
  await card.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  const body = page.locator('.blog-article__content');
  await expect(body.getByText(`Visible ${word} text.`)).toBeVisible();
  // Dropped links keep their text; the dropped autolink shows as plain text.
  await expect(body).toContainText('plain mixed spaced');
  await expect(body).toContainText('vb html javascript:window.__xss=9');
  await expect(body.locator('img')).toHaveCount(0);
  await inert(page.locator('main'));
  expect(await page.locator('.blog-article__image').getAttribute('src')).toBe(`data:image/svg+xml,${encodeURIComponent(svg)}`);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

  // The owner edits it from the terminal while the server runs; the page shows the new title.
  const id = page.url().split('/').pop()!;
  cli(['article', 'edit', id, '--name', `Edited ${word}`, '--image', '']);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Edited ${word}`);
  await expect(page.locator('.blog-article__image')).toHaveCount(0);
  cli(['article', 'rm', id]);
  expect(consoleErrors).toEqual([]);
});

test('the feed and the API answer for guests; writes need an admin', async ({ request }) => {
  const feed = await request.get(`${baseURL}/feed.xml`);
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toContain('application/atom+xml');
  expect(await feed.text()).toContain('The devhub CLI and the owner socket');

  // The feed escapes what it carries.
  const name = `"><script>alert(1)</script> feed ${uid()}`;
  const id = /created article (\d+)/.exec(
    cli(['article', 'create', '--name', name, '--excerpt', '<img src=x onerror=alert(1)>', '--category', 'E2E', '--file', '-'], { input: 'body\n' }),
  )![1];
  const xml = await (await request.get(`${baseURL}/feed.xml`)).text();
  expect(xml).toContain('&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt; feed');
  expect(xml).toContain('&lt;img src=x onerror=alert(1)&gt;');
  expect(xml).not.toContain('<script');
  expect(xml).not.toContain('<img');
  cli(['article', 'rm', id]);

  const list = await request.get(`${baseURL}/api/api/blog?limit=5&page=1&category=all&search=`);
  const body = (await list.json()) as { articles: unknown[]; totalCount: number };
  expect(body.totalCount).toBeGreaterThanOrEqual(5);
  expect((await request.get(`${baseURL}/api/blog?page=0`)).status()).toBe(400);
  expect((await request.get(`${baseURL}/api/api/blog?page=abc`)).status()).toBe(400);
  const capped = (await (await request.get(`${baseURL}/api/blog?limit=1000`)).json()) as { articles: unknown[] };
  expect(capped.articles.length).toBeLessThanOrEqual(50);
  const create = await request.post(`${baseURL}/api/api/blog`, {
    data: { name: 'x', excerpt: 'x', content: 'x', category: 'x' },
  });
  expect(create.status()).toBe(401);
});
