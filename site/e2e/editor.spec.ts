import type { Browser, Page } from '@playwright/test';
import { cli, cliJson, expect as baseExpect, signInNewAccount, test, uid } from './fixtures';

// Each step waits longer than the default: the editor's page, its preview and its autosave are
// several round trips each, and the machine running these may be busy.
const expect = baseExpect.configure({ timeout: 20_000 });

// The blog's editor end to end: the real binary, admins signed in through the CLI's accounts,
// readers as guests in browser contexts of their own.

/** A 1×1 PNG, as a screenshot pasted from the clipboard would arrive. */
const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
});

async function signInAdmin(page: Page) {
  return signInNewAccount(page, { prefix: 'editor-admin', name: 'Editor Admin', admin: true });
}

/** A guest's page in a context of its own. */
async function guestPage(browser: Browser): Promise<Page> {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
  return page;
}

const saveState = (page: Page) => page.getByTestId('save-state');
const markdown = (page: Page) => page.getByRole('textbox', { name: 'Text (Markdown)' });


// The articles these tests write, removed after them: the blog's first page, which other specs
// read, stays as the shipped content made it.
const written: number[] = [];
test.afterAll(() => {
  for (const id of written) cli(['article', 'rm', String(id)]);
});

test('a draft with a pasted image, previewed, scheduled a few seconds ahead, appears in the list at its time', async ({ page, browser }) => {
  test.setTimeout(150_000);
  await signInAdmin(page);
  const name = `Scheduled piece ${uid()}`;
  await page.goto('/blog/new');
  await expect(page.getByRole('heading', { level: 1, name: 'New article' })).toBeVisible();
  await page.getByLabel('Title').fill(name);
  await page.getByLabel('Summary').fill('Written in the editor');
  await page.getByLabel('Category', { exact: true }).fill('E2E');
  await markdown(page).fill('Hello **world** from the editor.\n\n');

  // The live preview is the server's rendering.
  await expect(page.getByTestId('preview').locator('strong')).toHaveText('world');
  // A draft is saved by itself, and the page moves to its address.
  await expect(saveState(page)).toHaveText('Saved');
  await expect(page).toHaveURL(/\/blog\/\d+\/edit$/);
  const id = Number(/\/blog\/(\d+)\/edit/.exec(page.url())![1]);
  written.push(id);

  // A pasted image is uploaded and goes in at the caret, its alt text ready to be filled.
  await markdown(page).focus();
  await markdown(page).press('End');
  await page.evaluate((b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], 'shot.png', { type: 'image/png' }));
    document.activeElement!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, PNG_B64);
  await expect(markdown(page)).toHaveValue(/!\[image description\]\(\/api\/files\/\d+\/download\)/);
  const src = /\((\/api\/files\/\d+\/download)\)/.exec(await markdown(page).inputValue())![1];
  await expect(page.getByTestId('preview').locator(`img[src="${src}"]`)).toHaveCount(1);
  await expect(saveState(page)).toHaveText('Saved');

  // A draft is nobody's but the admins'.
  const guest = await guestPage(browser);
  const seen = await guest.request.get(`/api/blog/${id}`);
  expect(seen.status()).toBe(404);

  // Scheduled a few seconds ahead (the browser's time zone is UTC here).
  const at = new Date(Date.now() + 20_000);
  await page.getByLabel('Status').selectOption('scheduled');
  await page.getByLabel('Publish at').fill(at.toISOString().slice(0, 19));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(saveState(page)).toHaveText('Saved');
  const article = cliJson<{ status: string; publishAt: string }>(['article', 'show', String(id), '--json']);
  expect(article.publishAt).toBe(at.toISOString().slice(0, 19) + 'Z');

  // The admin's list marks it; the guest's list shows it once its time has come, without a restart.
  await page.goto('/blog');
  const card = page.getByRole('article').filter({ hasText: name });
  await expect(card).toHaveCount(1);
  // (on a slow machine its time may already have come: then it is simply published)
  if (Date.now() < at.getTime() - 3_000) await expect(card.locator('[data-status="scheduled"]')).toHaveCount(1);
  await guest.goto('/blog');
  await expect(guest.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible();
  await expect
    .poll(
      async () => {
        await guest.reload();
        await guest.getByRole('heading', { level: 1, name: 'Blog' }).waitFor();
        return guest.getByRole('link', { name }).count();
      },
      { timeout: 60_000, intervals: [1_000] },
    )
    .toBeGreaterThan(0);
  expect(Date.now()).toBeGreaterThanOrEqual(at.getTime() - 1_000);
  await guest.context().close();
});

test('an admin edits a published article; a second admin’s stale save is refused with a way to reload', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const name = `Published piece ${uid()}`;
  const created = cliJson<{ id: number }>(
    ['article', 'create', '--name', name, '--excerpt', 'Before', '--category', 'E2E', '--file', '-'],
    { input: 'The first text.\n' },
  );
  written.push(created.id);
  await signInAdmin(page);
  await page.goto(`/blog/${created.id}/edit`);
  await expect(page.getByRole('heading', { level: 1, name: 'Edit article' })).toBeVisible();
  await expect(markdown(page)).toHaveValue('The first text.');

  // A second admin, in a browser of their own, opens the same article.
  const otherCtx = await browser.newContext();
  const other = await otherCtx.newPage();
  await other.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
  await signInAdmin(other);
  await other.goto(`/blog/${created.id}/edit`);
  await expect(markdown(other)).toHaveValue('The first text.');

  // A published article is not saved while typing: it waits for Save.
  await page.getByLabel('Title').fill(`${name} (edited)`);
  await expect(saveState(page)).toHaveText('Unsaved changes');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(saveState(page)).toHaveText('Saved');

  // The other admin's save is based on the old version: refused, said so, reloadable.
  await markdown(other).fill('Their text.');
  await other.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(other.getByRole('alert').filter({ hasText: 'Someone else saved this article' })).toBeVisible();
  await other.getByRole('button', { name: 'Reload the article' }).click();
  await expect(other.getByLabel('Title')).toHaveValue(`${name} (edited)`);
  await expect(saveState(other)).toHaveText('Saved');
  await otherCtx.close();

  // Readers see the edit; the revision list keeps the text before it.
  const guest = await guestPage(browser);
  await guest.goto(`/blog/${created.id}`);
  await expect(guest.getByRole('heading', { level: 1, name: `${name} (edited)` })).toBeVisible();
  await guest.context().close();
  await markdown(page).fill('The second text.');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(saveState(page)).toHaveText('Saved');
  const revisions = page.getByRole('region', { name: 'Earlier versions' }).getByRole('listitem');
  await expect(revisions.first()).toContainText('@'); // the author's e-mail
  await revisions.last().getByRole('button', { name: /Restore/ }).click();
  await expect(markdown(page)).toHaveValue('The first text.');
});

test('an article and the blog list read with JavaScript disabled', async ({ browser }) => {
  test.setTimeout(60_000);
  const name = `Readable <without> scripts ${uid()}`;
  const created = cliJson<{ id: number }>(
    ['article', 'create', '--name', name, '--excerpt', 'No script needed', '--category', 'E2E', '--file', '-'],
    { input: 'A paragraph with **strong words**.\n\n<script>window.__xss = 1</script>\n' },
  );
  written.push(created.id);
  const draftName = `Hidden draft ${uid()}`;
  const draft = cliJson<{ id: number }>(
    ['article', 'create', '--name', draftName, '--excerpt', 'x', '--category', 'E2E', '--status', 'draft', '--file', '-'],
    { input: 'secret\n' },
  );
  written.push(draft.id);
  const ctx = await browser.newContext({ javaScriptEnabled: false });
  const page = await ctx.newPage();
  await page.goto(`/blog/${created.id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.locator('strong', { hasText: 'strong words' })).toBeVisible();
  await expect(page.locator('time').first()).toBeVisible();
  await page.goto('/blog');
  await expect(page.getByRole('link', { name })).toBeVisible();
  await expect(page.getByText(draftName)).toHaveCount(0);
  await page.getByRole('link', { name }).click();
  await expect(page).toHaveURL(new RegExp(`/blog/${created.id}$`));
  await ctx.close();
});
