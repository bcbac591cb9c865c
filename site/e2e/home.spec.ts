import { expect, test } from './fixtures';

// Home page and the fake chat against
// the real binary.

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('preferredLanguage', 'en'));
});

// [title, link] — the catch-all card has no link.
const SECTION_CARDS: Array<[string, string | null]> = [
  ['Skills', '/skills'],
  ['File cloud', '/filecloud'],
  ['Emulator and games', '/games'],
  ['Alavar games', '/alavar'],
  ['Windows programs', '/programs'],
  ['Forum', '/forum'],
  ['Blog', '/blog'],
  ['Page not found', null],
];

test.describe('home', () => {
  test('shows the hero and the section cards without console errors', async ({ page, consoleErrors }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to DevHub' })).toBeVisible();
    await expect(page.getByText(/still under construction/)).toBeVisible();
    const main = page.getByRole('main');
    for (const [name, href] of SECTION_CARDS) {
      if (href) await expect(main.getByRole('link', { name, exact: true }), name).toHaveAttribute('href', href);
      else await expect(main.getByRole('link', { name, exact: true }), name).toHaveCount(0);
    }
    await expect(main.locator('.home-card')).toHaveCount(SECTION_CARDS.length);
    await expect(main.locator('.home-card svg path')).toHaveCount(SECTION_CARDS.length);
    await expect(main.getByText('Coming soon')).toHaveCount(0);
    await page.waitForLoadState('networkidle');
    expect(consoleErrors).toEqual([]);
  });

  test('a card navigates: anywhere on the card opens its section', async ({ page, consoleErrors }) => {
    await page.goto('/');
    // a click in the middle of the card, not on the title link: the whole card is the hit area
    const blogCard = page.getByRole('listitem').filter({ hasText: 'Articles and notes about development' });
    await blogCard.click({ position: { x: 20, y: ((await blogCard.boundingBox())?.height ?? 40) - 10 } });
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    // the forum's card opens the forum
    await page.goBack();
    await page.getByRole('listitem').filter({ hasText: 'Discussions with other visitors' }).click();
    await expect(page).toHaveURL(/\/forum$/);
    expect(consoleErrors).toEqual([]);
  });

  test('its own language selector switches the page, not the site', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('main').getByRole('combobox', { name: 'Language' }).selectOption('uk');
    await expect(page.getByRole('heading', { level: 1, name: 'Ласкаво просимо до DevHub' })).toBeVisible();
    await expect(page.getByText('Олена Коваленко')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('preferredLanguage'))).toBe('en');
  });

  test('mobile: the cards stack in one column', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    const cards = page.locator('.home-card');
    await expect(cards).toHaveCount(SECTION_CARDS.length);
    const first = (await cards.nth(0).boundingBox())!;
    const second = (await cards.nth(1).boundingBox())!;
    expect(second.y).toBeGreaterThan(first.y + first.height - 1);
    expect(Math.abs(second.x - first.x)).toBeLessThan(1);
    // nothing wider than the window
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

test.describe('chat', () => {
  test('the message is appended, blank ones ignored, and the canned reply arrives after 1000 ms', async ({ page, consoleErrors }) => {
    await page.clock.install({ time: new Date('2030-01-01T00:00:00Z') });
    await page.goto('/chat');
    await expect(page.getByRole('heading', { level: 2, name: 'Sign in to join the room' })).toBeVisible();
    const log = page.getByRole('log', { name: 'Messages' });
    const input = page.getByRole('textbox', { name: 'Message' });
    const send = page.getByRole('button', { name: 'Send' });
    await expect(log).toContainText('No messages yet');

    // from here time moves only when the test says so
    await page.clock.pauseAt(new Date('2030-01-01T01:00:00Z'));

    await input.fill('   ');
    await expect(send).toBeDisabled();
    await input.press('Enter');
    await expect(log).toContainText('No messages yet');

    await input.fill('Hello from Playwright');
    await input.press('Enter');
    await expect(log.locator('.chat-msg--user')).toHaveText(['YouHello from Playwright']);
    await expect(input).toHaveValue('');
    await expect(log).toContainText('DevHub is typing…');

    await page.clock.runFor(999);
    await expect(log.locator('.chat-msg--bot')).toHaveCount(0);
    await page.clock.runFor(1);
    await expect(log.locator('.chat-msg--bot')).toHaveCount(1);
    await expect(log.locator('.chat-msg--bot')).toContainText('automatic reply');
    await expect(log).not.toContainText('DevHub is typing…');
    expect(consoleErrors).toEqual([]);
  });
});
