import { readFileSync } from 'node:fs';
import { activityEvents, expect, test } from './fixtures';

// The global shell against the real binary.

const mainNav = (page: import('@playwright/test').Page) => page.getByRole('navigation', { name: /Main navigation|Головна навігація|Главная навигация/ });

test.describe('shell', () => {
  test('home loads with no console errors', async ({ page, consoleErrors }) => {
    await page.goto('/');
    await expect(page.getByRole('banner').getByRole('link', { name: /DevHub/ })).toHaveAttribute('href', '/');
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(page.getByTestId('app-loader')).toHaveCount(0);
    await expect(mainNav(page).getByRole('link', { name: 'Blog' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText(String(new Date().getFullYear()));
    await page.waitForLoadState('networkidle');
    expect(consoleErrors).toEqual([]);
  });

  test('every route of the spec renders inside the shell without console errors', async ({ page, consoleErrors }) => {
    // Pages owned by other areas change their content; the shell only checks that each route
    // is a real page (a heading, not the not-found page) inside header and footer.
    const routes = [
      '/', '/skills', '/tools', '/tools/camera', '/tools/microphone', '/tools/ip', '/tools/tone_generator',
      '/chat', '/games', '/blog', '/filecloud', '/profile', '/privacy', '/terms',
    ];
    for (const path of routes) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first(), path).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Page not found' }), path).toHaveCount(0);
      await expect(page.getByRole('banner'), path).toBeVisible();
      await expect(page.getByRole('contentinfo'), path).toBeVisible();
    }
    await page.goto('/privacy');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy policy');
    await page.goto('/terms');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms of use');
    await page.waitForLoadState('networkidle');
    expect(consoleErrors).toEqual([]);
  });

  test('language switch changes the header texts and survives a reload', async ({ page }) => {
    await page.goto('/');
    const nav = mainNav(page);
    await expect(nav.getByRole('link', { name: 'Chat' })).toBeVisible();

    await page.getByRole('button', { name: /Choose language/ }).click();
    await page.getByRole('menuitemradio', { name: 'Українська' }).click();
    await expect(nav.getByRole('link', { name: 'Посиденьки' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Блог' })).toBeVisible();
    await expect(nav.getByRole('button', { name: 'Інструменти' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'uk');

    await page.reload();
    await expect(nav.getByRole('link', { name: 'Посиденьки' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Профіль' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('preferredLanguage'))).toBe('uk');

    await page.getByRole('button', { name: /Оберіть мову/ }).click();
    await page.getByRole('menuitemradio', { name: 'Русский' }).click();
    await expect(nav.getByRole('link', { name: 'Посиделки' })).toBeVisible();
  });

  test('a reload in uk, ru and en never shows a translation key (each language loads its own texts)', async ({ page }) => {
    // Every text and label the document shows while it loads, recorded from the first byte on.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { seenTexts: string[] }).seenTexts = seen;
      const record = (n: Node) => {
        if (n.nodeType === Node.TEXT_NODE) seen.push((n.textContent ?? '').trim());
        if (n instanceof Element) {
          for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
            const v = n.getAttribute(a);
            if (v) seen.push(v.trim());
          }
          n.childNodes.forEach(record);
        }
      };
      new MutationObserver((records) => {
        for (const r of records) {
          if (r.type === 'childList') r.addedNodes.forEach(record);
          else if (r.type === 'characterData') record(r.target);
          else if (r.target instanceof Element && r.attributeName) {
            seen.push((r.target.getAttribute(r.attributeName) ?? '').trim());
          }
        }
      }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    // The keys of the shell's locales whose English text is not the key itself.
    const en = JSON.parse(readFileSync(new URL('../src/locales/en.json', import.meta.url), 'utf8')) as object;
    const flat = (o: object, prefix = ''): Array<[string, unknown]> =>
      Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? flat(v, `${prefix}${k}.`) : [[`${prefix}${k}`, v]]));
    const keys = new Set(flat(en).filter(([k, v]) => k !== v).map(([k]) => k));

    const games = { uk: 'Ігри', ru: 'Игры', en: 'Games' };
    await page.goto('/');
    for (const lang of ['uk', 'ru', 'en'] as const) {
      await page.evaluate((l) => localStorage.setItem('preferredLanguage', l), lang);
      await page.reload();
      await expect(mainNav(page).getByRole('link', { name: games[lang] })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await page.waitForLoadState('networkidle');
      const seen = await page.evaluate(() => (window as unknown as { seenTexts: string[] }).seenTexts);
      expect(seen.length, lang).toBeGreaterThan(10);
      expect(seen.filter((t) => keys.has(t)), lang).toEqual([]);
    }
  });

  test('at 800 px the menu button opens the sidebar and an outside click closes it', async ({ page }) => {
    await page.setViewportSize({ width: 800, height: 900 });
    const drawerChunk = (u: string) => /\/assets\/SidebarPanel-[^/]*\.js$/.test(u);
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.goto('/');
    await expect(page.getByRole('banner').getByRole('link', { name: /DevHub/ })).toBeVisible();
    await expect(mainNav(page)).toBeHidden();
    await expect(page.getByRole('button', { name: /Choose language/ })).toBeVisible();
    // the drawer is a chunk of its own, downloaded only when the menu button is about to be used
    await page.waitForLoadState('networkidle');
    expect(requested.filter(drawerChunk)).toEqual([]);

    const button = page.getByRole('button', { name: 'Open menu' });
    await expect(button).toBeVisible();
    await button.click();
    const sidebar = page.getByRole('navigation', { name: 'Menu' });
    await expect(sidebar).toBeVisible();
    expect(requested.filter(drawerChunk)).toHaveLength(1);
    // one close button on screen, the drawer's; the header's menu button stays as it was
    const headerButton = page.locator('.site-header__actions .menu-button');
    await expect(headerButton).toHaveAttribute('aria-expanded', 'true');
    await expect(headerButton.locator('[data-icon="menu"]')).toBeVisible();
    await expect(page.locator('[data-icon="close"]:visible')).toHaveCount(1);
    await expect(sidebar.getByRole('button', { name: 'Close menu' })).toBeVisible();
    await expect(sidebar.getByRole('link', { name: 'Blog' })).toBeVisible();
    // the panel really covers the side of the window (not clipped by the header)
    const box = await sidebar.boundingBox();
    expect(box && box.height).toBeGreaterThan(600);
    await expect(sidebar.getByRole('link', { name: 'Friends' })).toBeInViewport();

    // a click inside keeps it open; a click outside (left of the panel) closes it
    await sidebar.getByRole('heading', { name: 'Tools' }).click();
    await expect(sidebar).toBeVisible();
    await page.mouse.click(60, 500);
    await expect(sidebar).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');

    // choosing a link closes it too
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Games' }).click();
    await expect(page).toHaveURL(/\/games$/);
    await expect(page.getByRole('navigation', { name: 'Menu' })).toBeHidden();
  });

  test('the Tools dropdown closes on route change', async ({ page }) => {
    await page.goto('/');
    const nav = mainNav(page);
    await nav.getByRole('link', { name: 'Blog' }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();

    const tools = nav.getByRole('button', { name: 'Tools' });
    await tools.click();
    const menu = page.getByRole('menu', { name: 'Tools menu' });
    await expect(menu).toBeVisible();
    await expect(tools).toHaveAttribute('aria-expanded', 'true');

    // a route change that involves no click: history back
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
    await expect(menu).toBeHidden();
    await expect(tools).toHaveAttribute('aria-expanded', 'false');

    // choosing an item navigates and closes it
    await tools.click();
    await menu.getByRole('menuitem', { name: 'Your IP' }).click();
    await expect(page).toHaveURL(/\/tools\/ip$/);
    await expect(menu).toBeHidden();

    // an outside click closes it
    await tools.click();
    await expect(menu).toBeVisible();
    await page.getByRole('contentinfo').click({ position: { x: 5, y: 5 } });
    await expect(menu).toBeHidden();
  });

  test('the development tools and the skills are reached from the Tools menu and from the drawer', async ({ page }) => {
    await page.goto('/blog');
    const tools = mainNav(page).getByRole('button', { name: 'Tools' });
    const menu = page.getByRole('menu', { name: 'Tools menu' });
    for (const [name, path, heading] of [
      ['Development tools', '/tools', /Development tools/i],
      ['Skills', '/skills', /Skills/i],
    ] as const) {
      await tools.click();
      await menu.getByRole('menuitem', { name }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole('heading', { level: 1 })).toContainText(heading);
      await expect(page.getByRole('heading', { name: 'Page not found' })).toHaveCount(0);
    }

    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/blog');
    for (const [name, path] of [
      ['Development tools', '/tools'],
      ['Skills', '/skills'],
    ] as const) {
      await page.getByRole('button', { name: 'Open menu' }).click();
      const drawer = page.getByRole('navigation', { name: 'Menu' });
      await drawer.getByRole('link', { name }).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(drawer).toBeHidden();
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    }
  });

  test('an unknown path shows the not-found page', async ({ page }) => {
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(page.getByText('/no/such/page', { exact: false })).toBeVisible();
    await expect(page.getByRole('link', { name: 'File cloud' })).toHaveAttribute('href', '/filecloud');
    await expect(page.getByRole('link', { name: 'Discussion' })).toHaveAttribute('href', '/chat');
    expect(warnings.some((w) => w.includes('/no/such/page'))).toBe(true);

    await page.getByRole('button', { name: 'Emulators' }).click();
    await expect(page).toHaveURL(/\/games$/);
    await page.goBack();
    await page.getByRole('button', { name: 'Home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('a route_change event reaches the store', async ({ page }) => {
    const isOurs = (e: { details: Record<string, unknown> | null }) =>
      e.details?.from === '/' && e.details?.to === '/filecloud';
    const before = activityEvents('route_change').filter(isOurs).map((e) => e.id);

    await page.goto('/');
    await mainNav(page).getByRole('link', { name: 'Files' }).click();
    await expect(page).toHaveURL(/\/filecloud$/);

    await expect
      .poll(() => activityEvents('route_change').filter((e) => isOurs(e) && !before.includes(e.id)).length, {
        timeout: 10_000,
      })
      .toBe(1);
    const [event] = activityEvents('route_change').filter((e) => isOurs(e) && !before.includes(e.id));
    expect(event).toMatchObject({ action: 'route_change', userId: 0 });
    expect(event.ip).toBeTruthy();
    expect(event.clientInfo).toMatchObject({ deviceType: 'desktop', language: 'en-US', timeZone: 'UTC' });

    expect(activityEvents('page_load').length).toBeGreaterThan(0);
    expect(activityEvents('guest_visit').length).toBeGreaterThan(0);
  });
});
