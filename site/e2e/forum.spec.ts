import type { Browser, Page } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baseURL, cli, cliJson, expect as baseExpect, signInNewAccount, test, uid } from './fixtures';

// The forum and comments end to end: the real binary, categories made at the terminal, several
// browser contexts for the people taking part, the one moderation queue for the admin. The
// interface is Ukrainian, the site's primary language.

// Each test signs in up to four people, each with a page load and a password hash, and waits
// for several people's pages: on a busy machine that takes longer than the suite's defaults.
test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'uk'));
});

/** A browser context of its own (another person), signed in as a new account. */
async function person(browser: Browser, prefix: string, name: string, admin = false) {
  const context = await browser.newContext({ baseURL, locale: 'en-US', timezoneId: 'UTC' });
  await context.addInitScript(() => localStorage.setItem('preferredLanguage', 'uk'));
  const page = await context.newPage();
  const account = await signInNewAccount(page, { prefix, name, admin });
  return { context, page, ...account };
}

/** The category made with `devhub forum category add`, by its name in Ukrainian. */
function addCategory(word: string): { id: number; uk: string } {
  const uk = `Розділ ${word}`;
  cli(['forum', 'category', 'add', '--name', `Section ${word}`, '--name-in', `uk=${uk}`, '--description', 'E2E']);
  const cats = cliJson<Array<{ id: number; name: string }>>(['forum', 'category', 'list', '--json']);
  return { id: cats.find((c) => c.name === `Section ${word}`)!.id, uk };
}

async function approveFirstInQueue(page: Page, text: string) {
  await page.goto('/forum/moderation');
  const item = page.getByRole('listitem').filter({ hasText: text });
  await item.getByRole('button', { name: 'Схвалити' }).click();
  await expect(item).toHaveCount(0);
}

test('a guest reads the forum but cannot post', async ({ page, browser, consoleErrors }) => {
  const word = uid();
  const cat = addCategory(word);
  const admin = await person(browser, 'forum-admin', 'Адмін', true);
  await admin.page.goto(`/forum/c/${cat.id}`);
  await admin.page.getByLabel('Назва').fill(`Правила ${word}`);
  await admin.page.getByLabel('Текст (Markdown)').fill('Будьте **чемні**.');
  await admin.page.getByRole('button', { name: 'Опублікувати' }).click();
  await expect(admin.page).toHaveURL(/\/forum\/t\/\d+$/);
  await admin.context.close();

  await page.goto('/');
  await page.getByRole('link', { name: 'Форум' }).first().click();
  await expect(page).toHaveURL(/\/forum$/);
  await page.getByRole('link', { name: cat.uk }).click();
  await expect(page.getByRole('link', { name: 'Увійдіть, щоб брати участь' })).toBeVisible();
  await page.getByRole('link', { name: `Правила ${word}` }).click();
  await expect(page.locator('.forum-post__body strong')).toHaveText('чемні');
  await expect(page.getByRole('link', { name: 'Увійдіть, щоб брати участь' })).toBeVisible();
  await expect(page.getByRole('textbox')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Стежити' })).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test('a reply in a thread, approved from the queue, notifies the thread’s starter', async ({ browser }) => {
  const word = uid();
  const cat = addCategory(word);
  const admin = await person(browser, 'forum-admin', 'Адмін', true);
  const user = await person(browser, 'forum-user', 'Оксана');

  await admin.page.goto(`/forum/c/${cat.id}`);
  await admin.page.getByLabel('Назва').fill(`Питання ${word}`);
  await admin.page.getByLabel('Текст (Markdown)').fill('Що нового?');
  await admin.page.getByRole('button', { name: 'Опублікувати' }).click();
  await expect(admin.page.getByRole('button', { name: 'Не стежити' })).toBeVisible(); // the starter follows
  const threadUrl = admin.page.url();

  await user.page.goto(threadUrl);
  await user.page.getByLabel('Ваша відповідь (Markdown)').fill(`Відповідь ${word}`);
  await user.page.getByRole('button', { name: 'Відповісти' }).click();
  await expect(user.page.getByText(/щойно модератор його схвалить/)).toBeVisible();
  await expect(user.page.getByText('Очікує схвалення')).toBeVisible();

  await approveFirstInQueue(admin.page, `Відповідь ${word}`);
  await admin.page.goto(threadUrl);
  await expect(admin.page.getByText(`Відповідь ${word}`)).toBeVisible();
  await expect
    .poll(async () =>
      admin.page.evaluate(async (token) => {
        const res = await fetch('/api/notifications', { headers: { Authorization: `Bearer ${token}` } });
        const page = (await res.json()) as { items: Array<{ kind: string; data: { title?: string } }> };
        return page.items.filter((n) => n.kind === 'forum.reply').map((n) => n.data.title);
      }, admin.token),
    )
    .toContain(`Питання ${word}`);
  await admin.context.close();
  await user.context.close();
});

test('a user comments on an article, another replies, and the admin approves both from the queue', async ({ browser }) => {
  const word = uid();
  const md = join(tmpdir(), `comments-${word}.md`);
  writeFileSync(md, 'Текст для коментарів.\n');
  const article = cliJson<{ id: number }>(['article', 'create', '--name', `Коментарі ${word}`, '--excerpt', 'E2E', '--category', 'E2E', '--file', md]);
  const admin = await person(browser, 'comments-admin', 'Адмін', true);
  const alice = await person(browser, 'comments-a', 'Аліса');
  const bob = await person(browser, 'comments-b', 'Богдан');
  try {
    await alice.page.goto(`/blog/${article.id}`);
    await alice.page.getByLabel('Ваш коментар (Markdown)').fill(`Перший ${word}`);
    await alice.page.getByRole('button', { name: 'Коментувати' }).click();
    await expect(alice.page.getByText(/щойно модератор його схвалить/)).toBeVisible();

    await approveFirstInQueue(admin.page, `Перший ${word}`);

    await bob.page.goto(`/blog/${article.id}`);
    const first = bob.page.getByRole('article', { name: 'Аліса' });
    await expect(first).toContainText(`Перший ${word}`);
    await first.getByRole('button', { name: 'Відповісти' }).click();
    await bob.page.getByLabel('Ваша відповідь для Аліса (Markdown)').fill(`Згоден ${word}`);
    await first.getByRole('button', { name: 'Відповісти' }).click();
    await expect(bob.page.getByRole('article', { name: 'Богдан' })).toContainText('Очікує схвалення');

    // the admin panel in the profile holds the same queue
    await admin.page.goto('/profile?section=admin');
    const item = admin.page.getByRole('listitem').filter({ hasText: `Згоден ${word}` });
    await item.getByRole('button', { name: 'Схвалити' }).click();
    await expect(item).toHaveCount(0);

    await alice.page.reload();
    await expect(alice.page.getByRole('article', { name: 'Богдан' })).toContainText(`Згоден ${word}`);
    await expect(alice.page.getByRole('heading', { level: 2, name: /Коментарі/ })).toContainText('2 коментарі');
  } finally {
    cli(['article', 'rm', String(article.id)]);
    for (const p of [admin, alice, bob]) await p.context.close();
  }
});

test('a long discussion opens at its newest threads; older ones load above with their replies', async ({ page, browser, consoleErrors }) => {
  const word = uid();
  const md = join(tmpdir(), `comment-pages-${word}.md`);
  writeFileSync(md, 'Текст для довгої розмови.\n');
  const article = cliJson<{ id: number }>(['article', 'create', '--name', `Розмова ${word}`, '--excerpt', 'E2E', '--category', 'E2E', '--file', md]);
  const admin = await person(browser, 'comment-pages-admin', 'Адмін', true);
  try {
    // 23 threads (an admin's comments publish at once and are not throttled), and a reply to the
    // oldest written last.
    await admin.page.evaluate(
      async ([id, token, w]) => {
        const post = async (body: object) => {
          const res = await fetch(`/api/blog/${id}/comments`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
            body: JSON.stringify(body),
          });
          if (res.status !== 201) throw new Error(`comment: ${res.status}`);
          return ((await res.json()) as { id: number }).id;
        };
        const oldest = await post({ content: `Нитка 1 ${w}` });
        for (let i = 2; i <= 23; i++) await post({ content: `Нитка ${i} ${w}` });
        await post({ content: `Відповідь на першу ${w}`, parentId: oldest });
      },
      [article.id, admin.token, word] as const,
    );

    await page.goto(`/blog/${article.id}`);
    const thread = page.getByRole('region', { name: /Коментарі/ });
    await expect(thread.getByText(`Нитка 23 ${word}`)).toBeVisible();
    await expect(thread.getByRole('heading', { level: 2 })).toContainText('24 коментарі');
    await expect(thread.getByText(`Нитка 4 ${word}`)).toBeVisible();
    await expect(thread.getByText(`Нитка 3 ${word}`)).toHaveCount(0);
    await expect(thread.getByText(`Відповідь на першу ${word}`)).toHaveCount(0);

    await thread.getByRole('button', { name: 'Попередні коментарі (3)' }).click();
    const first = thread.locator('.comments__list > li').first();
    await expect(first.getByRole('article').first()).toContainText(`Нитка 1 ${word}`);
    await expect(first.locator('.comments__replies')).toContainText(`Відповідь на першу ${word}`);
    await expect(thread.getByRole('button', { name: /Попередні коментарі/ })).toHaveCount(0);
    await expect(thread.locator('.comments__list > li')).toHaveCount(23);
    expect(consoleErrors).toEqual([]);
  } finally {
    cli(['article', 'rm', String(article.id)]);
    await admin.context.close();
  }
});
