import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect as baseExpect, signInNewAccount, test, uid } from './fixtures';

// Friends, direct messages and the contact form end to end: the real binary, accounts seeded
// through the CLI, two browser contexts (two people) seeing each other's actions live through
// the event stream.

async function person(
  browser: Browser,
  prefix: string,
  name: string,
  admin = false,
): Promise<{ ctx: BrowserContext; page: Page; name: string }> {
  const ctx = await browser.newContext();
  await ctx.addInitScript(() => {
    if (!localStorage.getItem('preferredLanguage')) localStorage.setItem('preferredLanguage', 'en');
  });
  const page = await ctx.newPage();
  await signInNewAccount(page, { prefix, name, admin });
  return { ctx, page, name };
}

/** The page does not scroll sideways. */
async function noSidewaysScroll(page: Page) {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

// Two people, each signed in through the CLI and the API, and every step waited for live: give
// a loaded machine room.
test.describe.configure({ timeout: 120_000 });
test.use({ actionTimeout: 20_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

test('a friend request accepted, then a message delivered live with an unread badge, read and deleted', async ({ browser }) => {
  const u = uid();
  const alice = await person(browser, 'social-a', `Alice ${u}`);
  const bruno = await person(browser, 'social-b', `Bruno ${u}`);
  const a = alice.page;
  const b = bruno.page;

  await b.goto('/profile?section=friends');
  await expect(b.getByRole('heading', { level: 2, name: 'Friends' })).toBeVisible();

  // Alice finds Bruno and asks.
  await a.goto('/profile?section=friends');
  await a.getByRole('searchbox', { name: 'Find people' }).fill(`Bruno ${u}`);
  await a.getByRole('button', { name: `Send Bruno ${u} a friend request` }).click();
  await expect(a.getByRole('list', { name: 'Requests you sent' })).toContainText(`Bruno ${u}`);

  // Bruno's open page shows the request without a reload, and he accepts.
  await b.getByRole('button', { name: `Accept Alice ${u}'s friend request` }).click();
  await expect(b.getByRole('list', { name: 'Your friends' })).toContainText(`Alice ${u}`);
  // Alice's page learns it live too.
  await expect(a.getByRole('list', { name: 'Your friends' })).toContainText(`Bruno ${u}`);

  // Bruno watches his conversation list; Alice writes.
  await b.goto('/profile?section=messages');
  await expect(b.getByText('No conversations yet.')).toBeVisible();
  await a.getByRole('link', { name: `Write to Bruno ${u}` }).click();
  const box = a.getByRole('textbox', { name: 'Message' });
  await box.fill('Hello <b>Bruno</b>!');
  await box.press('Enter');
  const mine = a.getByRole('list', { name: `Messages with Bruno ${u}` }).getByTestId('dm');
  await expect(mine).toHaveCount(1);
  await expect(mine.first()).toContainText('Sent');

  // It arrives in Bruno's list with an unread badge, live.
  const entry = b.getByRole('link', { name: `Conversation with Alice ${u}, unread: 1` });
  await expect(entry).toBeVisible();
  await expect(b.getByTestId('unread-badge')).toHaveText('1');

  // Bruno opens it: the text is text, and Alice sees it read.
  await entry.click();
  const theirs = b.getByRole('list', { name: `Messages with Alice ${u}` }).getByTestId('dm');
  await expect(theirs.first()).toContainText('Hello <b>Bruno</b>!');
  await expect(mine.first()).toContainText('Read');

  // Bruno answers; Alice's open conversation shows it at once.
  await b.getByRole('textbox', { name: 'Message' }).fill('Hi Alice');
  await b.getByRole('button', { name: 'Send' }).click();
  await expect(a.getByRole('list', { name: `Messages with Bruno ${u}` })).toContainText('Hi Alice');

  // Alice deletes her message; it leaves Bruno's screen.
  await mine.first().getByRole('button', { name: 'Delete message' }).click();
  await expect(b.getByText('Hello <b>Bruno</b>!')).toHaveCount(0);

  // The conversation fits a phone.
  await b.setViewportSize({ width: 375, height: 740 });
  await noSidewaysScroll(b);
  await b.goto('/profile?section=friends');
  await expect(b.getByRole('list', { name: 'Your friends' })).toBeVisible();
  await noSidewaysScroll(b);

  await alice.ctx.close();
  await bruno.ctx.close();
});

test('a guest writes through the contact form and an admin reads it in their messages', async ({ browser }) => {
  const u = uid();
  const guestCtx = await browser.newContext({ viewport: { width: 375, height: 740 } });
  await guestCtx.addInitScript(() => {
    if (!localStorage.getItem('preferredLanguage')) localStorage.setItem('preferredLanguage', 'en');
  });
  const guest = await guestCtx.newPage();
  await guest.goto('/');
  await guest.getByRole('contentinfo').getByRole('link', { name: 'Write to us' }).click();
  await expect(guest).toHaveURL(/\/contact$/);
  await guest.getByLabel('Your name').fill(`Visitor ${u}`);
  await guest.getByLabel('Your e-mail').fill(`visitor-${u}@example.org`);
  await guest.getByLabel('Message').fill(`Hello owner ${u}`);
  await expect(guest.getByText('Ready to send.')).toBeVisible({ timeout: 20_000 });
  await noSidewaysScroll(guest);
  await guest.getByRole('button', { name: 'Send' }).click();
  await expect(guest.getByRole('status').filter({ hasText: 'Thank you! Your message was sent.' })).toBeVisible();
  await guestCtx.close();

  // It lands in the admins' messages as the contact form's own conversation.
  const admin = await person(browser, 'social-admin', `Owner ${u}`, true);
  await admin.page.goto('/profile?section=messages');
  await admin.page.getByRole('link', { name: /^Conversation with Contact form/ }).click();
  const log = admin.page.getByRole('list', { name: 'Messages with Contact form' });
  await expect(log).toContainText(`Hello owner ${u}`);
  await expect(log.getByRole('link', { name: `visitor-${u}@example.org` })).toHaveAttribute('href', `mailto:visitor-${u}@example.org`);
  await expect(admin.page.getByText('Messages from the contact form are answered by e-mail.')).toBeVisible();
  await admin.ctx.close();
});
