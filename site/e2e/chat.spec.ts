// The chat room and notifications, live, with several browsers at once: two users chat, an admin
// deletes a message and it disappears for the other, a guest keeps the local chat, and the bell
// counts a mention as it happens.
import type { Browser, Page } from '@playwright/test';
import { expect, signInNewAccount, test, uid } from './fixtures';

// Each test signs in two or three new accounts (password hashing included) on a shared machine.
test.describe.configure({ timeout: 180_000 });

/** A new browser (its own storage) signed in as a new account, on /chat in English. */
async function member(browser: Browser, prefix: string, admin = false) {
  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
  const page = await context.newPage();
  const name = `${prefix}${uid()}`;
  await signInNewAccount(page, { prefix, name, admin });
  await page.goto('/chat');
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible({ timeout: 30_000 });
  return { context, page, name };
}

async function say(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('');
}

const log = (page: Page) => page.getByRole('log', { name: 'Messages' });
const bell = (page: Page, name: string) => page.getByRole('banner').getByRole('link', { name, exact: true });

test('two users chat live, and see each other online', async ({ browser }) => {
  const ann = await member(browser, 'ann');
  const bob = await member(browser, 'bob');
  await expect(ann.page.getByRole('complementary', { name: /Online/ })).toContainText(bob.name);

  const hello = `hello ${uid()} <b>bold?</b> https://example.com/x`;
  await say(ann.page, hello);
  const got = log(bob.page).getByText(`hello `, { exact: false }).last();
  await expect(got).toHaveText(hello);
  await expect(got.locator('b')).toHaveCount(0);
  await expect(got.getByRole('link', { name: 'https://example.com/x' })).toHaveAttribute('rel', /noopener/);

  const reply = `reply ${uid()}`;
  await say(bob.page, reply);
  await expect(log(ann.page).getByText(reply)).toBeVisible();

  // A closed client is noticed by the heartbeats written to it (about three: 45 s by default).
  await bob.context.close();
  await expect(ann.page.getByRole('complementary', { name: /Online/ })).not.toContainText(bob.name, { timeout: 90_000 });
  await ann.context.close();
});

test('an admin deletes a message and it disappears from the other screen', async ({ browser }) => {
  const root = await member(browser, 'root', true);
  const cat = await member(browser, 'cat');
  const text = `delete me ${uid()}`;
  await say(cat.page, text);
  await expect(log(root.page).getByText(text)).toBeVisible();
  await expect(log(cat.page).getByText(text)).toBeVisible();
  await expect(cat.page.getByRole('button', { name: /Delete the message/ })).toHaveCount(0);

  const item = log(root.page).getByRole('listitem').filter({ hasText: text });
  await item.getByRole('button', { name: `Delete the message from ${cat.name}` }).click();
  await expect(log(cat.page).getByText(text)).toHaveCount(0);
  await expect(log(root.page).getByText(text)).toHaveCount(0);
  await root.context.close();
  await cat.context.close();
});

test('a guest sees the local chat and an invitation to sign in', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
  await page.goto('/chat');
  const note = page.getByRole('complementary', { name: 'Sign in to join the room' });
  await expect(note).toBeVisible();
  await expect(note.getByRole('link', { name: 'Sign in to join' })).toHaveAttribute('href', '/profile');
  await page.getByRole('textbox', { name: 'Message' }).fill('just me');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(log(page).getByText('just me')).toBeVisible();
  await expect(log(page).getByText(/automatic reply/)).toBeVisible();
});

test("the bell counts a mention live, and the list shows it", async ({ browser }) => {
  const dan = await member(browser, 'dan');
  const eve = await member(browser, 'eve');
  await eve.page.goto('/');
  await expect(bell(eve.page, 'Notifications')).toBeVisible();

  await say(dan.page, `hi @${eve.name}, look`);
  await expect(bell(eve.page, 'Notifications: 1 unread')).toBeVisible();
  await bell(eve.page, 'Notifications: 1 unread').click();
  await expect(eve.page.getByRole('link', { name: `${dan.name} mentioned you` })).toBeVisible();
  await eve.page.getByRole('button', { name: 'Mark all read' }).click();
  await expect(bell(eve.page, 'Notifications')).toBeVisible();
  await dan.context.close();
  await eve.context.close();
});
