import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { devhubBin } from './env';
import { decoded, type Mail, type MailDevhub, startMailDevhub } from './mailSink';

// The blog's newsletter end to end on a devhub of this spec's own with mail on, sending to an SMTP
// sink in this process: a visitor subscribes on the blog page and confirms from the captured
// mail; an article published is mailed to the confirmed subscribers once, with List-Unsubscribe;
// the unsubscribe link in the letter takes the address off the list.

let dh: MailDevhub;
test.beforeAll(async () => {
  dh = await startMailDevhub('newsletter');
});
test.afterAll(() => dh?.stop());

/** A CLI command against this spec's devhub (through its socket while it runs). */
const devhub = (args: string[]) => execFileSync(devhubBin, args, { env: dh.env, encoding: 'utf8' });

/** The mails to `to` whose decoded text holds `about`. */
const mailsTo = (to: string, about: string): Mail[] => dh.sink.mails.filter((m) => m.to.includes(to) && decoded(m.data).includes(about));

/** The one mail to `to` about `about`, once it has come. */
async function theMail(to: string, about: string): Promise<string> {
  await expect.poll(() => mailsTo(to, about).length, { timeout: 30_000 }).toBe(1);
  return decoded(mailsTo(to, about)[0].data);
}

/** A header of a raw mail, its folded lines joined. */
function header(raw: string, name: string): string | undefined {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  return new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1];
}

function link(text: string, action: 'confirm' | 'unsubscribe'): string {
  const found = new RegExp(`http://127\\.0\\.0\\.1:\\d+/api/newsletter/${action}\\?token=[^\\s"<>&]+`).exec(text)?.[0];
  expect(found, `a ${action} link`).toBeTruthy();
  return found!;
}

/** Publishes an English article from the terminal, first as a draft (which is never mailed). */
function publish(name: string): number {
  const md = join(dh.dataDir, `${name}.md`);
  writeFileSync(md, `Text of ${name}.\n`);
  const a = JSON.parse(
    devhub(['article', 'create', '--name', name, '--excerpt', `About ${name}`, '--category', 'News', '--lang', 'en', '--status', 'draft', '--file', md, '--json']),
  ) as { id: number };
  devhub(['article', 'edit', String(a.id), '--status', 'published']);
  return a.id;
}

test('subscribe, confirm from the mail, get a published article once with List-Unsubscribe, unsubscribe by its link', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const reader = `reader-${stamp}@example.com`;
  const stayer = `stayer-${stamp}@example.com`;
  const ctx = await browser.newContext({ baseURL: dh.base, locale: 'en-US' });
  const page = await ctx.newPage();
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));

  // The reader subscribes on the blog page, in the interface language.
  await page.goto('/blog');
  const box = page.getByRole('region', { name: 'Blog newsletter' });
  await box.getByLabel('E-mail').fill(reader);
  await box.getByRole('button', { name: 'Subscribe' }).click();
  await expect(box.getByRole('status')).toHaveText('Check your mailbox: a link to confirm the subscription is on its way.');
  const confirmation = await theMail(reader, 'Confirm the subscription');
  // Opening the link only asks (mail scanners open every link); the reader's button confirms.
  await page.goto(link(confirmation, 'confirm'));
  await page.getByRole('button', { name: 'Confirm the subscription' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Subscription confirmed');
  await expect(page.getByText(`New articles of the blog will come to ${reader}`)).toBeVisible();

  // A second subscriber, who stays: a plain GET of the link (a scanner's) confirms nothing, the
  // page's POST does.
  const subscribed = await page.evaluate(
    (email) =>
      fetch('/api/newsletter/subscribe', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, lang: 'en' }) }).then(
        (r) => r.status,
      ),
    stayer,
  );
  expect(subscribed).toBe(202);
  const stayerLink = link(await theMail(stayer, 'Confirm the subscription'), 'confirm');
  expect((await request.get(stayerLink)).status()).toBe(200);
  expect(JSON.parse(devhub(['newsletter', 'count', '--json']))).toMatchObject({ confirmed: 1, pending: 1 });
  expect((await request.post(stayerLink)).status()).toBe(200);
  expect(JSON.parse(devhub(['newsletter', 'count', '--json']))).toMatchObject({ confirmed: 2, pending: 0 });

  // An article published is mailed to both, with List-Unsubscribe for a one-click unsubscribe.
  const first = `Newsletter first ${stamp}`;
  const firstId = publish(first);
  const letter = await theMail(reader, first);
  const raw = mailsTo(reader, first)[0].data;
  const unsubscribe = link(letter, 'unsubscribe');
  expect(header(raw, 'List-Unsubscribe')).toBe(`<${unsubscribe}>`);
  expect(header(raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  expect(letter).toContain(`${dh.base}/blog/${firstId}`);
  await theMail(stayer, first);

  // Once: an edit of the article wakes the dispatcher again, and a later article's letter comes
  // after it — still one letter about the first.
  devhub(['article', 'edit', String(firstId), '--category', 'Updates']);
  const second = `Newsletter second ${stamp}`;
  publish(second);
  await theMail(reader, second);
  await theMail(stayer, second);
  expect(mailsTo(reader, first)).toHaveLength(1);
  expect(mailsTo(stayer, first)).toHaveLength(1);

  // The letter's unsubscribe link, opened from the mail, takes the reader off the list.
  await page.goto(unsubscribe);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are unsubscribed');
  await expect(page.getByText(`${reader} was removed from the list.`)).toBeVisible();
  expect(JSON.parse(devhub(['newsletter', 'count', '--json']))).toMatchObject({ confirmed: 1 });
  const third = `Newsletter third ${stamp}`;
  publish(third);
  await theMail(stayer, third);
  expect(mailsTo(reader, third)).toHaveLength(0);
  // The link is spent.
  await page.goto(unsubscribe);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link does not work');
  await ctx.close();
});
